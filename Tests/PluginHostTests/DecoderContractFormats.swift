import Foundation
import TestSupport

/// One file the decoder contract runs a decoder on, with what the codec legitimately does to it.
/// The fixtures are made at test time by the real encoders (Fixtures), from the time-coded signal.
struct ContractFixture: Sendable {
    /// How the decoded length relates to the source.
    enum Length: Sendable {
        /// Exactly the time-coded source's frames: the decoder trims delay and padding.
        case source
        /// ffmpeg's decode of the file minus `frames` leading frames (a stream that carries no
        /// length or priming of its own: ADTS, an MP3 without a LAME tag).
        case ffmpegMinus(Int)
        /// A reference WAV's (a third party's fixture).
        case reference(URL)
        /// Nothing to compare with: only the length reported at open against the frames decoded.
        case selfConsistent
        /// A count the container states (a rounded duration, an estimate), not the source's: each
        /// table entry says where its number comes from.
        case stated(Int)
    }

    /// What the decoded audio is compared with.
    enum Audio: Sendable {
        /// Sample for sample the 16-bit source (lossless), and ffmpeg's decode correlating above
        /// `correlation`.
        case lossless(correlation: Double)
        /// ffmpeg's decode from its frame `skip` on: `sameLength` (else ffmpeg may run longer:
        /// it keeps AAC padding) with at most `maxDifference` apart and correlating above `correlation`.
        case ffmpeg(skip: Int, sameLength: Bool, maxDifference: Double?, correlation: Double)
        /// A reference WAV (third party): equal samples when `lossless`, else correlation above 0.999.
        case reference(URL, lossless: Bool)
        /// ffmpeg's decode from its frame `skip` on, over the frames both have (the container
        /// states a length that is not ffmpeg's decode), at lag 0 and correlating above `correlation`.
        case ffmpegOverlap(skip: Int, correlation: Double)
        /// Nothing to compare with (a third party's file without a reference or an ffmpeg decoder).
        case none
    }

    /// Tags and chapters a tagged copy carries, to come back through the metadata callbacks.
    struct Metadata: Sendable {
        let make: @Sendable () throws -> URL
        let tags: [String: String]
        /// Seconds and titles; the start frames expected are at the decoder's output rate.
        let chapters: [FixtureChapter]
    }

    let name: String
    /// The MIME type of the format: the fixture is run through every decoder whose descriptor
    /// lists it (the table never names a plugin).
    let format: String
    let make: @Sendable () throws -> URL
    /// The source's seconds, rate and channels (the decoder's output format); nil rate when unknown.
    let seconds: Int
    let rate: Int?
    let channels: Int?
    let length: Length
    let audio: Audio
    /// How far a window decoded after a seek may be from the full decode at that offset:
    /// 0 for lossless, 1e-6 for a deterministic lossy decoder (float rounding), 2e-3 for AAC with
    /// PNS: noise-substituted bands come from libfaad's random generator, whose state no seek can
    /// put back where the continuous decode had it (measured up to 1.5e-3, between 10.75 and 11 s
    /// of the 20 s fixture; about -56 dBFS, in bands that are noise anyway). A window landing one
    /// frame off differs by over 5e-3 on these tones, 40 ms off by over 0.03.
    let seekTolerance: Double
    /// The file is the time-coded signal: the second heard says where a seek landed.
    let timeCoded: Bool
    /// Cut in half, it still plays what it has: decoded seconds within `cutSlack` of half
    /// (VBR: half the bytes is not quite half the time). Nil when a cut file may be refused
    /// (an MP4 whose moov follows the audio loses it).
    let cutSlack: Double?
    /// The words of the refusal of a file of random bytes with the format's extension.
    let garbageReason: String?
    let garbageExtension: String
    let metadata: Metadata?
    /// How exactly a seek lands.
    var seeks: SeekPrecision = .exactFrame
}

