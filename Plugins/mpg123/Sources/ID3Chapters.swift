/// ID3v2 chapters (the CHAP frames of the ID3v2 Chapter Frame Addendum), which libmpg123 does not
/// expose. A pure parser over the tag's bytes: every length is checked against the buffer before
/// use, and it copies at most what the tag holds, so a malformed tag costs nothing but its chapters.
///
/// Policy: when the frame structure of the tag is broken (a frame running past the tag's end, a
/// bad extended header), there are no chapters at all rather than a guessed subset; a single CHAP
/// frame that is malformed inside is skipped; a missing or unreadable title is an empty string.
enum ID3Chapters {
    struct Chapter: Equatable {
        let startMilliseconds: UInt32
        let title: String
    }

    /// The chapters of `tag`, which starts with the 10-byte "ID3" header. Versions 2.3 and 2.4
    /// only (2.2 predates CHAP). In file order; callers sort if they need to.
    static func parse(_ tag: [UInt8]) -> [Chapter] {
        guard let (frames, version) = frames(ofTag: tag) else { return [] }
        return frames.compactMap { frame in frame.id == "CHAP" ? chapter(frame.data, version: version) : nil }
    }

    /// The frames of `tag` (2.3 and 2.4), in file order, with their format flags undone; nil when
    /// the tag's frame structure is broken.
    static func frames(ofTag tag: [UInt8]) -> (frames: [Frame], version: UInt8)? {
        guard let header = ID3v2Header(tag), header.majorVersion == 3 || header.majorVersion == 4 else { return nil }
        let version = header.majorVersion
        var body = Array(tag[10..<min(tag.count, 10 + header.bodySize)])
        // 2.3 unsynchronises the whole tag after the header; 2.4 does it frame by frame.
        let unsynchronised = header.flags & 0x80 != 0
        if unsynchronised && version == 3 { body = removingUnsynchronisation(body) }
        var start = 0
        if header.flags & 0x40 != 0 {
            guard body.count >= 4 else { return nil }
            // 2.3: the size excludes its own 4 bytes; 2.4: synchsafe and includes them.
            let size = version == 3 ? 4 + Int(bigEndian32(body, 0)) : Int(synchsafe32(body, 0))
            guard size >= 4, size <= body.count else { return nil }
            start = size
        }
        guard let frames = frames(in: body, range: start..<body.count, version: version,
                                  unsynchronised: unsynchronised && version == 4) else { return nil }
        return (frames, version)
    }

    /// A CHAP body: element ID (NUL-terminated), start ms, end ms, start offset, end offset (all
    /// u32 big-endian), then sub-frames, of which TIT2 is the title.
    private static func chapter(_ data: [UInt8], version: UInt8) -> Chapter? {
        guard let terminator = data.firstIndex(of: 0), terminator + 17 <= data.count else { return nil }
        let times = terminator + 1
        let start = bigEndian32(data, times)
        let subFrames = frames(in: data, range: (times + 16)..<data.count, version: version, unsynchronised: false) ?? []
        let title = subFrames.first { $0.id == "TIT2" }.map { text($0.data) } ?? ""
        return Chapter(startMilliseconds: start, title: title)
    }

    struct Frame {
        let id: String
        let data: [UInt8]
    }

    /// The frames in `bytes[range]`, with their format flags undone; nil when a frame runs past the
    /// range. Stops at padding (a zero byte) or at anything that is not a frame ID.
    private static func frames(in bytes: [UInt8], range: Range<Int>, version: UInt8, unsynchronised: Bool) -> [Frame]? {
        var frames: [Frame] = []
        var position = range.lowerBound
        while position + 10 <= range.upperBound, isFrameID(bytes, position) {
            let dataStart = position + 10
            var size = Int(bigEndian32(bytes, position + 4))
            if version == 4 && bytes[position + 4..<position + 8].allSatisfy({ $0 < 0x80 }) {
                // 2.4 sizes are synchsafe, but some writers (old iTunes) stored plain ones. A byte
                // with its top bit set settles it (plain); otherwise take whichever size lands on
                // the next frame, padding or the end.
                let synchsafe = Int(synchsafe32(bytes, position + 4))
                if fitsNextFrame(bytes, dataStart + synchsafe, range) || !fitsNextFrame(bytes, dataStart + size, range) {
                    size = synchsafe
                }
            }
            guard size <= range.upperBound - dataStart else { return nil }
            let flags = UInt16(bytes[position + 8]) << 8 | UInt16(bytes[position + 9])
            let id = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            position = dataStart + size
            var data = Array(bytes[dataStart..<dataStart + size])
            if version == 3 {
                if flags & 0x00C0 != 0 { continue } // compressed or encrypted: not ours to read
                if flags & 0x0020 != 0 { // a group byte precedes the data
                    guard !data.isEmpty else { continue }
                    data.removeFirst()
                }
            } else {
                if flags & 0x000C != 0 { continue } // compressed or encrypted
                let extra = (flags & 0x0040 != 0 ? 1 : 0) + (flags & 0x0001 != 0 ? 4 : 0) // group, data length
                guard extra <= data.count else { continue }
                data.removeFirst(extra)
                if flags & 0x0002 != 0 || unsynchronised { data = removingUnsynchronisation(data) }
            }
            frames.append(Frame(id: id, data: data))
        }
        return frames
    }

