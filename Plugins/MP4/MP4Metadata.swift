/// Tags, pictures and chapters of a file whose audio track cannot be used (its sample tables are
/// damaged, say): a probe still shows what the file is, beside the reason it does not play.
/// Read as `MP4Movie.parse` reads them, skipping the sample tables.
public struct MP4Metadata: Sendable {
    public let tags: [MP4Tag]
    public let pictures: [MP4Picture]
    public let chapters: [MP4Chapter]
    /// The audio track's media timescale, its rate as far as the movie says (AAC's sample rate).
    public let timescale: Int64?
    public let channelCount: Int?

    /// nil when there is no movie header to read, or nothing in it.
    public static func read(_ source: any ByteSource) -> MP4Metadata? {
        var treeReader = BoxTreeReader(source: source)
        guard let top = try? treeReader.topLevel(), let moov = top.first(where: { $0.type == "moov" }) else { return nil }
        let tracks = moov.all("trak")
        let audio = tracks.first { (try? handlerType(of: $0, source: source)) == "soun" }
        var metadata = MetadataReader(source: source)
        if let ilst = moov.find("udta", "meta", "ilst") ?? moov.find("meta", "ilst") { metadata.read(ilst) }
        var chapterReader = ChapterReader(source: source, tracks: tracks)
        let quickTime = audio.map { chapterReader.quickTime(referencedBy: $0) } ?? []
        let nero = moov.find("udta", "chpl").map { chapterReader.nero($0) } ?? []
        let result = MP4Metadata(
            tags: metadata.tags, pictures: metadata.pictures, chapters: quickTime.isEmpty ? nero : quickTime,
            timescale: audio.flatMap { try? mediaTimescale(of: $0, source: source) },
            channelCount: audio.flatMap { $0.find("mdia", "minf", "stbl")?.first("stsd") }
                .flatMap { try? SampleEntry($0, source: source).channelCount })
        return result.tags.isEmpty && result.pictures.isEmpty && result.chapters.isEmpty ? nil : result
    }
}
