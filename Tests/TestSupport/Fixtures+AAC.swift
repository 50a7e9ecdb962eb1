public import Foundation

/// How an AAC fixture is packaged.
public enum AACContainer: String, Sendable {
    case m4b, m4a, mp4
    /// Raw ADTS, no container.
    case adts = "aac"
}

extension Fixtures {
    /// The time-coded signal encoded by ffmpeg's native AAC-LC encoder.
    ///
    /// What ffmpeg 5.1 writes (checked by dumping the boxes): an elst whose media time is 1024
    /// (the encoder's priming) and whose duration is the source's, stts with the last sample
    /// shortened to the real end, moov after mdat unless `faststart`. With `chapters` it writes
    /// both chapter forms: a QuickTime text track referenced by tref/chap, and a Nero chpl box.
    /// `tags` are ffmetadata keys (title, artist, album_artist, composer, genre, track, disc,
    /// date, comment, description). ADTS output carries no priming information at all.
    ///
    /// `pns: false` turns off the encoder's perceptual noise substitution. Noise-substituted bands
    /// are filled by the decoder's random generator, whose state after a seek cannot equal a
    /// continuous decode's, so only a file without PNS can show a seek to be bit-exact.
    public static func aac(
        seconds: Int = 20, rate: Int = 44100, channels: Int = 2, bitrate: Int = 96,
        container: AACContainer = .m4b, faststart: Bool = false, pns: Bool = true,
        tags: [String: String] = [:], chapters: [FixtureChapter] = [], coverJPEG: URL? = nil
    ) throws -> URL {
        let source = try timeCodedWAV(seconds: seconds, rate: rate, channels: channels)
        let description = "\(tags.sorted { $0.key < $1.key })|\(chapters.map { "\($0.startSeconds)=\($0.title)" })|\(coverJPEG?.path ?? "")"
        let name = "aac/timecoded-\(seconds)s-\(rate)hz-\(channels)ch-\(bitrate)k\(faststart ? "-faststart" : "")\(pns ? "" : "-nopns")-\(stableDigest(description)).\(container.rawValue)"
        return try cache.file(named: name) { url in
            let metadata = url.deletingLastPathComponent().appending(path: ".meta-\(UUID().uuidString).txt")
            defer { try? FileManager.default.removeItem(at: metadata) }
            var text = ffmetadata(chapters: chapters, totalSeconds: Double(seconds))
            for (key, value) in tags.sorted(by: { $0.key < $1.key }) { text.insert(contentsOf: "\(key)=\(value)\n", at: text.index(text.startIndex, offsetBy: 13)) }
            try Data(text.utf8).write(to: metadata)
            var arguments = ["-v", "error", "-y", "-i", source.path, "-i", metadata.path]
            if let coverJPEG { arguments += ["-i", coverJPEG.path] }
            arguments += ["-map", "0:a", "-map_metadata", "1", "-map_chapters", "1"]
            if coverJPEG != nil { arguments += ["-map", "2:v", "-c:v", "copy", "-disposition:v:0", "attached_pic"] }
            arguments += ["-c:a", "aac", "-b:a", "\(bitrate)k", "-aac_pns", pns ? "1" : "0"]
            if faststart { arguments += ["-movflags", "+faststart"] }
            if container == .adts { arguments += ["-f", "adts"] }
            try Command.run("ffmpeg", arguments + [url.path]).requireSuccess()
        }
    }

    /// A copy of an M4B (moov after mdat) changed by `edit`; `label` names the variant.
    public static func editedMP4(_ file: URL, label: String, _ edit: (inout MP4BoxEditor) throws -> Void) throws -> URL {
        try cache.file(named: "aac/\(file.deletingPathExtension().lastPathComponent)-\(label).\(file.pathExtension)") { url in
            var editor = try MP4BoxEditor(file)
            try edit(&editor)
            try editor.write(to: url)
        }
    }

