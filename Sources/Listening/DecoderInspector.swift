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
        var description = MediaDescription(sampleRate: format.rate, durationFrames: decoder.info.totalFrames)
        description.title = tags["title"]
        description.artist = tags["artist"]
        description.album = tags["album"]
        description.albumArtist = tags["albumartist"]
        description.composer = tags["composer"]
        description.narrator = tags["narrator"]
        description.genre = tags["genre"]
        description.year = MediaDescription.year(tags["year"])
        (description.trackNumber, description.trackCount) = MediaDescription.numberAndTotal(tags["track"])
        (description.discNumber, description.discCount) = MediaDescription.numberAndTotal(tags["disc"])
        description.chapters = decoder.metadata.chapters.map { ChapterMark(startFrame: $0.startFrame, title: $0.title) }
        description.hasCover = decoder.metadata.cover != nil
        description.warnings = warnings
        return description
    }
}

/// Why a file could not be inspected; the importer names the file.
struct InspectionFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
