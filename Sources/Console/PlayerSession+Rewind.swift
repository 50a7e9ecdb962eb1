import Foundation
import PlayerCore

extension PlayerSession {
    /// Before resuming: goes back by `AutoRewind`'s amount for the time paused (measured from the
    /// engine's pause report with the monotonic clock), never past the start of the chapter, or
    /// of the item when the chapter began in an earlier one. Not a jump: no bookmark to undo.
    func rewindAfterPause() {
        guard let pausedSince, let rewindMaxSeconds else { return }
        self.pausedSince = nil
        let paused = pausedSince.duration(to: .now).seconds
        let seconds = AutoRewind.seconds(pausedFor: paused, maxSeconds: rewindMaxSeconds)
        let here = position
        let rate = Double(timeline.items[here.item].sampleRate)
        var floor: Int64 = 0
        if let chapter = timeline.chapterIndex(at: here).map({ timeline.chapters[$0] }), chapter.item == here.item {
            floor = chapter.startFrame
        }
        let target = PlaybackPosition(item: here.item, frame: max(floor, here.frame - Int64(seconds * rate)))
        guard target.frame < here.frame else { return }
        jump(to: target, kind: nil)
        let back = Double(here.frame - target.frame) / rate
        onNotice("rewound \(String(format: back < 10 ? "%.1f" : "%.0f", back)) s")
    }
}
