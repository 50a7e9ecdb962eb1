public import Foundation

/// A book of many files that should play as one: a source made by sox, cut at frames that fall
/// on no codec frame, each part encoded on its own with the encoder's gapless information, and
/// the whole source encoded too, for comparison.
///
/// The source is two sweeps per channel (200 to 1200 Hz with 1370 to 610 Hz left, 900 to 300 Hz
/// with 530 to 1450 Hz right), undithered so that every run encodes the same samples: any frame
/// out of place changes the phase from there on, a swap of channels shows, and, unlike a single
/// sweep, the sum does not look like itself one period later (one sweep near 690 Hz let encoder
/// noise pull a lag search to -63 frames, one period, at a seam that was exact).
public struct GaplessSplit: Sendable {
    /// One encoder with its gapless information: lame's LAME tag (delay and padding), opusenc's
    /// pre-skip and end granule, ffmpeg's edit list (its priming, and the stts cut to the end),
    /// or an iTunSMPB record in the edit list's place.
    public struct Codec: Sendable, CustomStringConvertible {
        public let name: String
        public let fileExtension: String
        /// The rate the codec decodes at (Opus: always 48 kHz, so its source is made at 48 kHz).
        public let rate: Int
        let command: @Sendable (_ input: String, _ output: String) -> (String, [String])
        /// Changes the encoded file, given the number of source frames it holds.
        var rewrite: (@Sendable (_ file: URL, _ frames: Int) throws -> Void)?
        public var description: String { name }

        func encode(_ input: URL, frames: Int, to output: URL) throws {
            let (executable, arguments) = command(input.path, output.path)
            try Command.run(executable, arguments).requireSuccess()
            try rewrite?(output, frames)
        }

        // High bitrates keep the encoders' own noise at a part's abrupt start and end small, so
        // that a click made by the player would stand out from it.
        public static let mp3 = Codec(name: "MP3", fileExtension: "mp3", rate: 44100) {
            ("lame", ["--quiet", "--nohist", "-b", "320", $0, $1])
        }
        public static let opus = Codec(name: "Opus", fileExtension: "opus", rate: 48000) {
            ("opusenc", ["--quiet", "--bitrate", "160", $0, $1])
        }
        /// ffmpeg's native encoder into .m4a, PNS off (its noise is random at decode time).
        public static let aac = Codec(name: "AAC", fileExtension: "m4a", rate: 44100) {
            ("ffmpeg", ["-v", "error", "-y", "-i", $0, "-c:a", "aac", "-b:a", "256k", "-aac_pns", "0", $1])
        }
        /// The same files with the edit list taken out and an iTunSMPB record in its place, as
        /// iTunes writes them (ffmpeg never does): priming 1024, the padding, the source's length.
        public static let aacITunSMPB = Codec(name: "AAC-iTunSMPB", fileExtension: "m4a", rate: 44100, command: aac.command) { file, frames in
            var editor = try MP4BoxEditor(file)
            try editor.remove("moov/trak[0]/edts")
            let padding = 2048 - (frames + 1024) % 1024
            let record = " 00000000 00000400 \(String(format: "%08X", padding)) \(String(format: "%016X", frames)) 00000000"
            try editor.append(MP4BoxEditor.freeform("iTunSMPB", record), to: "moov/udta/meta/ilst")
            try editor.write(to: file)
        }
        public static let all = [mp3, opus, aac, aacITunSMPB]
    }

    public static let seconds = 12
    public static let channels = 2

    public let codec: Codec
    /// The source as 16-bit WAV.
    public let source: URL
    /// The encoded parts, in order.
    public let parts: [URL]
    /// The whole source, encoded as one file.
    public let whole: URL
    /// Where each part after the first starts, in source frames: 3.71 s and 8.29 s, moved by
    /// two frames so that neither falls on a codec frame (1152 for MP3, 1024 for AAC, 960 and
    /// 120 for Opus at 48 kHz).
    public let boundaries: [Int]

    /// The parts' lengths in frames, as cut from the source.
    public var partFrames: [Int64] {
        let edges = [0] + boundaries + [Self.seconds * codec.rate]
        return (0..<edges.count - 1).map { Int64(edges[$0 + 1] - edges[$0]) }
    }

    /// Makes the source, its parts and the whole file in `folder` (part1.EXT, part2.EXT, ...).
    public init(_ codec: Codec, in folder: URL) throws {
        self.codec = codec
        source = folder.appending(path: "source.wav")
        try Command.run("sox", [
            "-D", "-n", "-r", "\(codec.rate)", "-c", "\(Self.channels)", "-b", "16", source.path,
            "synth", "\(Self.seconds)", "sine", "200-1200", "sine", "900-300",
            "synth", "\(Self.seconds)", "sine", "mix", "1370-610", "sine", "mix", "530-1450", "vol", "0.5",
        ]).requireSuccess()
        boundaries = [codec.rate * 371 / 100 + 2, codec.rate * 829 / 100 - 2]
        let edges = [0] + boundaries + [Self.seconds * codec.rate]
        var parts: [URL] = []
        for index in 0..<edges.count - 1 {
            let wav = folder.appending(path: "part\(index + 1).wav")
            try Command.run("sox", [source.path, wav.path, "trim", "\(edges[index])s", "\(edges[index + 1] - edges[index])s"]).requireSuccess()
            let encoded = folder.appending(path: "part\(index + 1).\(codec.fileExtension)")
            try codec.encode(wav, frames: edges[index + 1] - edges[index], to: encoded)
            try FileManager.default.removeItem(at: wav)
            parts.append(encoded)
        }
        self.parts = parts
        whole = folder.appending(path: "whole.\(codec.fileExtension)")
        try codec.encode(source, frames: Self.seconds * codec.rate, to: whole)
    }
}