    /// `file` with every stco turned into co64 and the audio moved above 4 GiB: a sparse 4 GiB
    /// `free` box is put after ftyp (it takes no disk space), so the offsets the parser must use
    /// really do not fit in 32 bits. `file`'s moov must follow its mdat.
    public static func withAudioAbove4GiB(_ file: URL) throws -> URL {
        try cache.file(named: "aac/\(file.deletingPathExtension().lastPathComponent)-above4gib.\(file.pathExtension)") { url in
            var editor = try MP4BoxEditor(file)
            guard editor.boxes.first?.type == "ftyp" else { throw FixtureError.invalidArgument("\(file.path) does not start with ftyp") }
            let gap: UInt64 = (1 << 32) + 4096
            let trackCount = editor.boxes.first { $0.type == "moov" }?.children?.filter { $0.type == "trak" }.count ?? 0
            for track in 0..<trackCount {
                let path = "moov/trak[\(track)]/mdia/minf/stbl"
                guard let stco = editor.node("\(path)/stco") else { continue }
                let count = Int(MP4BoxEditor.be32(stco.payload, 4))
                var body = MP4BoxEditor.be32(UInt32(count))
                for index in 0..<count {
                    body += MP4BoxEditor.be64(UInt64(MP4BoxEditor.be32(stco.payload, 8 + 4 * index)) + gap)
                }
                try editor.remove("\(path)/stco")
                try editor.append(.full("co64", body), to: path)
            }
            let ftyp = editor.boxes.removeFirst().bytes
            let rest = try editor.edited()
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.write(contentsOf: Data(ftyp + MP4BoxEditor.be32(1) + Array("free".utf8) + MP4BoxEditor.be64(gap)))
            try handle.seek(toOffset: UInt64(ftyp.count) + gap)
            try handle.write(contentsOf: Data(rest))
        }
    }
}

/// A 20-hour M4B in which every 4-second block is one of 15 blocks of the time-coded signal,
/// chosen by a hash of the block's index: the second heard anywhere says which block it is, and
/// a seek that lands a minute or an hour off lands in a block with other tones (the test checks
/// that the neighbours differ). Made without encoding 20 hours: ffmpeg encodes 61 s once as ADTS
/// at 32 kHz mono (where 4 s is exactly 125 AAC frames), the frames are concatenated in block
/// order, and ffmpeg remuxes the stream into an M4B with `-c copy`.
public enum LongAACFixture {
    public static let rate = 32000
    public static let blockSeconds = 4

