import ABPluginABI
import CFLAC
import PluginKit
import VorbisComment

/// What libFLAC's metadata callback delivers during `open`, turned into the host's calls:
/// STREAMINFO kept for the format, VORBIS_COMMENT through VorbisComment, PICTURE blocks as
/// pictures, and a CUESHEET's tracks as chapters when the comments had no CHAPTERnnn.
final class FLACMetadata {
    private let callbacks: MetadataCallbacks?
    private let host: Host
    private(set) var streamInfo: FLAC__StreamMetadata_StreamInfo?
    private var commentChapters = 0
    /// Each track's INDEX 01 (or its first index) as a frame, with the track's number.
    private var cueTracks: [(start: Int64, number: UInt8)] = []

    init(callbacks: MetadataCallbacks?, host: Host) {
        self.callbacks = callbacks
        self.host = host
    }

    var totalFrames: Int64? {
        guard let total = streamInfo?.total_samples, total > 0 else { return nil }
        return Int64(total)
    }

    func receive(_ block: UnsafePointer<FLAC__StreamMetadata>) {
        switch block.pointee.type {
        case FLAC__METADATA_TYPE_STREAMINFO:
            streamInfo = block.pointee.data.stream_info
        case FLAC__METADATA_TYPE_VORBIS_COMMENT:
            guard let callbacks else { return }
            let comment = block.pointee.data.vorbis_comment
            let entries = (0..<Int(comment.num_comments)).compactMap { index -> UnsafeRawBufferPointer? in
                let entry = comment.comments[index]
                return entry.entry.map { UnsafeRawBufferPointer(start: $0, count: Int(entry.length)) }
            }
            let rate = Int64(streamInfo?.sample_rate ?? 0)
            guard rate > 0 else {
                host.log(ABP_LOG_WARNING, "ignored the Vorbis comments: they come before the stream info")
                return
            }
            commentChapters += VorbisComments(callbacks, rate: rate, totalFrames: totalFrames, host: host).report(entries)
        case FLAC__METADATA_TYPE_PICTURE:
            let picture = block.pointee.data.picture
            guard let callbacks, let data = picture.data, let mime = picture.mime_type else { return }
            let mimeText = String(cString: mime)
            guard mimeText != "-->" else { return } // a URL, not image data
            callbacks.picture(mime: mimeText, type: picture.type.rawValue,
                              data: UnsafeRawBufferPointer(start: data, count: Int(picture.data_length)))
        case FLAC__METADATA_TYPE_CUESHEET:
            let sheet = block.pointee.data.cue_sheet
            // The last track is the lead-out (170 on a CD, 255 otherwise): the end, not a chapter.
            for index in 0..<max(Int(sheet.num_tracks) - 1, 0) {
                let track = sheet.tracks[index]
                let indices = (0..<Int(track.num_indices)).map { track.indices[$0] }
                guard let first = indices.first(where: { $0.number == 1 }) ?? indices.first else { continue }
                cueTracks.append((Int64(track.offset + first.offset), track.number))
            }
        default:
            break
        }
    }

    /// After the last block: the cuesheet's chapters, unless CHAPTERnnn comments gave some (the
    /// comments have titles; a cuesheet has only numbers).
    func finish() {
        guard let callbacks, commentChapters == 0, !cueTracks.isEmpty else { return }
        for track in cueTracks {
            if let totalFrames, track.start > totalFrames {
                host.log(ABP_LOG_WARNING, "ignored cuesheet track \(track.number): it starts after the end of the stream")
                continue
            }
            callbacks.chapter(start: track.start, title: "Track \(track.number)")
        }
    }
}
