/// The 4-byte header of an MPEG-1/2/2.5 audio frame (layers I–III), validated field by field.
/// Used to recognise MPEG audio in `probe` without libmpg123, to find the Xing/Info frame, and to
/// check that a cached frame index still points at frames.
struct MPEGFrameHeader: Equatable {
    enum Version: Equatable { case mpeg1, mpeg2, mpeg25 }

    let version: Version
    /// 1, 2 or 3.
    let layer: Int
    let bitrateKbps: Int
    let sampleRate: Int
    let channels: Int
    /// Bytes from this header to the next one.
    let frameLength: Int

    /// nil unless `bytes[offset...]` holds a sync word and legal version, layer, bitrate (not free
    /// format, not the forbidden index 15) and sample rate.
    init?(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let b0 = bytes[offset], b1 = bytes[offset + 1], b2 = bytes[offset + 2], b3 = bytes[offset + 3]
        guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
        switch (b1 >> 3) & 3 {
        case 3: version = .mpeg1
        case 2: version = .mpeg2
        case 0: version = .mpeg25
        default: return nil
        }
        let layerBits = Int((b1 >> 1) & 3)
        guard layerBits != 0 else { return nil } // 00 is reserved (and is what AAC ADTS carries)
        layer = 4 - layerBits
        let bitrateIndex = Int(b2 >> 4)
        let rateIndex = Int((b2 >> 2) & 3)
        guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let table: [Int]
        switch (version, layer) {
        case (.mpeg1, 1): table = [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448]
        case (.mpeg1, 2): table = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384]
        case (.mpeg1, _): table = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        case (_, 1): table = [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256]
        default: table = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
        }
        bitrateKbps = table[bitrateIndex]
        let baseRate = [44100, 48000, 32000][rateIndex]
        sampleRate = version == .mpeg1 ? baseRate : version == .mpeg2 ? baseRate / 2 : baseRate / 4
        channels = b3 >> 6 == 3 ? 1 : 2
        let padding = Int((b2 >> 1) & 1)
        let bitsPerSecond = bitrateKbps * 1000
        switch layer {
        case 1: frameLength = (12 * bitsPerSecond / sampleRate + padding) * 4
        case 2: frameLength = 144 * bitsPerSecond / sampleRate + padding
        default: frameLength = (version == .mpeg1 ? 144 : 72) * bitsPerSecond / sampleRate + padding
        }
    }

    /// Whether `other` can belong to the same stream (a real next frame, not a chance 0xFFE).
    func isCompatible(with other: MPEGFrameHeader) -> Bool {
        version == other.version && layer == other.layer && sampleRate == other.sampleRate
    }

    /// The first frame at or after `offset` (within `window` bytes) whose successor, when it lies
    /// inside `bytes`, is a compatible frame. Skips the zero padding some taggers leave after a tag.
    static func firstFrame(in bytes: UnsafeRawBufferPointer, from offset: Int, window: Int)
        -> (offset: Int, header: MPEGFrameHeader, confirmed: Bool)?
    {
        var position = max(offset, 0)
        let end = min(bytes.count - 4, position + window)
        while position <= end {
            if let header = MPEGFrameHeader(bytes, at: position) {
                let next = position + header.frameLength
                if next > bytes.count - 4 { return (position, header, false) }
                if let following = MPEGFrameHeader(bytes, at: next), header.isCompatible(with: following) {
                    return (position, header, true)
                }
            }
            position += 1
        }
        return nil
    }

    /// How many frames before a seek target libmpg123 must decode (MPG123_PREFRAMES) for the target
    /// to come out exactly as in a decode from the start. A Layer III frame may take up to 511
    /// (MPEG-1) or 255 (MPEG-2/2.5) bytes of its data from the frames before it (the bit
    /// reservoir); VBR fills silence with the smallest frames, so that can reach far back. Enough
    /// frames of the lowest bitrate to hold the reservoir, plus two for the filter bank's overlap.
    /// libmpg123's default of 4 was not enough: 201 of 439 seeks in a `lame -V 4` file differed.
    /// (MPEG-2/2.5 seeks still differ from a straight decode by float rounding, at most 1.2e-7,
    /// whatever the preroll: something inside libmpg123's synthesis, not missing data.)
    static func seekPreroll(version: Version, layer: Int, sampleRate: Int, channels: Int) -> Int {
        guard layer == 3, sampleRate > 0 else { return 2 } // layers I and II keep no such state
        let reservoir = version == .mpeg1 ? 511 : 255
        let lowestBitrate = version == .mpeg1 ? 32000 : 8000
        let sideInfo = version == .mpeg1 ? (channels == 1 ? 17 : 32) : (channels == 1 ? 9 : 17)
        let smallestFrame = (version == .mpeg1 ? 144 : 72) * lowestBitrate / sampleRate
        let mainData = max(1, smallestFrame - 4 - sideInfo - 2) // header, side info, CRC
        return (reservoir + mainData - 1) / mainData + 2
    }
}