    /// Which 4-second block of the time-coded signal (0..<15) block `index` of the book holds:
    /// splitmix64 of the index, so that no shift (a minute, an hour) maps the code onto itself.
    public static func code(ofBlock index: Int) -> Int {
        var z = UInt64(index) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % 15)
    }

    /// The time-coded second (0..<60) heard at second `second` of the book.
    public static func timeCodedSecond(at second: Int) -> Int {
        code(ofBlock: second / blockSeconds) * blockSeconds + second % blockSeconds
    }

    public static func m4b(hours: Int = 20) throws -> URL {
        let piece = try Fixtures.cache.file(named: "aac/long-piece-32k-mono.aac") { url in
            let source = try Fixtures.timeCodedWAV(seconds: 61, rate: rate, channels: 1)
            try Command.run("ffmpeg", ["-v", "error", "-y", "-i", source.path, "-c:a", "aac", "-b:a", "16k", "-f", "adts", url.path]).requireSuccess()
        }
        let adts = try Fixtures.cache.file(named: "aac/long-\(hours)h.aac") { url in
            let frames = try adtsFrames(Data(contentsOf: piece))
            let framesPerBlock = rate * blockSeconds / 1024
            guard frames.count > 1 + 15 * framesPerBlock else { throw FixtureError.invalidArgument("the piece has only \(frames.count) frames") }
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            // Frame 0 is the encoder's priming; block b then fills frames 1 + 125b ..< 1 + 125(b+1).
            var out = Data(frames[0])
            for block in 0..<(hours * 3600 / blockSeconds) {
                let first = 1 + code(ofBlock: block) * framesPerBlock
                for frame in frames[first..<first + framesPerBlock] { out.append(frame) }
                if out.count > 1 << 22 {
                    try handle.write(contentsOf: out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            try handle.write(contentsOf: out)
        }
        return try Fixtures.cache.file(named: "aac/long-\(hours)h.m4b") { url in
            try Command.run("ffmpeg", ["-v", "error", "-y", "-i", adts.path, "-c", "copy", url.path], timeout: 300).requireSuccess()
        }
    }

    /// The ADTS frames of a stream, header included.
    static func adtsFrames(_ data: Data) throws -> [Data] {
        let bytes = [UInt8](data)
        var frames: [Data] = []
        var offset = 0
        while offset + 7 <= bytes.count {
            guard bytes[offset] == 0xFF, bytes[offset + 1] & 0xF6 == 0xF0 else { throw FixtureError.invalidArgument("lost ADTS sync at \(offset)") }
            let length = Int(bytes[offset + 3] & 3) << 11 | Int(bytes[offset + 4]) << 3 | Int(bytes[offset + 5] >> 5)
            guard length > 7, offset + length <= bytes.count else { break }
            frames.append(Data(bytes[offset..<offset + length]))
            offset += length
        }
        return frames
    }
}

extension Fixtures {
    /// A copy of an ffmpeg M4B whose esds carries `config` as its AudioSpecificConfig: for the
    /// configurations other muxers write and ffmpeg's never does. The esds is rebuilt in the
    /// layout ffmpeg writes (ES_Descriptor, DecoderConfigDescriptor with ffmpeg's object type,
    /// buffer size and bit rates, DecoderSpecificInfo, SLConfig), and the sizes of the sample
    /// entry and the boxes around it follow.
    public static func withAudioSpecificConfig(_ file: URL, label: String, _ config: [UInt8]) throws -> URL {
        try editedMP4(file, label: label) { editor in
            let path = "moov/trak[0]/mdia/minf/stbl/stsd"
            guard var payload = editor.node(path)?.payload,
                  let esds = (0..<payload.count - 4).first(where: { payload[$0..<$0 + 4].elementsEqual("esds".utf8) }),
                  payload[8 + 4..<8 + 8].elementsEqual("mp4a".utf8) else {
                throw FixtureError.invalidArgument("\(file.path): no mp4a/esds in the first track's stsd")
            }
            // esds payload: version/flags, 03 + 4-byte length, ES_ID, flags, 04 + 4-byte length, 13 bytes
            let decoderConfigStart = esds + 4 + 4 + 5 + 3
            guard payload[esds + 8] == 0x03, payload[decoderConfigStart] == 0x04 else {
                throw FixtureError.invalidArgument("\(file.path): the esds is not laid out as ffmpeg writes it")
            }
            let fixedFields = Array(payload[decoderConfigStart + 5..<decoderConfigStart + 5 + 13])
            func descriptor(_ tag: UInt8, _ body: [UInt8]) -> [UInt8] { [tag, 0x80, 0x80, 0x80, UInt8(body.count)] + body }
            let decoderConfig = descriptor(0x04, fixedFields + descriptor(0x05, config))
            let body = [0, 0, 0, 0] + descriptor(0x03, [0x00, 0x01, 0x00] + decoderConfig + descriptor(0x06, [0x02]))
            let oldSize = Int(MP4BoxEditor.be32(payload, esds - 4))
            guard esds - 4 + oldSize == payload.count else { throw FixtureError.invalidArgument("\(file.path): boxes follow the esds") }
            payload.replaceSubrange(esds - 4..<esds - 4 + oldSize, with: MP4BoxEditor.be32(UInt32(8 + body.count)) + Array("esds".utf8) + body)
            // The mp4a entry ends with its esds (ffmpeg writes nothing after it).
            payload.replaceSubrange(8..<12, with: MP4BoxEditor.be32(UInt32(payload.count - 8)))
            try editor.modify(path) { $0.payload = payload }
        }
    }
}
