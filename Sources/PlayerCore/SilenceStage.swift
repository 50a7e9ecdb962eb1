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
    /// Block by block (the level's 10 ms blocks): one vectorised pass finds a block's peak and
    /// sum of squares. A block under the threshold is all quiet: the run grows by the block. A
    /// block with a loud frame is looked at frame by frame only from its ends inwards, to its
    /// first and last loud frames: between them every quiet run ends inside the block, shorter
    /// than the head of a pause (10 ms < 121 ms), so all of it passes through unchanged.
    func process(
        _ samples: UnsafePointer<Float>, frames: Int, firstSourceFrame: Int64,
        audio: Audio, cut: (SilenceCut) -> Void
    ) {
        var pass = Pass(samples: samples, firstSourceFrame: firstSourceFrame)
        var index = 0
        while index < frames {
            let count = min(level.blockFrames - blockFill, frames - index)
            let (peak, squares) = Self.measure(samples + index * channels, count: count * channels)
            blockSum += squares
            blockFill += count
            if peak < thresholdAmplitude {
                quiet(from: index, count: count, &pass, audio: audio)
            } else {
                var first = index
                while framePeak(samples, first) < thresholdAmplitude { first += 1 }
                var last = index + count - 1
                while framePeak(samples, last) < thresholdAmplitude { last -= 1 }
                if first > index { quiet(from: index, count: first - index, &pass, audio: audio) }
                if runFrames > 0 {
                    pass.emitSpan(until: first, channels: channels, audio: audio)
                    endRun(audio: audio, cut: cut)
                }
                if last < index + count - 1 { quiet(from: last + 1, count: index + count - 1 - last, &pass, audio: audio) }
            }
            if blockFill == level.blockFrames {
                level.add(blockMeanSquare: Double(blockSum) / Double(level.blockFrames * channels))
                updateThreshold()
                blockSum = 0
                blockFill = 0
            }
            index += count
        }
        pass.emitSpan(until: frames, channels: channels, audio: audio)
    }

    /// What one `process` call passes through unchanged: its frames `spanStart..<` up to the
    /// next one the stage keeps or cuts.
    private struct Pass {
        let samples: UnsafePointer<Float>
        let firstSourceFrame: Int64
        var spanStart = 0

        mutating func emitSpan(until end: Int, channels: Int, audio: Audio) {
            if end > spanStart { audio(samples + spanStart * channels, end - spanStart) }
            spanStart = end
        }
    }

    /// Frames `from..<from+count` of the pass are quiet: the run grows by them, its head passing
    /// through, the rest kept (held, or in the tail once the run is long).
    private func quiet(from: Int, count: Int, _ pass: inout Pass, audio: Audio) {
        if runFrames == 0 { runStart = pass.firstSourceFrame + Int64(from) }
        let passUntil = headFrames - crossfadeFrames
        let through = min(count, max(0, passUntil - runFrames))
        runFrames += through
        var index = from + through
        let end = from + count
        guard index < end else { return }
        pass.emitSpan(until: index, channels: channels, audio: audio)
        while index < end {
            let frame = pass.samples + index * channels
            if runFrames < minimumFrames {
                let taken = min(end - index, minimumFrames - runFrames)
                (held + heldFrames * channels).update(from: frame, count: taken * channels)
                heldFrames += taken
                runFrames += taken
                index += taken
                if runFrames == minimumFrames { becomeLong() }
            } else {
                let taken = min(end - index, tailFrames - tailNext)
                (tail + tailNext * channels).update(from: frame, count: taken * channels)
                tailNext = tailNext + taken == tailFrames ? 0 : tailNext + taken
                runFrames += taken
                index += taken
            }
        }
        pass.spanStart = end
    }

    private func framePeak(_ samples: UnsafePointer<Float>, _ frame: Int) -> Float {
        var peak: Float = 0
        for channel in 0..<channels { peak = max(peak, abs(samples[frame * channels + channel])) }
        return peak
    }

    /// The largest magnitude and the sum of squares of `count` samples, eight at a time.
    private static func measure(_ samples: UnsafePointer<Float>, count: Int) -> (peak: Float, squares: Float) {
        var peaks = SIMD8<Float>(repeating: 0)
        var squares = SIMD8<Float>(repeating: 0)
        let raw = UnsafeRawPointer(samples)
        var index = 0
        // Peaks as squares, by masks: the generic `pointwiseMax` is not inlined here and cost
        // more than the rest of the stage (perf).
        while index + 8 <= count {
            let values = raw.loadUnaligned(fromByteOffset: index * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
            let squared = values * values
            peaks.replace(with: squared, where: squared .> peaks)
            squares += squared
            index += 8
        }
        var peak = peaks.max().squareRoot()
        var sum = squares.sum()
        while index < count {
            peak = max(peak, abs(samples[index]))
            sum += samples[index] * samples[index]
            index += 1
        }
        return (peak, sum)
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