/// Where a decoder's seek lands on a fixture.
enum SeekPrecision: Sendable {
    /// On the exact frame: the window read after it is the full decode's at that offset.
    case exactFrame
    /// Within the container's timestamps (Matroska's and ASF's milliseconds, a raw stream's
    /// estimated clock): the time code heard is the right one, the frame may be off by `frames`.
    case timestamps(frames: Int)
    /// The codec's output after a seek depends on what its decoder decoded before, on this
    /// signal (the reason): the windows are not compared with the full decode, only the second
    /// heard after a seek to a whole second. Another fixture of the codec checks its seeks.
    case historyDependent(String)
    /// Known not to work yet (the reason): the test records it as a known issue.
    case knownIssue(String)
}

extension ContractFixture {
    static let chapters: [FixtureChapter] = [(0, "Opening"), (4.25, "第二章"), (12.5, "Третья «глава»")]
    static let tags = ["title": "Children of Dune", "artist": "Frank Herbert", "album": "Dune Chronicles"]

    /// The table: a fixture maker for each format an in-tree decoder reads, keyed by MIME type.
    /// Expectations are the ones the per-codec tests asserted (see Tests/TestSupport/README.md
    /// for what each encoder and ffmpeg do with delay and padding).
    static let all: [ContractFixture] = mp3 + [opus, vorbis, flac] + aac + ffmpeg

    static let mp3: [ContractFixture] = [true, false].map { vbr in
        // A LAME tag: delay and padding known, so the exact source length and ffmpeg's decode,
        // which trims the same 1105 frames; both decoders within float rounding.
        ContractFixture(
            name: vbr ? "mp3-vbr" : "mp3-cbr", format: "audio/mpeg", make: { try Fixtures.mp3(seconds: 20, vbr: vbr) },
            seconds: 20, rate: 44100, channels: 2, length: .source,
            audio: .ffmpeg(skip: 0, sameLength: true, maxDifference: 2e-3, correlation: 0.9999),
            seekTolerance: 1e-6, timeCoded: true, cutSlack: 0.1, garbageReason: "no mpeg audio frames", garbageExtension: "mp3",
            metadata: vbr ? Metadata(
                make: {
                    let tagged = try Fixtures.mp3(seconds: 20, vbr: true, id3: ID3Options(title: tags["title"], artist: tags["artist"], album: tags["album"]))
                    return try Fixtures.withChapters(tagged, chapters: chapters, totalSeconds: 20)
                },
                tags: tags, chapters: chapters) : nil)
    } + [
        // No Xing frame: no length and no delay known. The plugin scans for the exact length;
        // ffmpeg and libmpg123 both play the 1105 frames of delay, so the lengths agree.
        ContractFixture(
            name: "mp3-vbr-noxing", format: "audio/mpeg", make: { try Fixtures.mp3(seconds: 20, vbr: true, xingHeader: false) },
            seconds: 20, rate: 44100, channels: 2, length: .ffmpegMinus(0),
            audio: .ffmpeg(skip: 0, sameLength: true, maxDifference: 2e-3, correlation: 0.9999),
            seekTolerance: 1e-6, timeCoded: true, cutSlack: 0.1, garbageReason: "no mpeg audio frames", garbageExtension: "mp3", metadata: nil),
    ]

    /// Opus decodes at 48 kHz; the pre-skip is trimmed. ffmpeg has its own Opus decoder, so the
    /// two are alike but not bit-exact.
    static let opus = ContractFixture(
        name: "opus", format: "audio/opus", make: { try Fixtures.opus(seconds: 20) },
        seconds: 20, rate: 48000, channels: 2, length: .source,
        audio: .ffmpeg(skip: 0, sameLength: true, maxDifference: nil, correlation: 0.999),
        seekTolerance: 1e-6, timeCoded: true, cutSlack: 0.1, garbageReason: "not an ogg file", garbageExtension: "opus",
        metadata: Metadata(
            make: { try Fixtures.opus(seconds: 20, tags: tags.reduce(into: [:]) { $0[$1.key.uppercased()] = $1.value }, chapters: chapters) },
            tags: tags, chapters: chapters))