    private static func isFrameID(_ bytes: [UInt8], _ at: Int) -> Bool {
        guard at + 4 <= bytes.count else { return false }
        return bytes[at..<at + 4].allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// Whether `at` is the end, padding, or a frame header whose size fits what is left.
    private static func fitsNextFrame(_ bytes: [UInt8], _ at: Int, _ range: Range<Int>) -> Bool {
        if at == range.upperBound { return true }
        guard at < range.upperBound else { return false }
        if bytes[at] == 0 { return true }
        guard at + 10 <= range.upperBound, isFrameID(bytes, at) else { return false }
        return Int(synchsafe32(bytes, at + 4)) <= range.upperBound - at - 10
            || Int(bigEndian32(bytes, at + 4)) <= range.upperBound - at - 10
    }

    /// Undoes unsynchronisation: every 0xFF 0x00 pair was written for a 0xFF.
    static func removingUnsynchronisation(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if !(previous == 0xFF && byte == 0x00) { result.append(byte) }
            previous = byte
        }
        return result
    }

    /// An ID3v2 text frame body: an encoding byte (0 ISO-8859-1, 1 UTF-16 with BOM, 2 UTF-16BE,
    /// 3 UTF-8), then the text. Only the first of several NUL-separated strings is returned.
    static func text(_ data: [UInt8]) -> String {
        guard let encoding = data.first else { return "" }
        let payload = data.dropFirst()
        switch encoding {
        case 0:
            return String(String.UnicodeScalarView(payload.prefix { $0 != 0 }.map { Unicode.Scalar($0) }))
        case 3:
            return String(decoding: payload.prefix { $0 != 0 }, as: UTF8.self)
        case 1, 2:
            var units: [UInt16] = []
            units.reserveCapacity(payload.count / 2)
            var index = payload.startIndex
            while index + 1 < payload.endIndex {
                units.append(UInt16(payload[index]) << 8 | UInt16(payload[index + 1]))
                index += 2
            }
            var littleEndian = false
            if encoding == 1, let bom = units.first, bom == 0xFFFE || bom == 0xFEFF {
                littleEndian = bom == 0xFFFE
                units.removeFirst()
            } else if encoding == 1 {
                littleEndian = true // a BOM is required; its absence is a Windows writer's habit
            }
            if littleEndian { units = units.map { $0.byteSwapped } }
            return String(decoding: units.prefix { $0 != 0 }, as: UTF16.self)
        default:
            return ""
        }
    }

    /// Every NUL-separated string of a text frame body (ID3v2.4 lists several values so), empty
    /// ones dropped unless `keepingEmpty` (where position matters: TXXX's description).
    static func strings(_ data: [UInt8], keepingEmpty: Bool = false) -> [String] {
        guard let encoding = data.first else { return [] }
        let width = encoding == 1 || encoding == 2 ? 2 : 1
        var strings: [String] = []
        var start = 1, index = 1
        while index <= data.count {
            let atEnd = index + width > data.count
            if atEnd || data[index..<index + width].allSatisfy({ $0 == 0 }) {
                let piece = [encoding] + Array(data[start..<min(index, data.count)])
                // UTF-16 strings each carry their own byte-order mark
                let value = String(text(piece).unicodeScalars.filter { $0 != "\u{FEFF}" })
                if keepingEmpty || !value.isEmpty { strings.append(value) }
                if atEnd { break }
                start = index + width
            }
            index += width
        }
        return strings
    }

    static func bigEndian32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    static func synchsafe32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at] & 0x7F) << 21 | UInt32(bytes[at + 1] & 0x7F) << 14
            | UInt32(bytes[at + 2] & 0x7F) << 7 | UInt32(bytes[at + 3] & 0x7F)
    }
}

/// The 10-byte header that opens an ID3v2 tag.
struct ID3v2Header {
    /// 2, 3 or 4 (ID3v2.2, 2.3, 2.4).
    let majorVersion: UInt8
    let flags: UInt8
    /// Bytes after the header, footer excluded.
    let bodySize: Int

    /// Header, body and (2.4) footer: where the audio starts.
    var totalSize: Int { 10 + bodySize + (majorVersion == 4 && flags & 0x10 != 0 ? 10 : 0) }

    /// nil unless `bytes` starts with a well-formed header (known version, synchsafe size).
    init?(_ bytes: some Collection<UInt8>) {
        let header = Array(bytes.prefix(10))
        guard header.count == 10, header[0] == 0x49, header[1] == 0x44, header[2] == 0x33, // "ID3"
              (2...4).contains(header[3]), header[4] != 0xFF,
              header[6..<10].allSatisfy({ $0 < 0x80 }) else { return nil }
        majorVersion = header[3]
        flags = header[5]
        bodySize = Int(ID3Chapters.synchsafe32(header, 6))
    }
}
