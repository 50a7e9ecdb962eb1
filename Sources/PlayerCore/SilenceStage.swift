import Foundation

/// Where the silence stage cut the middle out of a silence: the next frame it puts out is
/// `sourceFrameAfter` (the position clock needs a mark there), and `skippedFrames` source frames
/// were dropped.
struct SilenceCut: Equatable {
    let sourceFrameAfter: Int64
    let skippedFrames: Int64
}

/// The first DSP stage (at the source's format, before speed and resampling): shortens every
/// run of frames quieter than the threshold that lasts at least the minimum to a short pause,
/// its first `head` and last `tail` frames, crossfaded over a few milliseconds where the middle
/// was cut. Runs on the decoder thread only; nothing is allocated after init.
///
/// A frame is quiet when its sample peak (over channels) is under the threshold, so the edges of
/// a silence are exact to the frame. To keep a silence's tail the stage looks ahead: the frames of
/// a quiet run past its first `head - crossfade` are held until the run either ends short (they go
/// out unchanged) or reaches the minimum (then only its last `tail` frames are kept, in a ring,
/// until it ends). So the stage delays audio by up to the minimum: whoever marks the position
/// clock at the reader's next frame (a new item, a new speed) flushes it first, and a run is
/// never carried across a flush (a silence split by an item boundary is two silences).
final class SilenceStage {
    typealias Audio = (UnsafePointer<Float>, Int) -> Void

    let format: AudioFormat
    let skipping: SilenceSkipping
    /// The book's integrated loudness (LUFS) when known: then the threshold follows it rather
    /// than the level estimated from what was heard.
    var referenceLoudness: Double? {
        didSet { updateThreshold() }
    }

    private let channels: Int
    private let minimumFrames: Int
    private let headFrames: Int
    private let tailFrames: Int
    private let crossfadeFrames: Int
    private var level: SpeechLevel
    private var thresholdAmplitude: Float = 0
    /// The 10 ms block being summed for the level: sum of squares and frames so far.
    private var blockSum: Float = 0
    private var blockFill = 0

    /// The quiet run under way: its length so far and the source frame it started at.
    private var runFrames = 0
    private var runStart: Int64 = 0
    /// The run's frames from `head - crossfade` on, while it is shorter than the minimum.
    private let held: UnsafeMutablePointer<Float>
    private var heldFrames = 0
    /// Once the run is long: its frames `head - crossfade ..< head` (faded out at the cut) and a
    /// ring of its last `tail` frames (`tailNext` is the oldest).
    private let fadeHead: UnsafeMutablePointer<Float>
    private let tail: UnsafeMutablePointer<Float>
    private var tailNext = 0
    /// The pause put out at a cut: the crossfade, then the rest of the tail.
    private let joined: UnsafeMutablePointer<Float>
    private let fadeIn: [Float]

    init(format: AudioFormat, skipping: SilenceSkipping) {
        self.format = format
        self.skipping = skipping
        channels = format.channels
        let rate = Double(format.rate)
        crossfadeFrames = max(1, Int(SilenceSkipping.crossfadeSeconds * rate))
        let kept = Int(SilenceSkipping.keptSeconds * rate)
        headFrames = (kept + crossfadeFrames) / 2
        // head + tail - crossfade = kept, exactly.
        tailFrames = kept + crossfadeFrames - headFrames
        minimumFrames = max(Int(skipping.minimumSeconds * rate), kept + crossfadeFrames)
        level = SpeechLevel(rate: format.rate)
        held = .allocate(capacity: (minimumFrames - headFrames + crossfadeFrames) * channels)
        fadeHead = .allocate(capacity: crossfadeFrames * channels)
        tail = .allocate(capacity: tailFrames * channels)
        joined = .allocate(capacity: tailFrames * channels)
        let fade = crossfadeFrames
        fadeIn = (0..<fade).map { Float(0.5 - 0.5 * cos(Double.pi * (Double($0) + 0.5) / Double(fade))) }
        updateThreshold()
    }

    deinit {
        held.deallocate()
        fadeHead.deallocate()
        tail.deallocate()
        joined.deallocate()
    }

