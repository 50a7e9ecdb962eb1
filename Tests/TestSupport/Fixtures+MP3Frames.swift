public import Foundation

/// MP3 variants that no encoder on this machine writes, made by cutting and splicing lame's frames.
extension Fixtures {
    /// `mp3` (MPEG-1 Layer III, lame's output) cut `bytesIntoFrame` bytes into the frame at
    /// `keepingFraction` of its frames, with its ID3v1 tag put back after the cut when
    /// `keepingID3v1` (a download cut short, then tagged by a tagger that appends ID3v1).
    public static func mp3CutInsideAFrame(_ mp3: URL, keepingFraction fraction: Double, bytesIntoFrame: Int, keepingID3v1: Bool) throws -> URL {
        let name = "\(mp3.deletingPathExtension().lastPathComponent)-cut\(Int(fraction * 1000))-\(bytesIntoFrame)\(keepingID3v1 ? "-id3v1" : "").mp3"
        return try cache.file(named: "mp3/\(name)") { url in
            let bytes = [UInt8](try Data(contentsOf: mp3))
            let tag = bytes.suffix(128)
            guard tag.starts(with: "TAG".utf8) else { throw FixtureError.invalidArgument("\(mp3.path) has no ID3v1 tag") }
            let frames = MPEGFrames.offsets(in: bytes)
            let cut = frames[Int(Double(frames.count) * fraction)] + bytesIntoFrame
            try Data(bytes[..<cut] + (keepingID3v1 ? Array(tag) : [])).write(to: url)
        }
    }

    /// `mp3` (MPEG-1 Layer III starting with a frame: lame `-t`, no tags) behind a first frame that
    /// holds a Fraunhofer VBRI header and no audio, as Fraunhofer's encoders write it.
    public static func mp3WithVBRIHeader(_ mp3: URL) throws -> URL {
        try cache.file(named: "mp3/\(mp3.deletingPathExtension().lastPathComponent)-vbri.mp3") { url in
            let bytes = [UInt8](try Data(contentsOf: mp3))
            let frames = MPEGFrames.offsets(in: bytes)
            guard frames.first == 0 else { throw FixtureError.invalidArgument("\(mp3.path) does not start with a frame") }
            // 128 kbit/s without padding at the stream's rate and mode: side information all
            // zero (no audio data), the header 32 bytes after the frame header.
            let header: [UInt8] = [0xFF, 0xFB, 0x90 | bytes[2] & 0x0C, bytes[3]]
            let length = 144 * 128_000 / MPEGFrames.sampleRate(bytes[2]) 
            var frame = header + [UInt8](repeating: 0, count: length - 4)
            func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
            func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }
            // "VBRI", version 1, delay, quality, bytes, frames, then an empty seek table
            let vbri = Array("VBRI".utf8) + be16(1) + be16(0x240) + be16(75) + be32(bytes.count + length)
                + be32(frames.count + 1) + be16(0) + be16(1) + be16(2) + be16(0)
            frame.replaceSubrange(36..<36 + vbri.count, with: vbri)
            try Data(frame + bytes).write(to: url)
        }
    }
}

/// Frame boundaries of MPEG-1 Layer III streams.
enum MPEGFrames {
    static func sampleRate(_ byte2: UInt8) -> Int { [44100, 48000, 32000, 0][Int(byte2 >> 2 & 3)] }

    /// The offset of every frame, from the first after an ID3v2 tag to the first non-frame.
    static func offsets(in bytes: [UInt8]) -> [Int] {
        let kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0]
        var offset = 0
        if bytes.starts(with: "ID3".utf8), bytes.count >= 10 {
            offset = 10 + bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        }
        var offsets: [Int] = []
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] & 0xFE == 0xFA {
            let rate = sampleRate(bytes[offset + 2]), bitrate = kbps[Int(bytes[offset + 2] >> 4)]
            guard rate > 0, bitrate > 0 else { break }
            offsets.append(offset)
            offset += 144 * bitrate * 1000 / rate + Int(bytes[offset + 2] >> 1 & 1)
        }
        return offsets
    }
}

extension Fixtures {
    /// An ID3v2 frame to write: a text frame (`TPE1`, `TSSE`, ...), or `COMM` (empty description).
    public struct ID3Frame: Sendable {
        public let id: String
        public let text: String

        public init(_ id: String, _ text: String) {
            self.id = id
            self.text = text
        }
    }

    /// `mp3` (no tags: lame `-t`) behind an ID3v2.4 tag holding `frames` as given, in order,
    /// repeats included (lame and ffmpeg write each frame once).
    public static func mp3WithID3Frames(_ mp3: URL, label: String, _ frames: [ID3Frame]) throws -> URL {
        try cache.file(named: "mp3/\(mp3.deletingPathExtension().lastPathComponent)-id3-\(label).mp3") { url in
            func syncsafe(_ value: Int) -> [UInt8] { [21, 14, 7, 0].map { UInt8(value >> $0 & 0x7F) } }
            let body = frames.flatMap { frame -> [UInt8] in
                // UTF-8 (encoding 3); COMM adds a language and an empty description
                let payload = [3] + (frame.id == "COMM" ? Array("eng".utf8) + [0] : []) + Array(frame.text.utf8)
                return Array(frame.id.utf8) + syncsafe(payload.count) + [0, 0] + payload
            }
            let tag = Array("ID3".utf8) + [4, 0, 0] + syncsafe(body.count) + body
            try Data(tag + [UInt8](try Data(contentsOf: mp3))).write(to: url)
        }
    }
}

extension Fixtures {
    /// `mp3` remuxed by ffmpeg (audio copied, tags and chapters kept) with an OverDrive
    /// MediaMarkers TXXX frame: `markers` are (name, time as OverDrive writes it, "M:SS.mmm" or
    /// "H:MM:SS.mmm"), names XML-escaped.
    public static func mp3WithOverDriveMarkers(_ mp3: URL, markers: [(name: String, time: String)]) throws -> URL {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        let xml = "<Markers>" + markers.map { "<Marker><Name>\(escaped($0.name))</Name><Time>\($0.time)</Time></Marker>" }.joined() + "</Markers>"
        let name = "mp3/\(mp3.deletingPathExtension().lastPathComponent)-overdrive-\(stableDigest(xml + mp3.path)).mp3"
        return try cache.file(named: name) { url in
            let head = try Data(contentsOf: mp3)
            var arguments = ["-v", "error", "-y", "-i", mp3.path, "-map", "0", "-map_metadata", "0", "-map_chapters", "0"]
            arguments += ["-c", "copy", "-id3v2_version", "3", "-metadata", "OverDrive MediaMarkers=\(xml)"]
            arguments += ["-write_xing", MP3Layout.hasXingFrame(head) ? "1" : "0"]
            try Command.run("ffmpeg", arguments + [url.path]).requireSuccess()
        }
    }
}
