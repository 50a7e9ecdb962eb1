public enum PlaybackState: Sendable, Equatable {
    case stopped, playing, paused
}

/// A place in a list of media items: which item, and which frame of it.
public struct PlaybackPosition: Sendable, Hashable, CustomStringConvertible {
    public let item: Int
    public let frame: Int64

    public init(item: Int, frame: Int64) {
        self.item = item
        self.frame = frame
    }

    public var description: String { "item \(item) frame \(frame)" }
}

/// The media item now heard, as the engine opened it.
public struct ItemInfo: Sendable, Equatable {
    public let index: Int
    public let path: String
    public let stream: StreamInfo
    public let metadata: MediaMetadata
}

public enum PlaybackEvent: Sendable {
    case stateChanged(PlaybackState)
    /// The frame being heard now (sink latency already subtracted).
    case position(PlaybackPosition)
    case itemChanged(ItemInfo)
    /// An item could not be opened or decoded; playback goes on with the next one.
    case failed(item: Int, error: AudioError)
    /// The last item (or the end of the range) has been played out.
    case ended
    /// The output stopped working (server died, device unplugged), or would not open (no server
    /// yet, at the start or for the next item): playback is paused at the frame heard last (or
    /// the one it was to start at), and resumes there by itself once the output opens again,
    /// tried with backoff (`.outputRestored`). Which of the two it was, the caller knows: it
    /// has heard a position while playing, or not.
    case outputLost(String)
    /// The lost output opened again; playing from where it was lost.
    case outputRestored
    /// The server moved the stream to another device: playback is paused; `play()` continues
    /// on the new device.
    case outputMoved(String)
    /// Playback continues on the output given to `setOutput`.
    case outputChanged
    /// The decoder thread applied a new speed (what follows in the output buffer plays at it).
    case speedChanged(Double)
    /// Skip silence cut `frames` source frames (at `sourceRate`) out of a silence in `item`. Sent
    /// when the cut is decoded, about half a second before it is heard.
    case silenceSkipped(item: Int, frames: Int64, sourceRate: Int)
    /// Intro or outro skipping (`ItemTrim`) left out `frames` source frames (at `sourceRate`)
    /// of `item`: its start when it opened there or a jump landed in it, its end when decoding
    /// reached it. Sent when decided, before what follows is heard.
    case trimmed(item: Int, frames: Int64, sourceRate: Int)
    /// The decoder thread applied a new volume, in percent.
    case volumeChanged(Double)
    /// A fade-out (`fadeOut`, or the approach of a pause point) went to silence: playback is
    /// paused at this position, and the volume is back for the next play.
    case fadedOut(PlaybackPosition)
    /// A fade-out or pause point was dropped: by play, toggle, pause, stop, `cancelFade`, or a
    /// jump past the point. The volume is back.
    case fadeCancelled
    /// The engine took the play list given to `replaceItems`: the events after this one number
    /// the items as that list does, those before it as the list before.
    case itemsReplaced(ItemRenumbering)
    /// The engine took a `seek` to this place: what it reports after this is heard from there,
    /// and what it reported before (places, items) is from before the jump. The engine takes
    /// every seek in the order sent, so a player that counts the seeks it sent knows when the
    /// last one has landed, however fast a burst of them came.
    case jumped(PlaybackPosition)
}
