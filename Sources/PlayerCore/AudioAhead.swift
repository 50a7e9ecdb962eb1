/// How much decoded audio the engine keeps ahead of the output: the ring between the decoder
/// thread and the sink's.
public enum AudioAhead: Sendable {
    /// Half a second, for a listener: enough to ride out a slow read of the file, and little
    /// memory per open output.
    case listening
    /// Four seconds, for a decode nobody hears (`abplayer decode`) into an output with no clock:
    /// the decoder and the output then wake each other once per three seconds of audio rather
    /// than per 0.4 s. Measured on an hour of MP3 into the null output: context switches 15,000
    /// down to 2,800 and CPU 5 % lower.
    case offline

    var seconds: Double {
        switch self {
        case .listening: 0.5
        case .offline: 4
        }
    }
}