    static let vorbis = ContractFixture(
        name: "vorbis", format: "audio/vorbis", make: { try Fixtures.vorbis(seconds: 20) },
        seconds: 20, rate: 44100, channels: 2, length: .source,
        audio: .ffmpeg(skip: 0, sameLength: true, maxDifference: nil, correlation: 0.999),
        seekTolerance: 1e-6, timeCoded: true, cutSlack: 0.2, garbageReason: "not an ogg file", garbageExtension: "ogg",
        metadata: Metadata(
            make: { try Fixtures.vorbis(seconds: 20, comments: tags.sorted { $0.key < $1.key }.map { ($0.key.uppercased(), $0.value) }, chapters: chapters) },
            tags: tags, chapters: chapters))

    static let flac = ContractFixture(
        name: "flac", format: "audio/flac", make: { try Fixtures.flac(seconds: 20) },
        seconds: 20, rate: 44100, channels: 2, length: .source, audio: .lossless(correlation: 0.99999),
        seekTolerance: 0, timeCoded: true, cutSlack: 0.1, garbageReason: "not a flac stream", garbageExtension: "flac",
        metadata: Metadata(
            make: { try Fixtures.flac(seconds: 20, comments: tags.sorted { $0.key < $1.key }.map { ($0.key.uppercased(), $0.value) }, chapters: chapters) },
            tags: tags, chapters: chapters))

    /// ffmpeg's AAC encoder: an elst trims 1024 frames of priming and the padding; ffmpeg 5.1's
    /// own decode trims the priming but keeps the padding, so only a prefix compares. Raw ADTS
    /// says nothing of priming, so every frame is on the timeline, as ffmpeg plays it: the same
    /// length, the first frame silence (libfaad only primes its overlap with it) where ffmpeg's
    /// is the encoder's near-silent priming: up to 4.2e-3 there (5e-3 allowed), 4e-7 after it.
    static let aac: [ContractFixture] = [
        ContractFixture(
            name: "m4b-pns", format: "audio/mp4", make: { try Fixtures.aac(seconds: 20, pns: true) },
            seconds: 20, rate: 44100, channels: 2, length: .source,
            audio: .ffmpeg(skip: 0, sameLength: false, maxDifference: 2e-3, correlation: 0.9999),
            seekTolerance: 2e-3, timeCoded: true, cutSlack: nil, garbageReason: "not an mp4 file", garbageExtension: "m4b",
            metadata: Metadata(make: { try Fixtures.aac(seconds: 20, tags: tags, chapters: chapters) }, tags: tags, chapters: chapters)),
        // moov first: cut in half, the sample tables are whole and the audio plays to the cut.
        ContractFixture(
            name: "m4b-faststart-nopns", format: "audio/mp4", make: { try Fixtures.aac(seconds: 20, faststart: true, pns: false) },
            seconds: 20, rate: 44100, channels: 2, length: .source,
            audio: .ffmpeg(skip: 0, sameLength: false, maxDifference: 2e-3, correlation: 0.9999),
            seekTolerance: 1e-6, timeCoded: true, cutSlack: 0.1, garbageReason: "not an mp4 file", garbageExtension: "m4b", metadata: nil),
        ContractFixture(
            name: "adts-nopns", format: "audio/aac", make: { try Fixtures.aac(seconds: 10, container: .adts, pns: false) },
            seconds: 10, rate: 44100, channels: 2, length: .ffmpegMinus(0),
            audio: .ffmpeg(skip: 0, sameLength: true, maxDifference: 5e-3, correlation: 0.9999),
            seekTolerance: 1e-6, timeCoded: true, cutSlack: 0.1, garbageReason: "no adts frames found", garbageExtension: "aac", metadata: nil),
    ]
}
