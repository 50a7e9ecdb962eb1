import ABPluginABI
import Foundation
import PlayerCore
@testable import PluginHost
import Synchronization
import TestSupport
import Testing

/// What plugin.h promises about choosing a decoder and about a plugin's log lines, checked with
/// small decoders compiled with `cc` from one C template: each claims every `.tone` file with
/// the score it was built with, and opens it (one second of silence) or fails with the status
/// it was built with, logging one line from `open`.
@Suite struct DecoderContractChoiceTests {
    static let template = #"""
    #define ABP_API_LEVEL 0
    #include <string.h>
    #include <abplayer/plugin.h>
    struct abp_decoder { int64_t left; };
    static struct abp_decoder instance;
    static int32_t probe(const char *p, const uint8_t *h, size_t n) { (void)p; (void)h; (void)n; return SCORE; }
    static abp_status open_(const abp_host_api *host, const char *path, const abp_option *o, size_t n,
        const abp_metadata_callbacks *m, abp_decoder **out, abp_stream_info *info, char *e, size_t es) {
        (void)path; (void)o; (void)n; (void)m;
        host->log(host->host_ctx, ABP_LOG_INFO, ID, LOG_LINE);
        if (OPEN_STATUS != ABP_OK) {
            strncpy(e, ID " cannot open it", es - 1);
            return OPEN_STATUS;
        }
        instance.left = 8000;
        info->format.rate = 8000;
        info->format.channels = 1;
        info->total_frames = 8000;
        *out = &instance;
        return ABP_OK;
    }
    static int64_t read_(abp_decoder *d, float *b, int64_t n) {
        int64_t count = n < d->left ? n : d->left;
        memset(b, 0, (size_t)count * sizeof(float));
        d->left -= count;
        return count;
    }
    static void close_(abp_decoder *d) { (void)d; }
    static const abp_decoder_ops ops = { .struct_size = sizeof(abp_decoder_ops), .probe = probe,
        .open = open_, .read = read_, .close = close_ };
    static const abp_plugin plugin = { .struct_size = sizeof(abp_plugin), .abi_major = ABP_ABI_MAJOR,
        .abi_minor = ABP_API_LEVEL, .kind = ABP_KIND_DECODER, .id = ID, .name = ID, .version = "0.1",
        .description = "a test decoder", .decoder = &ops };
    ABP_EXPORT const abp_plugin *abplayer_plugin_entry(const abp_host_api *host) { (void)host; return &plugin; }
    """#

    struct Built {
        let id: String
        let score: Int
        let openStatus: String
        var logLine: String? = nil
    }

    /// Lines the host's log handler received, as `id: message`.
    final class Said: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    /// The decoders compiled into a directory of their own, loaded by a registry that logs to `said`.
    static func registry(_ decoders: [Built], said: Said) throws -> PluginRegistry {
        let directory = try BuildProducts.temporaryDirectory("decoder-choice")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let source = directory.appendingPathComponent("decoder.c")
        try template.write(to: source, atomically: true, encoding: .utf8)
        for decoder in decoders {
            let line = decoder.logLine ?? "opening"
            let result = try Command.run("cc", ["-shared", "-fPIC", "-fvisibility=hidden", "-Wall", "-Werror",
                                                "-I", BuildProducts.sdkInclude.path,
                                                "-DID=\"\(decoder.id)\"", "-DSCORE=\(decoder.score)",
                                                "-DOPEN_STATUS=\(decoder.openStatus)", "-DLOG_LINE=\"\(line)\"",
                                                "-o", directory.appendingPathComponent("\(decoder.id).so").path, source.path])
            try #require(result.status == 0, "cc failed: \(result.stderr)")
        }
        return PluginRegistry(
            searchPath: PluginSearchPath(directories: [.init(path: directory.path, isExplicit: true, filePrefix: "")]),
            cacheDirectory: nil, log: { _, id, message in said.lines.withLock { $0.append("\(id): \(message)") } })
    }

    static func toneFile() throws -> URL {
        let file = try BuildProducts.temporaryDirectory("decoder-choice-file").appendingPathComponent("a.tone")
        try "abplayer-tone 440 1\n".write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func whenTheBestClaimantCannotOpenAFileTheNextOneIsTried() throws {
        // Given a decoder sure of the file (100) that finds it damaged, and one that knows it only
        // by name (10) and plays it
        let said = Said()
        let registry = try Self.registry([Built(id: "sure", score: 100, openStatus: "ABP_ERR_FORMAT"),
                                          Built(id: "byname", score: 10, openStatus: "ABP_OK")], said: said)
        #expect(registry.decoders.count == 2, "\(registry.rejected)")
        // When the host opens it
        let decoder = try registry.openDecoder(path: try Self.toneFile().path)
        // Then the second plays it, and the user is told the first refused a file it claimed
        #expect((decoder as? PluginDecoder)?.pluginID == "byname")
        #expect(decoder.info.totalFrames == 8000)
        #expect(said.all.contains { $0.hasPrefix("byname: ") && $0.contains("sure refused it (sure cannot open it); byname plays it") },
                "\(said.all)")
    }

    @Test func aCodecTheClaimantDoesNotDecodeGoesToTheNextQuietly() throws {
        // Given a decoder that claims the file but does not decode its codec (ABP_ERR_UNSUPPORTED)
        let said = Said()
        let registry = try Self.registry([Built(id: "container", score: 60, openStatus: "ABP_ERR_UNSUPPORTED"),
                                          Built(id: "catchall", score: 5, openStatus: "ABP_OK")], said: said)
        // When the host opens it
        let decoder = try registry.openDecoder(path: try Self.toneFile().path)
        // Then the next one plays it, and nobody is told of the first one's refusal: it is no news
        #expect((decoder as? PluginDecoder)?.pluginID == "catchall")
        #expect(!said.all.contains { $0.contains("refused") }, "\(said.all)")
    }

    @Test func whenNoneOpensTheFirstFailureIsTheOneReported() throws {
        // Given two claimants that both fail
        let registry = try Self.registry([Built(id: "first", score: 90, openStatus: "ABP_ERR_FORMAT"),
                                          Built(id: "second", score: 20, openStatus: "ABP_ERR_IO")], said: Said())
        // When the host opens the file, then the best claimant's reason is the one given
        let error = #expect(throws: AudioError.self) { try registry.openDecoder(path: try Self.toneFile().path) }
        #expect(error?.reason == "first cannot open it", "\(String(describing: error))")
        #expect(error?.kind == .format)
    }

    @Test func theHostWritesThePluginsIDOnceBeforeItsLines() throws {
        // Given a plugin that writes its own id in front of its line, and one that does not
        let said = Said()
        let registry = try Self.registry([Built(id: "tape", score: 50, openStatus: "ABP_OK", logLine: "tape: rewinding"),
                                          Built(id: "reel", score: 40, openStatus: "ABP_OK", logLine: "tape: is not my id")],
                                         said: said)
        // When each logs from open
        let file = try Self.toneFile()
        _ = try registry.openDecoder(path: file.path)
        let reel = try #require(registry.decoders.first { $0.id == "reel" }?.decoderOps)
        var info = abp_stream_info()
        info.struct_size = UInt32(MemoryLayout<abp_stream_info>.size)
        var instance: OpaquePointer?
        var error = [CChar](repeating: 0, count: 64)
        #expect(reel.open(registry.hostAPI.table, file.path, nil, 0, nil, &instance, &info, &error, error.count) == ABP_OK)
        // Then the id reaches the handler once, never "tape: tape:", and another plugin's words stay
        #expect(said.all.contains("tape: rewinding"), "\(said.all)")
        #expect(!said.all.contains { $0.contains("tape: tape:") }, "\(said.all)")
        #expect(said.all.contains("reel: tape: is not my id"), "\(said.all)")
    }
}

/// plugin.h's probe scale, as the built-in decoders answer it: 100 for a file whose content is
/// certainly theirs, 10 for one that only has their extension, and a catch-all below 10.
@Suite struct DecoderContractProbeScaleTests {
    static func score(_ pluginID: String, _ file: URL) throws -> Int32 {
        let plugin = try #require(DecoderContract.buildRegistry.decoders.first { $0.id == pluginID }, "\(pluginID) not built")
        let head = [UInt8](try Data(contentsOf: file).prefix(4096))
        return head.withUnsafeBufferPointer { plugin.decoderOps!.probe(file.path, $0.baseAddress, $0.count) }
    }

    @Test func theBuiltInDecodersScoreContentAndNamesOnTheHeadersScale() throws {
        let files: [(URL, String, String)] = [
            (try Fixtures.mp3(seconds: 2, vbr: false), "mpg123", "mp3"),
            (try Fixtures.aac(seconds: 2), "faad", "m4a"),
            (try Fixtures.opus(seconds: 2), "opusfile", "opus"),
            (try Fixtures.vorbis(seconds: 2), "vorbisfile", "ogg"),
            (try Fixtures.flac(seconds: 2), "flac", "flac"),
        ]
        let directory = try BuildProducts.temporaryDirectory("probe-scale")
        for (file, plugin, fileExtension) in files {
            // Given its own file, and text named like one
            let impostor = directory.appendingPathComponent("not-audio.\(fileExtension)")
            try String(repeating: "not audio at all\n", count: 64).write(to: impostor, atomically: true, encoding: .utf8)
            // Then the content is certain, and the name alone is 10
            #expect(try Self.score(plugin, file) == 100, "\(plugin) on \(file.lastPathComponent)")
            #expect(try Self.score(plugin, impostor) == 10, "\(plugin) on \(impostor.lastPathComponent)")
            // and the catch-all, when built, stays below every dedicated claim
            if DecoderContract.buildRegistry.decoders.contains(where: { $0.id == "ffmpeg" }) {
                let catchAll = try Self.score("ffmpeg", file)
                #expect(catchAll < 10, "ffmpeg on \(file.lastPathComponent): \(catchAll)")
            }
        }
    }
}

/// plugin.h's ABP_API_LEVEL: a plugin gets what its level offers and is told at compile time when
/// it asks for more than the header has.
@Suite struct APILevelTests {
    static func compile(level: String) throws -> CommandResult {
        let directory = try BuildProducts.temporaryDirectory("api-level")
        let source = directory.appendingPathComponent("level.c")
        try """
        #define ABP_API_LEVEL \(level)
        #include <abplayer/plugin.h>
        const abp_plugin plugin = { .struct_size = sizeof(abp_plugin), .abi_major = ABP_ABI_MAJOR,
                                    .abi_minor = ABP_API_LEVEL, .kind = ABP_KIND_DECODER };
        _Static_assert(ABP_SINCE(0), "every level has 1.0");
        """.write(to: source, atomically: true, encoding: .utf8)
        return try Command.run("cc", ["-c", "-Wall", "-Werror", "-I", BuildProducts.sdkInclude.path, "-o",
                                      directory.appendingPathComponent("level.o").path, source.path])
    }

    @Test func aLevelTheHeaderHasCompilesAndOneItLacksStopsTheBuildSayingWhy() throws {
        // Given the header's own minor as the level, then one past it
        let own = try Self.compile(level: "\(ABP_ABI_MINOR)")
        let newer = try Self.compile(level: "\(ABP_ABI_MINOR + 1)")
        // Then the first compiles, and the second fails with the header's reason
        #expect(own.status == 0, "\(own.stderr)")
        #expect(newer.status != 0)
        #expect(newer.stderr.contains("ABP_API_LEVEL asks for a newer plugin ABI than this <abplayer/plugin.h> has"), "\(newer.stderr)")
    }
}
