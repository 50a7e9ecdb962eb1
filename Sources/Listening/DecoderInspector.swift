public import Library
public import PlayerCore

/// Reads media for the library by opening them with decoders — in the program, the plugin
/// registry, so any decoder present (MP3, Opus, M4B once its plugin exists) can import. Lives
/// here, beside the other bridge between the player and the library, because the Library module
/// knows no decoders.
public struct DecoderInspector: MediaInspector {
    public let decoders: any DecoderOpener

    public init(decoders: any DecoderOpener) { self.decoders = decoders }

    public func inspect(path: String) throws -> MediaDescription {
        let decoder: any Decoder
        let warnings: [String]
        do {
            (decoder, warnings) = try decoders.openDecoderKeepingWarnings(path: path)
        } catch let error as AudioError {
            // The importer names the file itself.
            throw InspectionFailure(reason: error.reason)
        }
        let tags = decoder.metadata.tags
        let format = decoder.info.format
        // A decoder that warned while opening may be reading a file cut short of the length its
        // header gives: the book must count what is there.
        let frames = warnings.isEmpty ? decoder.info.totalFrames : decoder.info.totalFrames.map { Self.realLength(of: decoder, claimed: $0) }
        var description = MediaDescription(sampleRate: format.rate, durationFrames: frames)
        description.title = tags["title"]
        description.artist = tags["artist"]
        description.album = tags["album"]
        description.albumArtist = tags["albumartist"]
        description.composer = tags["composer"]
        description.narrator = tags["narrator"]
        description.genre = tags["genre"]
        description.year = MediaDescription.year(tags.first("year"))
        (description.trackNumber, description.trackCount) = MediaDescription.numberAndTotal(tags.first("track"))
        (description.discNumber, description.discCount) = MediaDescription.numberAndTotal(tags.first("disc"))
        description.chapters = decoder.metadata.chapters.map { ChapterMark(startFrame: $0.startFrame, title: $0.title) }
        description.hasCover = decoder.metadata.cover != nil
        // A plugin's line starts with the file it is about (PluginKit's Host puts it there for
        // the log); the importer names the file itself, so it is said once.
        description.warnings = warnings.map { $0.hasPrefix(path + ": ") ? String($0.dropFirst(path.count + 2)) : $0 }
        return description
    }
}

extension DecoderInspector {
    /// The frames a stream really holds when at most `claimed`: a binary search by seeking (exact
    /// and cheap in every decoder here: a sample table or an index) for the last second that still
    /// decodes, then a read to the end from there. Never more than `claimed`.
    static func realLength(of decoder: any Decoder, claimed: Int64) -> Int64 {
        guard decoder.info.isSeekable, claimed > 0 else { return claimed }
        let channels = decoder.info.format.channels
        let chunk = 4096
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        func decodes(at frame: Int64) -> Bool {
            guard (try? decoder.seek(to: frame)) != nil else { return false }
            return ((try? decoder.read(into: buffer, maxFrames: chunk)) ?? 0) > 0
        }
        guard !decodes(at: max(0, claimed - 1)) else { return claimed }
        var low: Int64 = 0, high = claimed - 1
        let step = Int64(decoder.info.format.rate)
        while high - low > step {
            let middle = low + (high - low) / 2
            if decodes(at: middle) { low = middle } else { high = middle }
        }
        guard (try? decoder.seek(to: low)) != nil else { return claimed }
        var end = low
        while let read = try? decoder.read(into: buffer, maxFrames: chunk), read > 0 { end += Int64(read) }
        return min(end, claimed)
    }
}

/// Why a file could not be inspected; the importer names the file.
struct InspectionFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
