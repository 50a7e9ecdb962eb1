/// What a player needs from an MP4/M4A/M4B file: its first audio track (with sample tables and
/// edit), tags, pictures, gapless info and chapters. Knows nothing about any codec library, so an
/// ALAC or Opus-in-MP4 plugin can use it as the AAC plugin does.
public struct MP4Movie: Sendable {
    public let audio: MP4AudioTrack
    public let tags: [MP4Tag]
    public let pictures: [MP4Picture]
    /// iTunes' iTunSMPB gapless record, when the file has one.
    public let iTunesGapless: ITunesGapless?
    /// Chapters from the QuickTime chapter track (tref/chap), sorted by start.
    public let quickTimeChapters: [MP4Chapter]
    /// Chapters from Nero's `chpl` box, sorted by start.
    public let neroChapters: [MP4Chapter]
    /// Things that are wrong but did not stop parsing, one line each (a chapter track that points
    /// nowhere, a truncated mdat). The box path is in the line.
    public let warnings: [String]
    /// The file ends inside its media data (an interrupted download): the audio stops early.
    public let truncated: Bool

    /// The chapters to show: the QuickTime track's when it has any (players that write both
    /// forms keep it more faithfully: UTF-16 titles, exact times), else Nero's.
    public var chapters: [MP4Chapter] { quickTimeChapters.isEmpty ? neroChapters : quickTimeChapters }

    /// Parses the file behind `source`. moov may be anywhere; mdat is never read.
    public static func parse(_ source: any ByteSource) throws(MP4Error) -> MP4Movie {
        guard source.size > 0 else { throw MP4Error(box: "", reason: "the file is empty") }
        var treeReader = BoxTreeReader(source: source)
        let top = try treeReader.topLevel()
        var warnings = treeReader.warnings
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            let types = top.prefix(8).map(\.type.description).joined(separator: ", ")
            throw MP4Error(box: "moov", reason: top.isEmpty ? "not an MP4 file (no boxes)" : "missing: no movie header (top-level boxes: \(types)); the file may be truncated")
        }
        let movieTimescale = try Self.movieTimescale(moov, source: source)
        let tracks = moov.all("trak")
        let fragments = MovieFragmentBoxes(mvex: moov.first("mvex"), moofs: top.filter { $0.type == "moof" }, source: source, warnings: &warnings)
        var audio: MP4AudioTrack?
        for trak in tracks where try handlerType(of: trak, source: source) == "soun" {
            audio = try MP4AudioTrack(trak, movieTimescale: movieTimescale, fragments: fragments, source: source, warnings: &warnings)
            break
        }
        guard let audio else { throw MP4Error(box: "moov/trak", reason: "no audio track (\(tracks.count) tracks, none with a 'soun' handler)") }

        var metadata = MetadataReader(source: source)
        if let ilst = moov.find("udta", "meta", "ilst") ?? moov.find("meta", "ilst") {
            metadata.read(ilst)
        }
        warnings += metadata.warnings
        var chapters = ChapterReader(source: source, tracks: tracks)
        let quickTime = chapters.quickTime(referencedBy: audio.trak)
        let nero = moov.find("udta", "chpl").map { chapters.nero($0) } ?? []
        warnings += chapters.warnings
        return MP4Movie(audio: audio, tags: metadata.tags, pictures: metadata.pictures, iTunesGapless: metadata.gapless,
                        quickTimeChapters: quickTime, neroChapters: nero, warnings: warnings,
                        truncated: treeReader.truncated)
    }

    private static func movieTimescale(_ moov: Box, source: any ByteSource) throws(MP4Error) -> Int64 {
        guard let mvhd = moov.first("mvhd") else { throw MP4Error(box: "moov/mvhd", reason: "missing") }
        var reader = try BinaryReader(readPayload(mvhd, source: source, limit: 4096), path: mvhd.path)
        let (version, _) = try reader.versionAndFlags()
        try reader.skip(version == 1 ? 16 : 8)
        let timescale = try reader.uint32()
        guard timescale > 0 else { throw reader.error("timescale 0") }
        return Int64(timescale)
    }
}

