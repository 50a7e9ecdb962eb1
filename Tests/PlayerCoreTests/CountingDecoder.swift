import PlayerCore

/// Mono frames at 1 kHz whose sample is the frame's number, `length` frames long: what is heard
/// says exactly which frame it was.
final class CountingDecoder: Decoder {
    let info: StreamInfo
    let metadata = MediaMetadata()
    let pluginID = "counting"
    private var next: Int64 = 0

    init(length: Int64) { info = StreamInfo(format: AudioFormat(rate: 1000, channels: 1), totalFrames: length, isSeekable: true) }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws -> Int {
        let count = Int(min(Int64(maxFrames), info.totalFrames! - next))
        for index in 0..<count { buffer[index] = Float(next + Int64(index)) }
        next += Int64(count)
        return count
    }

    func seek(to frame: Int64) throws { next = frame }
}

/// Opens "N" as a counting decoder N frames long; anything else fails as a missing file.
struct CountingOpener: DecoderOpener {
    func openDecoder(path: String) throws -> any Decoder {
        guard let length = Int64(path) else { throw AudioError(.io, subject: path, reason: "no such file") }
        return CountingDecoder(length: length)
    }
}
