import Foundation
import TestSupport

/// The formats only the catch-all decoder reads, as ffmpeg 5.1's encoders write them
/// (Fixtures.ffmpeg). Lossless ones decode to the 16-bit source sample for sample. For the lossy
/// ones each length is what the container states, measured with ffprobe and the decode:
///
/// - WMA (wmav2 in ASF): the first frame is stamped 92 ms and the file's duration is 20.015 s; the
///   samples run from 0 (the stamps are late by what the decoder gives after the last one), so
///   the length is 20.015 s, 882662 frames: ffmpeg decodes 880640, the last 2022 are silence
///   (counted from the first stamp, 878605, the last 46 ms of audio were cut). The decode starts
///   2048 frames into the source (the codec's delay; ASF does not say it), as ffmpeg's does.
/// - AC-3 (raw): no length in the stream; FFmpeg estimates 20.027167 s from the bit rate, 883198
///   frames (ffmpeg decodes 883200: 1200 frames of the encoder's padding, 256 of delay, both
///   undeclared).
/// - Opus in WebM: Matroska's CodecDelay (312 frames) is trimmed by libavcodec; the stated end is
///   start -0.007 s + duration 20.008 s = 20.001 s, 960048 frames (ffmpeg decodes 960000, the
///   DiscardPadding of the last block applied): the last 48 frames are silence.
/// - Vorbis in Matroska: blocks are stamped from 3 ms (the first block's audio is the source's
///   first), Duration 20.003 s: 20.000 s from the first sample, the source's 882000 (ffmpeg
///   decodes 882240, the encoder's last block whole).
/// - Speex in Ogg: the granules put the first 143 frames before 0 (the encoder's lookahead as the
///   muxer declared it; they are dropped) and the end at 320000 - 143 = 319857.
extension ContractFixture {
    static let ffmpegTags = ["title": "Children of Dune", "artist": "Frank Herbert", "album": "Dune Chronicles"]

    private static func fixture(
        _ name: String, mime: String, _ format: FFmpegFormat, length: Length, audio: Audio, seekTolerance: Double,
        cutSlack: Double?, tags: Bool = false, chapters: Bool = false, seeks: SeekPrecision = .exactFrame
    ) -> ContractFixture {
        ContractFixture(
            name: name, format: mime, make: { try Fixtures.ffmpeg(format) },
            seconds: 20, rate: format.rate, channels: format.channels, length: length, audio: audio,
            seekTolerance: seekTolerance, timeCoded: true, cutSlack: cutSlack, garbageReason: nil,
            garbageExtension: format.fileExtension,
            metadata: tags ? Metadata(
                make: { try Fixtures.ffmpeg(format, tags: ffmpegTags, chapters: chapters ? Self.chapters : []) },
                tags: ffmpegTags, chapters: chapters ? Self.chapters : []) : nil,
            seeks: seeks)
    }

    /// Matroska and ASF stamp packets in milliseconds: a seek lands within one (48 frames at 48 kHz).
    private static let milliseconds = SeekPrecision.timestamps(frames: 48)

    static let ffmpeg: [ContractFixture] = [
        fixture("wav-s16", mime: "audio/x-wav", .wav16, length: .source, audio: .lossless(correlation: 0.99999),
                seekTolerance: 0, cutSlack: 0.1, tags: true),
        fixture("wav-float", mime: "audio/wav", .wavFloat, length: .source, audio: .lossless(correlation: 0.99999),
                seekTolerance: 0, cutSlack: 0.1),
        fixture("aiff", mime: "audio/x-aiff", .aiff, length: .source, audio: .lossless(correlation: 0.99999),
                seekTolerance: 0, cutSlack: 0.1),
        // moov after mdat: a cut file has no sample tables, and is refused.
        fixture("alac-m4a", mime: "audio/x-alac", .alac, length: .source, audio: .lossless(correlation: 0.99999),
                seekTolerance: 0, cutSlack: nil, tags: true, chapters: true),
        fixture("flac-ogg", mime: "audio/x-flac+ogg", .flacOgg, length: .source, audio: .lossless(correlation: 0.99999),
                seekTolerance: 0, cutSlack: 0.1, tags: true),
        fixture("wavpack", mime: "audio/x-wavpack", .wavpack, length: .source, audio: .lossless(correlation: 0.99999),
                seekTolerance: 0, cutSlack: 0.1, tags: true),
        fixture("wma", mime: "audio/x-ms-wma", .wma, length: .stated(882_662), audio: .ffmpegOverlap(skip: 0, correlation: 0.999),
                seekTolerance: 1e-6, cutSlack: 0.1, tags: true, seeks: milliseconds),
        fixture("ac3", mime: "audio/ac3", .ac3, length: .stated(883_198), audio: .ffmpegOverlap(skip: 0, correlation: 0.999),
                seekTolerance: 1e-6, cutSlack: 0.1, seeks: .timestamps(frames: 64)),
        fixture("opus-webm", mime: "audio/webm", .opusWebM, length: .stated(960_048), audio: .ffmpegOverlap(skip: 0, correlation: 0.999),
                seekTolerance: 1e-6, cutSlack: 0.1, tags: true, chapters: true, seeks: milliseconds),
        fixture("vorbis-mka", mime: "audio/x-matroska", .vorbisMKA, length: .source, audio: .ffmpegOverlap(skip: 0, correlation: 0.999),
                seekTolerance: 1e-6, cutSlack: 0.1, tags: true, chapters: true, seeks: milliseconds),
        fixture("speex", mime: "audio/x-speex", .speex, length: .stated(319_857),
                audio: .ffmpeg(skip: 143, sameLength: true, maxDifference: 1e-6, correlation: 0.999),
                seekTolerance: 1e-6, cutSlack: 0.1, tags: true,
                seeks: .historyDependent("Speex's pitch predictor carries a held tone's past: after a seek it never "
                                         + "settles to the continuous decode (libspeex's decoder neither); see speex-speech")),
        // Speech, what Speex is for: a fresh decoder a second before the target settles to the
        // continuous decode (measured under 1e-10 at 129 places; half a second left up to 7e-4).
        // The granules put the encoder's 143 frames of lookahead before 0, as in the tone fixture.
        ContractFixture(
            name: "speex-speech", format: "audio/x-speex", make: { try Fixtures.ffmpegSpeech(.speex) },
            seconds: 20, rate: 16000, channels: 1, length: .ffmpegMinus(143),
            audio: .ffmpeg(skip: 143, sameLength: true, maxDifference: 1e-6, correlation: 0.999),
            seekTolerance: 1e-6, timeCoded: false, cutSlack: nil, garbageReason: nil, garbageExtension: "spx", metadata: nil),
    ]
}
