import Library
import PlayerCore
import PluginHost

/// Reads media for the library through the plugin registry: any decoder present can import.
struct RegistryInspector: MediaInspector {
    let registry: PluginRegistry

    func inspect(path: String) throws -> MediaDescription {
        let decoder: any Decoder
        do {
            decoder = try registry.openDecoder(path: path)
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
        return description
    }
}

struct InspectionFailure: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