    /// Passes `frames` frames (the first of them source frame `firstSourceFrame`) on to `audio`,
    /// less the middles of long silences; `cut` is called just before the audio that follows
    /// each cut.
    ///
    /// The hot loop: a peak and a sum of squares per frame, in locals (the stored state is read
    /// once and written back once, so no exclusivity checks run per frame); everything else
    /// happens per 10 ms block or at the edges of quiet runs.
    func process(
        _ samples: UnsafePointer<Float>, frames: Int, firstSourceFrame: Int64,
        audio: Audio, cut: (SilenceCut) -> Void
    ) {
        let passUntil = headFrames - crossfadeFrames
        let channels = self.channels
        let blockFrames = level.blockFrames
        var threshold = thresholdAmplitude
        var blockSum = self.blockSum
        var blockFill = self.blockFill
        var run = runFrames
        // Frames spanStart..<index go out as they came: loud ones and the head of a run.
        var spanStart = 0
        for index in 0..<frames {
            let frame = samples + index * channels
            var peak: Float = 0
            for channel in 0..<channels {
                let value = frame[channel]
                peak = max(peak, abs(value))
                blockSum += value * value
            }
            blockFill += 1
            if blockFill == blockFrames {
                level.add(blockMeanSquare: Double(blockSum) / Double(blockFrames * channels))
                updateThreshold()
                threshold = thresholdAmplitude
                blockSum = 0
                blockFill = 0
            }
            if peak >= threshold {
                if run > 0 {
                    if index > spanStart { audio(samples + spanStart * channels, index - spanStart) }
                    spanStart = index
                    runFrames = run
                    endRun(audio: audio, cut: cut)
                    run = 0
                }
                continue
            }
            if run == 0 { runStart = firstSourceFrame + Int64(index) }
            if run >= passUntil {
                if index > spanStart { audio(samples + spanStart * channels, index - spanStart) }
                spanStart = index + 1
                keep(frame, at: run)
            }
            run += 1
            if run == minimumFrames { becomeLong() }
        }
        if frames > spanStart { audio(samples + spanStart * channels, frames - spanStart) }
        runFrames = run
        self.blockSum = blockSum
        self.blockFill = blockFill
    }

    /// Puts out what is held (the end of the audio, or before a mark): a long run is cut here,
    /// keeping its tail.
    func flush(audio: Audio, cut: (SilenceCut) -> Void) {
        endRun(audio: audio, cut: cut)
    }

    /// Forgets the run under way (before a jump); the level estimate stays (same book).
    func reset() {
        runFrames = 0
        heldFrames = 0
    }

    // MARK: The run

    /// Keeps the frame `run` frames into the quiet run.
    private func keep(_ frame: UnsafePointer<Float>, at run: Int) {
        if run < minimumFrames {
            (held + heldFrames * channels).update(from: frame, count: channels)
            heldFrames += 1
        } else {
            (tail + tailNext * channels).update(from: frame, count: channels)
            tailNext = tailNext + 1 == tailFrames ? 0 : tailNext + 1
        }
    }

    /// The run reached the minimum: what is held becomes the part faded out at the cut and the
    /// tail so far (init makes the minimum at least `head + tail`, so both fit).
    private func becomeLong() {
        fadeHead.update(from: held, count: crossfadeFrames * channels)
        tail.update(from: held + (heldFrames - tailFrames) * channels, count: tailFrames * channels)
        tailNext = 0
        heldFrames = 0
    }

    private func endRun(audio: Audio, cut: (SilenceCut) -> Void) {
        defer {
            runFrames = 0
            heldFrames = 0
        }
        guard runFrames >= minimumFrames else {
            if heldFrames > 0 { audio(held, heldFrames) }
            return
        }
        for frame in 0..<tailFrames {
            let from = ((tailNext + frame) % tailFrames) * channels
            for channel in 0..<channels {
                let sample = frame * channels + channel
                if frame < crossfadeFrames {
                    let gain = fadeIn[frame]
                    joined[sample] = fadeHead[sample] * (1 - gain) + tail[from + channel] * gain
                } else {
                    joined[sample] = tail[from + channel]
                }
            }
        }
        let kept = headFrames + tailFrames - crossfadeFrames
        cut(SilenceCut(sourceFrameAfter: runStart + Int64(runFrames - tailFrames), skippedFrames: Int64(runFrames - kept)))
        audio(joined, tailFrames)
    }

    private func updateThreshold() {
        let decibels = SilenceSkipping.threshold(forLevel: referenceLoudness ?? level.decibels ?? Self.assumedSpeechDecibels)
        thresholdAmplitude = Float(pow(10, decibels / 20))
    }

    /// The level assumed before any speech was heard: a typical narration's loud blocks.
    static let assumedSpeechDecibels = -20.0
}
