// Vorbis comments (the tag format of Ogg Vorbis, Ogg Opus and FLAC) mapped onto the ABI: tags
// renamed to the ABI's keys, one call per comment (two ARTIST comments are two tags: the host
// keeps the list), CHAPTERnnn/CHAPTERnnnNAME (the Vorbis chapter extension) as chapters, and
// METADATA_BLOCK_PICTURE (a base64 FLAC picture block) as pictures. Shared by the opusfile,
// vorbisfile and flac plugins, each linking its own static copy.
import ABPluginABI
public import PluginKit

public struct VorbisComments {
    private let metadata: MetadataCallbacks
    /// The output rate, to turn chapter times into frames.
    private let rate: Int64
    private let totalFrames: Int64?
    private let host: Host

    public init(_ metadata: MetadataCallbacks, rate: Int64, totalFrames: Int64?, host: Host) {
        self.metadata = metadata
        self.rate = rate
        self.totalFrames = totalFrames
        self.host = host
    }

    /// Reports every comment ("NAME=value", UTF-8, not NUL-terminated) and returns how many
    /// chapters it reported (the flac plugin uses a cuesheet only when there were none).
    @discardableResult
    public func report(_ comments: [UnsafeRawBufferPointer]) -> Int {
        var track = NumberAndTotal(), disc = NumberAndTotal()
        var chapters: [Int: (start: Int64?, title: String?)] = [:]
        var malformed: Set<Int> = []
        for bytes in comments {
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: bytes[..<equals], as: UTF8.self).uppercased()
            let valueBytes = UnsafeRawBufferPointer(rebasing: bytes[(equals + 1)...])
            let value = String(decoding: valueBytes, as: UTF8.self)
            switch name {
            case "TITLE", "ARTIST", "ALBUM", "COMPOSER", "NARRATOR", "GENRE", "COMMENT", "DESCRIPTION":
                metadata.tag(name.lowercased(), value)
            case "ALBUMARTIST", "ALBUM ARTIST": metadata.tag("albumartist", value)
            case "DATE": metadata.tag("year", year(from: value))
            case "TRACKNUMBER": track.number = track.number ?? value
            case "TRACKTOTAL", "TOTALTRACKS": track.total = track.total ?? value
            case "DISCNUMBER": disc.number = disc.number ?? value
            case "DISCTOTAL", "TOTALDISCS": disc.total = disc.total ?? value
            case "METADATA_BLOCK_PICTURE": reportPicture(base64: valueBytes)
            case "COVERART", "COVERARTMIME": break // the legacy base64 cover: binary, not a tag
            // How the file was encoded (oggenc's ENCODER, opusenc's ENCODER_OPTIONS, ffmpeg's
            // encoder_options…): settings, not something a listener files a book by.
            case _ where name.hasPrefix("ENCODER"): break
            case _ where name.hasPrefix("CHAPTER"):
                let rest = name.dropFirst("CHAPTER".count)
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard let number = Int(digits) else { continue }
                switch rest.dropFirst(digits.count) {
                case "":
                    guard let start = chapterStart(value, rate: rate) else {
                        host.log(ABP_LOG_WARNING, "ignored \(name)=\(value): expected HH:MM:SS.mmm")
                        malformed.insert(number)
                        continue
                    }
                    chapters[number, default: (nil, nil)].start = start
                case "NAME": chapters[number, default: (nil, nil)].title = value
                default: break // CHAPTERnnnURL and the like
                }
            default: metadata.tag(name.lowercased(), value)
            }
        }
        if let text = track.text { metadata.tag("track", text) } else if let total = track.total { metadata.tag("tracktotal", total) }
        if let text = disc.text { metadata.tag("disc", text) } else if let total = disc.total { metadata.tag("disctotal", total) }
        var reported = 0
        for (number, entry) in chapters.sorted(by: { $0.key < $1.key }) {
            guard let start = entry.start else {
                if !malformed.contains(number) {
                    host.log(ABP_LOG_WARNING, "ignored the name of chapter \(number): it has no start time")
                }
                continue
            }
            if let totalFrames, start > totalFrames {
                host.log(ABP_LOG_WARNING, "ignored chapter \(number): it starts after the end of the stream")
                continue
            }
            metadata.chapter(start: start, title: entry.title ?? "")
            reported += 1
        }
        return reported
    }

    private func reportPicture(base64: UnsafeRawBufferPointer) {
        guard let block = Base64.decode(base64), let picture = FLACPicture(block: block) else {
            host.log(ABP_LOG_WARNING, "ignored a METADATA_BLOCK_PICTURE that does not parse")
            return
        }
        // A picture given as a URL ("-->" MIME type) is a link, not image data.
        guard picture.mime != "-->" else { return }
        block.withUnsafeBytes { bytes in
            metadata.picture(mime: picture.mime, type: picture.type, data: UnsafeRawBufferPointer(rebasing: bytes[picture.data]))
        }
    }
}

/// TRACKNUMBER and TRACKTOTAL (or the disc pair) combined into the ABI's "n/N".
private struct NumberAndTotal {
    var number: String?
    var total: String?

    var text: String? {
        guard let number else { return nil }
        guard let total, !number.contains("/") else { return number }
        return "\(number)/\(total)"
    }
}

/// The year of a DATE comment ("2019-05-01" -> "2019"); anything else as the file has it.
private func year(from date: String) -> String {
    let digits = date.prefix(4)
    return digits.count == 4 && digits.allSatisfy({ $0.isASCII && $0.isNumber }) ? String(digits) : date
}

/// "HH:MM:SS.mmm" or "HH:MM:SS" (hours of any width, any number of fraction digits) as a frame
/// at `rate`, or nil when malformed.
func chapterStart(_ text: String, rate: Int64) -> Int64? {
    func number(_ part: Substring, maxDigits: Int) -> Int64? {
        guard (1...maxDigits).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(part)
    }
    let fields = text.split(separator: ":", omittingEmptySubsequences: false)
    guard fields.count == 3 else { return nil }
    let secondsAndFraction = fields[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard let hours = number(fields[0], maxDigits: 6),
          let minutes = number(fields[1], maxDigits: 2), minutes < 60,
          let seconds = number(secondsAndFraction[0], maxDigits: 2), seconds < 60 else { return nil }
    var frames = ((hours * 60 + minutes) * 60 + seconds) * rate
    if secondsAndFraction.count == 2 {
        let fraction = secondsAndFraction[1]
        guard let value = number(fraction, maxDigits: 9) else { return nil }
        var scale: Int64 = 1
        for _ in 0..<fraction.count { scale *= 10 }
        frames += (value * rate * 2 + scale) / (scale * 2) // rounded to the nearest frame
    }
    return frames
}
