import MP4

/// A raw ADTS stream (`.aac`): a header of 7 or 9 bytes before every AAC frame and nothing else,
/// so the length and a seek index come from one scan of the frame headers (hand-written: libfaad
/// decodes ADTS frames but does not index a file). The index costs 10 bytes per frame (20 h: 17 MB).
final class ADTSStream: PacketSource {
    struct Header {
        let profile: Int // object type - 1
        let sampleRateIndex: Int
        let channelConfiguration: Int
        let frameLength: Int
        let rawDataBlocks: Int

        /// Parses 7 bytes starting at a 12-bit sync word with layer 0; nil when they are not one.
        init?(_ bytes: some RandomAccessCollection<UInt8>) {
            guard bytes.count >= 7 else { return nil }
            let b = Array(bytes.prefix(7))
            guard b[0] == 0xFF, b[1] & 0xF6 == 0xF0 else { return nil }
            profile = Int(b[2] >> 6)
            sampleRateIndex = Int(b[2] >> 2 & 0x0F)
            channelConfiguration = Int(b[2] & 0x01) << 2 | Int(b[3] >> 6)
            frameLength = Int(b[3] & 0x03) << 11 | Int(b[4]) << 3 | Int(b[5] >> 5)
            rawDataBlocks = Int(b[6] & 0x03) + 1
            let headerLength = b[1] & 0x01 == 0 ? 9 : 7
            guard sampleRateIndex < 13, frameLength > headerLength else { return nil }
        }
    }

    let reader: ReadAheadFile
    let first: Header
    private var offsets: [Int64] = []
    private var lengths: [UInt16] = []
    /// Output frames per packet, known once the decoder has decoded one.
    var framesPerPacket: Int64 = 1024
    private(set) var warnings: [String] = []

    var packetCount: Int { offsets.count }

    /// Scans the whole file. Damage between frames is skipped by searching for the next header
    /// that is followed by another; the scan ends, with a warning, when none is found within 64 KiB.
    init(source: any ByteSource) throws(MP4Error) {
        reader = ReadAheadFile(source: source)
        var offset: Int64 = try Self.id3v2Size(source)
        let chunk = 1 << 16
        var window: [UInt8] = []
        var windowStart: Int64 = 0
        func bytes(at position: Int64, count: Int) throws(MP4Error) -> ArraySlice<UInt8>? {
            if position < windowStart || position + Int64(count) > windowStart + Int64(window.count) {
                guard position < source.size else { return nil }
                window = try source.read(at: position, count: Int(min(Int64(chunk), source.size - position)))
                windowStart = position
            }
            let start = Int(position - windowStart)
            return start + count <= window.count ? window[start..<start + count] : nil
        }
        var firstHeader: Header?
        var skipped: Int64 = 0
        while let head = try bytes(at: offset, count: 7) {
            if let header = Header(head), firstHeader == nil || header.sampleRateIndex == firstHeader!.sampleRateIndex {
                guard offset + Int64(header.frameLength) <= source.size else {
                    warnings.append("the last ADTS frame is cut off (truncated file)")
                    break
                }
                if firstHeader == nil {
                    // The first header must be confirmed by a second (or the end of the file).
                    let next = offset + Int64(header.frameLength)
                    if next < source.size, (try bytes(at: next, count: 7)).flatMap(Header.init) == nil {
                        offset += 1
                        skipped += 1
                        if skipped > Int64(chunk) { break }
                        continue
                    }
                    firstHeader = header
                }
                offsets.append(offset)
                lengths.append(UInt16(header.frameLength))
                offset += Int64(header.frameLength)
                skipped = 0
                continue
            }
            offset += 1
            skipped += 1
            if skipped > Int64(chunk) {
                warnings.append("no ADTS frame in 64 KiB after offset \(offset - skipped): the rest of the file is ignored")
                break
            }
        }
        guard let firstHeader, !offsets.isEmpty else { throw MP4Error(box: "", reason: "no ADTS frames found: not an AAC stream") }
        first = firstHeader
    }

    func withPacket<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> R) throws(PacketError) -> R {
        try reader.withBytes(at: UInt64(offsets[index]), count: Int(lengths[index]), packet: index, body)
    }

    func startFrame(ofPacket index: Int) -> Int64 { Int64(index) * framesPerPacket }

    func packet(containing frame: Int64) -> Int { Int(min(max(frame / framesPerPacket, 0), Int64(offsets.count - 1))) }

    /// The size of a leading ID3v2 tag (some .aac files from radio recorders have one), or 0.
    static func id3v2Size(_ source: any ByteSource) throws(MP4Error) -> Int64 {
        guard source.size >= 10 else { return 0 }
        let head = try source.read(at: 0, count: 10)
        guard head[0..<3].elementsEqual("ID3".utf8) else { return 0 }
        let size = head[6..<10].reduce(Int64(0)) { $0 << 7 | Int64($1 & 0x7F) }
        return 10 + size + (head[5] & 0x10 != 0 ? 10 : 0)
    }
}
