import CSonic

/// The first DSP stage: plays faster or slower with the pitch kept, through libsonic (a
/// pitch-synchronous time stretch made for speech). Runs on the decoder thread only. At speed 1
/// the caller bypasses it entirely, so normal playback stays bit-exact and costs nothing.
///
/// Sonic keeps up to a few pitch periods of input (about 30 ms) to find the next period. To keep
/// positions exact, whoever changes the speed or ends the audio `flush`es first: after a flush
/// every source frame given so far has come out, so the next output frame is the next source
/// frame and the position clock can place an exact mark there.
final class SpeedStage {
    let format: AudioFormat
    private(set) var speed: Double
    private var stream: sonicStream
    private var output = GrowingBuffer()

    init(format: AudioFormat, speed: Double) throws {
        guard let stream = sonicCreateStream(Int32(format.rate), Int32(format.channels)) else {
            throw AudioError(.internalError, subject: "speed", reason: "libsonic could not create a stream for \(format)")
        }
        self.format = format
        self.speed = speed
        self.stream = stream
        sonicSetSpeed(stream, Float(speed))
    }

    deinit { sonicDestroyStream(stream) }

    /// Output frames that `frames` input frames may turn into, with what sonic held back (an
    /// upper bound: the slowest speed doubles, plus sonic's buffer of a few pitch periods).
    func maxOutputFrames(forInput frames: Int) -> Int {
        Int((Double(frames) / speed).rounded(.up)) + format.rate / 10
    }

    /// Changes the speed for audio given from now on (flush first for an exact position).
    func setSpeed(_ newSpeed: Double) {
        speed = newSpeed
        sonicSetSpeed(stream, Float(newSpeed))
    }

    /// Stretches `frames` interleaved frames and hands what comes out to `body` (possibly nothing
    /// yet, possibly more than once).
    func process(_ samples: UnsafePointer<Float>, frames: Int, _ body: (UnsafePointer<Float>, Int) -> Void) {
        // sonic's API takes a mutable pointer but only reads the input.
        _ = sonicWriteFloatToStream(stream, UnsafeMutablePointer(mutating: samples), Int32(frames))
        drain(body)
    }

    /// Puts out everything sonic holds (the end of the audio, or before a speed change).
    func flush(_ body: (UnsafePointer<Float>, Int) -> Void) {
        _ = sonicFlushStream(stream)
        drain(body)
    }

    /// Forgets the audio held (after a seek): a fresh stream at the same speed, so nothing stale
    /// is heard at the new place. libsonic 0.2 has no call to clear a stream.
    func reset() {
        guard let fresh = sonicCreateStream(Int32(format.rate), Int32(format.channels)) else { return }
        sonicDestroyStream(stream)
        stream = fresh
        sonicSetSpeed(stream, Float(speed))
    }

    private func drain(_ body: (UnsafePointer<Float>, Int) -> Void) {
        let chunk = 4096
        let out = output.reserve(chunk * format.channels)
        while true {
            let read = Int(sonicReadFloatFromStream(stream, out, Int32(chunk)))
            if read <= 0 { return }
            body(out, read)
        }
    }
}
