/// The DSP stages between the decoder and the ring buffer: skip silence first and speed before
/// the converter (both at the source's format), the converter when the sink's format differs from the source's, volume
/// after it (at the sink's). Each is skipped while it would change nothing. A value owned by
/// `Producer`, on the decoder thread; the stages are made, reset and dropped here only, and what
/// comes out of the chain goes to a `write` closure (the producer's ring writer).
struct DSPChain {
    /// The speed asked for; the speed stage is made at the first chunk that needs it.
    private(set) var speed = 1.0
    private(set) var speedStage: SpeedStage?
    /// Skip silence as asked (nil: off); the stage is made at the first chunk, for its format.
    private(set) var silenceSkipping: SilenceSkipping?
    private(set) var silenceStage: SilenceStage?
    /// The book's integrated loudness (LUFS) when known, for the silence threshold.
    private(set) var referenceLoudness: Double?
    /// The format conversion stage (channels, libsoxr) while a sink runs at another format.
    private(set) var converter: FormatConverter?
    /// The gain asked for: the listener's volume (1 = 100 %) times the book's loudness gain.
    var volumeGain: Float { listenerVolume * loudnessGain }
    /// The listener's volume (1 = 100 %).
    private(set) var listenerVolume: Float = 1
    /// What evens out the book's loudness (1: none, or not measured yet).
    private(set) var loudnessGain: Float = 1
    /// Made for each sink opened, at its format. Fades ramp it (`Producer+Fade.swift`).
    private(set) var volumeStage: VolumeStage?

    /// Source frames per output frame through every stage, for the position clock.
    var sourcePerOutput: Double { speed * (converter?.sourcePerOutput ?? 1) }

    /// Output frames that `frames` source frames may become (an upper bound). Not counting what
    /// skip silence held back from earlier chunks (up to its minimum, put out at once when a
    /// quiet run ends short): the ring writer waits for room for that, as for a flush.
    func maxOutputFrames(forInput frames: Int) -> Int {
        let stretched = speed == 1 ? frames : (speedStage?.maxOutputFrames(forInput: frames)
            ?? Int((Double(frames) / speed).rounded(.up)) + 4096)
        return converter?.maxOutputFrames(forInput: stretched) ?? stretched
    }

    // MARK: Connecting to a sink

    /// A sink opened at `sinkFormat` for sources of `source`: a converter when the two differ,
    /// and a volume stage at the sink's format and the gain asked for. Throws when the converter
    /// cannot be made (the volume stage is then left as it was).
    mutating func connect(source: AudioFormat, sink sinkFormat: AudioFormat) throws {
        converter = sinkFormat == source ? nil : try FormatConverter(from: source, to: sinkFormat)
        volumeStage = VolumeStage(gain: volumeGain, channels: sinkFormat.channels, rate: sinkFormat.rate)
    }

    /// The sink could not be opened: no converter.
    mutating func dropConverter() { converter = nil }

    /// The sink closed and the decoder stays for a restart at the frame heard: no converter until
    /// the next sink, and sonic forgets what it held.
    mutating func disconnect() {
        converter = nil
        silenceStage?.reset()
        speedStage?.reset()
    }

    /// Everything closed: the stages made for a source and a sink go (the volume stage stays
    /// until the next sink replaces it).
    mutating func close() {
        converter = nil
        speedStage = nil
        silenceStage?.reset()
    }

    /// Forgets the audio the stages hold (before a jump), keeping their settings.
    func reset() {
        silenceStage?.reset()
        speedStage?.reset()
        converter?.reset()
    }

    // MARK: Settings

    /// A new speed for audio given from now on (flush first for an exact position).
    mutating func setSpeed(_ newSpeed: Double) {
        speed = newSpeed
        speedStage?.setSpeed(newSpeed)
    }

    /// Skip silence on (or off, nil) for audio given from now on (flush the stage first: what
    /// it holds would be lost).
    mutating func setSilenceSkipping(_ skipping: SilenceSkipping?) {
        silenceSkipping = skipping
        if skipping == nil { silenceStage = nil }
    }

    mutating func setReferenceLoudness(_ lufs: Double?) {
        referenceLoudness = lufs
        silenceStage?.referenceLoudness = lufs
    }

    /// A new gain, reached with the volume stage's short ramp.
    mutating func setVolume(_ gain: Float) {
        listenerVolume = gain
        volumeStage?.setGain(volumeGain)
    }

