import ABPluginABI
import CFFmpeg
import PluginKit

/// What FFmpeg read of a file's tags, chapters and pictures, through the host's callbacks: the
/// container's tags, then the audio stream's for keys the container did not have (Ogg and some
/// Matroska files keep them on the stream), AVChapters, and attached pictures.
struct FFmpegMetadata {
    let callbacks: MetadataCallbacks
    let rate: Int

    func report(_ input: FFmpegInput, totalFrames: Int64?) {
        guard let format = input.format else { return }
        reportTags(format.pointee.metadata, input.stream.pointee.metadata)
        reportChapters(format, totalFrames: totalFrames)
        for index in 0..<Int(format.pointee.nb_streams) {
            guard let stream = format.pointee.streams[index] else { continue }
            reportPicture(stream)
        }
    }

    private func reportTags(_ dictionaries: OpaquePointer?...) {
        var seen = Set<String>()
        for dictionary in dictionaries {
            var added = Set<String>()
            var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
            while let next = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX) {
                entry = next
                guard let rawKey = next.pointee.key, let rawValue = next.pointee.value else { continue }
                guard let key = Self.key(for: String(cString: rawKey)), !seen.contains(key) else { continue }
                var value = String(cString: rawValue)
                if key == "year" { value = String(value.prefix(4)) }
                callbacks.tag(key, value)
                added.insert(key)
            }
            seen.formUnion(added)
        }
    }

    /// The ABI's key for one of FFmpeg's (its generic names, or Vorbis and APE names as the
    /// demuxers pass them on); nil for the containers' technical entries, which are not tags.
    static func key(for name: String) -> String? {
        let lowered = name.lowercased()
        switch lowered {
        case "album_artist", "albumartist", "album artist": return "albumartist"
        case "date", "year", "creation_date": return "year"
        case "tracknumber": return "track"
        case "discnumber": return "disc"
        case "encoder", "encoded_by", "major_brand", "minor_version", "compatible_brands", "creation_time", "handler_name",
             "vendor_id", "language", "duration", "encoder_options", "vendor", "mime", "filename", "cuesheet", "itunsmpb",
             "waveformatextensible_channel_mask", "wmfsdkversion", "wmfsdkneeded", "isvbr", "deviceconformancetemplate":
            return nil
        default:
            return lowered.hasPrefix("_statistics") || lowered.hasPrefix("itunes_cddb") ? nil : lowered
        }
    }

    private func reportChapters(_ format: UnsafeMutablePointer<AVFormatContext>, totalFrames: Int64?) {
        let output = AVRational(num: 1, den: Int32(rate))
        for index in 0..<Int(format.pointee.nb_chapters) {
            guard let chapter = format.pointee.chapters[index] else { continue }
            let start = max(0, av_rescale_q(chapter.pointee.start, chapter.pointee.time_base, output))
            if let totalFrames, start > totalFrames { continue }
            let title = av_dict_get(chapter.pointee.metadata, "title", nil, 0)?.pointee.value.map { String(cString: $0) } ?? ""
            callbacks.chapter(start: start, title: title)
        }
    }

    /// A cover (or other picture) the demuxer turned into a one-packet video stream.
    private func reportPicture(_ stream: UnsafeMutablePointer<AVStream>) {
        guard stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 else { return }
        let packet = stream.pointee.attached_pic
        guard let data = packet.data, packet.size > 0 else { return }
        let mime: String
        switch stream.pointee.codecpar.pointee.codec_id {
        case AV_CODEC_ID_MJPEG: mime = "image/jpeg"
        case AV_CODEC_ID_PNG: mime = "image/png"
        case AV_CODEC_ID_GIF: mime = "image/gif"
        case AV_CODEC_ID_BMP: mime = "image/bmp"
        case AV_CODEC_ID_WEBP: mime = "image/webp"
        default: return
        }
        // The demuxers name the ID3/FLAC picture type in the stream's "comment" ("Cover (front)").
        let comment = av_dict_get(stream.pointee.metadata, "comment", nil, 0)?.pointee.value.map { String(cString: $0) }
        let type: UInt32 = comment == "Cover (back)" ? 4 : comment == "Other" ? 0 : 3
        callbacks.picture(mime: mime, type: type, data: UnsafeRawBufferPointer(start: data, count: Int(packet.size)))
    }
}
