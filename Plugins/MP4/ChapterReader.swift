/// Chapters from the QuickTime chapter track and from Nero's `chpl`. Damage in either is a
/// warning (the book still plays, without those chapters), never an error.
struct ChapterReader {
    /// More chapters than this in one file is damage, not a book.
    static let maxChapters = 10_000

    let source: any ByteSource
    let tracks: [Box]
    private(set) var warnings: [String] = []

    init(source: any ByteSource, tracks: [Box]) {
        self.source = source
        self.tracks = tracks
    }

    /// The text track named by the audio track's tref/chap, one chapter per sample.
    mutating func quickTime(referencedBy audio: Box) -> [MP4Chapter] {
        guard let chap = audio.find("tref", "chap") else { return [] }
        do throws(MP4Error) {
            var reader = try BinaryReader(readPayload(chap, source: source, limit: 4096), path: chap.path)
            guard reader.remaining >= 4 else { throw reader.error("names no track") }
            let wanted = try reader.uint32()
            var target: Box?
            for trak in tracks where try readTrackID(of: trak, source: source) == wanted {
                target = trak
                break
            }
            guard let target else { throw reader.error("points at track \(wanted), which does not exist") }
            let handler = try handlerType(of: target, source: source)
            guard handler == "text" || handler == "sbtl" else {
                throw reader.error("points at track \(wanted), a '\(handler?.description ?? "?")' track, not a text track")
            }
            return try textSamples(of: target)
        } catch {
            warnings.append("chapter track ignored: \(error)")
            return []
        }
    }

    private func textSamples(of trak: Box) throws(MP4Error) -> [MP4Chapter] {
        let timescale = try mediaTimescale(of: trak, source: source)
        guard let stbl = trak.find("mdia", "minf", "stbl") else { throw MP4Error(box: "\(trak.path)/mdia/minf/stbl", reason: "missing") }
        let table = try SampleTable.read(stbl, source: source).table
        guard table.sampleCount <= Self.maxChapters else {
            throw MP4Error(box: "\(stbl.path)/stsz", reason: "\(table.sampleCount) chapters: more than \(Self.maxChapters)")
        }
        var chapters: [MP4Chapter] = []
        for index in 0..<table.sampleCount {
            let size = Int(table.size(ofSample: index))
            let offset = table.offset(ofSample: index)
            guard size >= 2, size <= 1 << 16, offset <= UInt64(source.size) else {
                throw MP4Error(box: "\(stbl.path)/stsz", reason: "chapter sample \(index) has size \(size) at offset \(offset): not a text sample")
            }
            let bytes: [UInt8]
            do { bytes = try source.read(at: Int64(offset), count: size) } catch { throw MP4Error(box: "\(stbl.path)/stco", reason: "chapter sample \(index): \(error.reason)") }
            let length = min(Int(bytes[0]) << 8 | Int(bytes[1]), size - 2)
            chapters.append(MP4Chapter(start: table.startTime(ofSample: index), timescale: timescale,
                                       title: decodeTitle(bytes[2..<2 + length])))
        }
        return chapters.sorted { $0.start < $1.start }
    }

    /// Nero chapters: version, flags, (4 reserved bytes in version 1), a count byte, then for each
    /// chapter a start in 100 ns units, a length byte and UTF-8 text.
    mutating func nero(_ chpl: Box) -> [MP4Chapter] {
        do throws(MP4Error) {
            var reader = try BinaryReader(readPayload(chpl, source: source, limit: 1 << 24), path: chpl.path)
            let (version, _) = try reader.versionAndFlags()
            if version == 1 { try reader.skip(4) }
            let count = Int(try reader.uint8())
            var chapters: [MP4Chapter] = []
            for _ in 0..<count {
                let start = try reader.uint64()
                let length = Int(try reader.uint8())
                let title = decodeTitle(try reader.bytes(length))
                guard start <= UInt64(Int64.max) else { throw reader.error("chapter start \(start) is absurd") }
                chapters.append(MP4Chapter(start: Int64(start), timescale: 10_000_000, title: title))
            }
            return chapters.sorted { $0.start < $1.start }
        } catch {
            warnings.append("Nero chapters ignored: \(error)")
            return []
        }
    }
}

/// UTF-16 when the text starts with a byte-order mark (QuickTime allows it), else UTF-8.
func decodeTitle(_ bytes: ArraySlice<UInt8>) -> String {
    let bytes = Array(bytes)
    if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
        let bigEndian = bytes[0] == 0xFE
        let units = stride(from: 2, to: bytes.count - 1, by: 2).map { (index: Int) -> UInt16 in
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        return String(decoding: units, as: UTF16.self)
    }
    return String(decoding: bytes, as: UTF8.self)
}