    /// A new loudness gain, reached over half a second (a measure that arrives while the book
    /// plays is heard as a smooth change, not a jump); during a fade only kept, for when the fade
    /// ends and the gain asked for comes back.
    mutating func setLoudnessGain(_ gain: Float, fading: Bool) {
        loudnessGain = gain
        guard !fading, let volumeStage else { return }
        volumeStage.ramp(to: volumeGain, overFrames: volumeStage.rate / 2)
    }

    /// Back to the gain asked for with the short ramp (a fade dropped while audio plays on).
    func restoreVolume() { volumeStage?.setGain(volumeGain) }

    /// Back to the gain asked for at once: nothing queued at another gain is heard after this
    /// (the output was just emptied, or is about to be).
    func resetVolume() { volumeStage?.reset(to: volumeGain) }

    // MARK: Processing

    /// The speed stage for `format`, made (or remade, for another format) at the current speed,
    /// unless the speed is 1. Throws when libsonic cannot make it: then there is none, and
    /// `process` plays the audio unstretched.
    mutating func prepareSpeedStage(for format: AudioFormat) throws {
        guard speed != 1 else { return }
        if let speedStage, speedStage.format == format { return }
        do {
            speedStage = try SpeedStage(format: format, speed: speed)
        } catch {
            speedStage = nil
            throw error
        }
    }

    /// The silence stage for `format`, made (or remade, for another format) while skip silence
    /// is on.
    mutating func prepareSilenceStage(for format: AudioFormat) {
        guard let silenceSkipping else { return }
        if let silenceStage, silenceStage.format == format, silenceStage.skipping == silenceSkipping { return }
        let stage = SilenceStage(format: format, skipping: silenceSkipping)
        stage.referenceLoudness = referenceLoudness
        silenceStage = stage
    }

    /// Puts `frames` source frames (the first is `firstSourceFrame`) through skip silence, speed,
    /// conversion and volume, handing what comes out to `write` (possibly nothing yet, possibly
    /// more than once). Where skip silence cuts, sonic is flushed (inside a silence, inaudible)
    /// and `cut` is called: the next frame written is `sourceFrameAfter`, exactly. Call
    /// `prepareSilenceStage` and `prepareSpeedStage` for the source's format first.
    func process(
        _ samples: UnsafePointer<Float>, frames: Int, firstSourceFrame: Int64,
        into write: (UnsafePointer<Float>, Int) -> Void, cut: (SilenceCut) -> Void
    ) {
        if let silenceStage {
            silenceStage.process(samples, frames: frames, firstSourceFrame: firstSourceFrame, audio: { stretch($0, frames: $1, into: write) }) {
                flushSpeedStage(into: write)
                cut($0)
            }
        } else {
            stretch(samples, frames: frames, into: write)
        }
    }

    /// Puts what the silence stage holds through the rest of the chain (before a mark at the
    /// reader's next frame, or at the end).
    func flushSilenceStage(into write: (UnsafePointer<Float>, Int) -> Void, cut: (SilenceCut) -> Void) {
        silenceStage?.flush(audio: { stretch($0, frames: $1, into: write) }) {
            flushSpeedStage(into: write)
            cut($0)
        }
    }

    private func stretch(_ samples: UnsafePointer<Float>, frames: Int, into write: (UnsafePointer<Float>, Int) -> Void) {
        if speed != 1, let speedStage {
            speedStage.process(samples, frames: frames) { convertAndApplyVolume($0, frames: $1, into: write) }
        } else {
            convertAndApplyVolume(samples, frames: frames, into: write)
        }
    }

    /// Puts what sonic holds through the rest of the chain (then every source frame given to it
    /// has come out).
    func flushSpeedStage(into write: (UnsafePointer<Float>, Int) -> Void) {
        speedStage?.flush { convertAndApplyVolume($0, frames: $1, into: write) }
    }

    /// Hands on what the resampler still holds (the end of the audio, or of a format). It goes
    /// to `write` as it comes out of the converter, not through the volume stage.
    func flushConverter(into write: (UnsafePointer<Float>, Int) -> Void) {
        converter?.flush(write)
    }

    private func convertAndApplyVolume(_ samples: UnsafePointer<Float>, frames: Int, into write: (UnsafePointer<Float>, Int) -> Void) {
        if let converter {
            converter.convert(samples, frames: frames) { applyVolume($0, frames: $1, into: write) }
        } else {
            applyVolume(samples, frames: frames, into: write)
        }
    }

    private func applyVolume(_ samples: UnsafePointer<Float>, frames: Int, into write: (UnsafePointer<Float>, Int) -> Void) {
        if let volumeStage, !volumeStage.isUnity {
            write(volumeStage.apply(samples, frames: frames), frames)
        } else {
            write(samples, frames)
        }
    }
}