/// The handler type of a track (`soun`, `text`, `vide`...), from mdia/hdlr.
func handlerType(of trak: Box, source: any ByteSource) throws(MP4Error) -> FourCC? {
    guard let hdlr = trak.find("mdia", "hdlr") else { return nil }
    var reader = try BinaryReader(readPayload(hdlr, source: source, limit: 1 << 16), path: hdlr.path)
    try reader.skip(8)
    return FourCC(try reader.uint32())
}

/// The track ID from tkhd.
func readTrackID(of trak: Box, source: any ByteSource) throws(MP4Error) -> UInt32 {
    guard let tkhd = trak.first("tkhd") else { throw MP4Error(box: "\(trak.path)/tkhd", reason: "missing") }
    var reader = try BinaryReader(readPayload(tkhd, source: source, limit: 4096), path: tkhd.path)
    let (version, _) = try reader.versionAndFlags()
    try reader.skip(version == 1 ? 16 : 8)
    return try reader.uint32()
}

/// The media duration from mdia/mdhd, nil when it is 0, unreadable or "unknown" (all ones).
func mediaDuration(of trak: Box, source: any ByteSource) -> Int64? {
    guard let mdhd = trak.find("mdia", "mdhd"), var reader = try? BinaryReader(readPayload(mdhd, source: source, limit: 4096), path: mdhd.path),
          let (version, _) = try? reader.versionAndFlags(), (try? reader.skip(version == 1 ? 20 : 12)) != nil,
          let duration = try? reader.uint(version == 1 ? 8 : 4) else { return nil }
    return duration > 0 && duration < UInt64(SampleTable.maxDuration) ? Int64(duration) : nil
}

/// The media timescale (units per second) from mdia/mdhd.
func mediaTimescale(of trak: Box, source: any ByteSource) throws(MP4Error) -> Int64 {
    guard let mdhd = trak.find("mdia", "mdhd") else { throw MP4Error(box: "\(trak.path)/mdia/mdhd", reason: "missing") }
    var reader = try BinaryReader(readPayload(mdhd, source: source, limit: 4096), path: mdhd.path)
    let (version, _) = try reader.versionAndFlags()
    try reader.skip(version == 1 ? 16 : 8)
    let timescale = try reader.uint32()
    guard timescale > 0 else { throw reader.error("timescale 0") }
    return Int64(timescale)
}

public struct MP4Tag: Sendable, Equatable {
    /// The ABI's key (title, artist, albumartist, track, ...), or the atom's name lower-cased.
    public let key: String
    public let value: String
}

public struct MP4Picture: Sendable {
    public let mimeType: String
    public let data: [UInt8]
}

/// iTunSMPB: encoder delay and padding, and the source's length, in output samples.
public struct ITunesGapless: Sendable, Equatable {
    public let priming: Int64
    public let padding: Int64
    public let sampleCount: Int64
}

public struct MP4Chapter: Sendable, Equatable {
    /// The start in `timescale` units per second.
    public let start: Int64
    public let timescale: Int64
    public let title: String

    /// The start as a frame at `rate` (at most a few hundred kHz), rounded to the nearest;
    /// Int64.max for a start beyond any real book (a lying table), so it sorts last.
    public func startFrame(rate: Int64) -> Int64 {
        let seconds = start / timescale, fraction = start % timescale
        guard seconds < 1 << 32, rate > 0, rate < 1 << 24 else { return Int64.max }
        // fraction < timescale < 2^32 and rate < 2^24: the product fits.
        let scaled = fraction * rate
        return seconds * rate + scaled / timescale + ((scaled % timescale) * 2 >= timescale ? 1 : 0)
    }
}
