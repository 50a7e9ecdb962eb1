import ABPluginABI
import Foundation
import PluginHost
import TestSupport
import Testing

/// Deliberately bad plugins, compiled with `cc` from one C template, each refused with a reason
/// that names the file and the problem, while the good plugins beside them still load.
@Suite struct ABIRejectionTests {
    static let template = #"""
    #include <stddef.h>
    #include "abplayer/plugin.h"
    #ifndef ID
    #define ID "good"
    #endif
    #ifndef MAJOR
    #define MAJOR ABP_ABI_MAJOR
    #endif
    #ifndef MINOR
    #define MINOR ABP_ABI_MINOR
    #endif
    #ifndef SIZE
    #define SIZE sizeof(abp_plugin)
    #endif
    #ifdef UNRESOLVED
    extern void abplayer_test_function_that_does_not_exist(void);
    void use_it(void) { abplayer_test_function_that_does_not_exist(); }
    #endif
    static int32_t probe(const char *p, const uint8_t *h, size_t n) { (void)p; (void)h; (void)n; return 0; }
    static abp_status open_(const abp_host_api *host, const char *path, const abp_option *o, size_t n,
        const abp_metadata_callbacks *m, abp_decoder **out, abp_stream_info *info, char *e, size_t es) {
        (void)host; (void)path; (void)o; (void)n; (void)m; (void)out; (void)info; (void)e; (void)es;
        return ABP_ERR_UNSUPPORTED;
    }
    static int64_t read_(abp_decoder *d, float *b, int64_t n) { (void)d; (void)b; (void)n; return 0; }
    static const char *last_error(abp_decoder *d) { (void)d; return ""; }
    static void close_(abp_decoder *d) { (void)d; }
    #ifndef READ
    #define READ read_
    #endif
    #ifndef LAST_ERROR
    #define LAST_ERROR last_error
    #endif
    /* seek is NULL in every variant: a decoder that never seeks may leave it so. */
    static const abp_decoder_ops ops = { sizeof(abp_decoder_ops), probe, open_, READ, NULL, LAST_ERROR, close_, {0} };
    static const char *const exts[] = { "test", NULL };
    static const abp_plugin plugin = {
        SIZE, MAJOR, MINOR, ABP_KIND_DECODER, ID, "Test", "0.1", "a test plugin", 0, 0,
        exts, NULL, NULL, 0, &ops, NULL, {0} };
    #ifndef NO_ENTRY
    __attribute__((visibility("default")))
    const abp_plugin *abplayer_plugin_entry(const abp_host_api *host) {
        (void)host;
    #ifdef REFUSE
        return NULL;
    #else
        return &plugin;
    #endif
    }
    #endif
    """#

    /// Compiles the template with `defines` into `directory/name`.
    static func build(_ name: String, _ defines: [String], in directory: URL) throws -> URL {
        let source = directory.appendingPathComponent("template.c")
        if !FileManager.default.fileExists(atPath: source.path) {
            try template.write(to: source, atomically: true, encoding: .utf8)
        }
        let output = directory.appendingPathComponent(name)
        let result = try Command.run("cc", ["-shared", "-fPIC", "-fvisibility=hidden", "-I", BuildProducts.sdkInclude.path]
            + defines.map { "-D" + $0 } + ["-o", output.path, source.path])
        #expect(result.status == 0, "cc failed: \(result.stderr)")
        return output
    }

    @Test func eachBadPluginIsRefusedWithItsReasonAndGoodOnesLoad() throws {
        // Given a directory of plugins, most of them broken in one way each
        let directory = try BuildProducts.temporaryDirectory("abi")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.build("a-good.so", [], in: directory)
        _ = try Self.build("b-duplicate.so", [], in: directory)
        _ = try Self.build("c-other-major.so", ["ID=\"major\"", "MAJOR=2", "MINOR=0"], in: directory)
        _ = try Self.build("d-newer-minor.so", ["ID=\"minor\"", "MINOR=7"], in: directory)
        _ = try Self.build("e-short.so", ["ID=\"short\"", "SIZE=16"], in: directory)
        _ = try Self.build("f-no-entry.so", ["NO_ENTRY"], in: directory)
        _ = try Self.build("g-unresolved.so", ["ID=\"unresolved\"", "UNRESOLVED"], in: directory)
        _ = try Self.build("h-refuses.so", ["ID=\"refuses\"", "REFUSE"], in: directory)
        let writable = try Self.build("i-writable.so", ["ID=\"writable\""], in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: writable.path)
        try "not a shared object".write(to: directory.appendingPathComponent("j-text.so"), atomically: true, encoding: .utf8)
        _ = try Self.build("k-no-read.so", ["ID=\"noread\"", "READ=NULL"], in: directory)
        _ = try Self.build("l-bare.so", ["ID=\"bare\"", "LAST_ERROR=NULL"], in: directory)

        // When the host loads that directory
        let registry = PluginRegistry(
            searchPath: PluginSearchPath(directories: [.init(path: directory.path, isExplicit: true, filePrefix: "")]),
            cacheDirectory: nil, log: { _, _, _ in })

        // Then only the good ones load (seek and last_error may be NULL), and every other file is
        // refused for its own reason
        #expect(registry.plugins.map(\.id) == ["good", "bare"])
        func reason(_ file: String) -> String {
            registry.rejected.first { $0.path == directory.appendingPathComponent(file).path }?.reason ?? "(not rejected)"
        }
        #expect(reason("b-duplicate.so").contains("duplicate plugin id 'good': already loaded from \(directory.path)/a-good.so"))
        #expect(reason("c-other-major.so").contains("built for plugin ABI 2.0; this abplayer speaks 1.x"))
        #expect(reason("d-newer-minor.so").contains("built for plugin ABI 1.7, newer than this abplayer's \(ABP_ABI_MAJOR).\(ABP_ABI_MINOR)"))
        #expect(reason("e-short.so").contains("descriptor is 16 bytes"))
        #expect(reason("f-no-entry.so").contains("no 'abplayer_plugin_entry' symbol"))
        #expect(reason("g-unresolved.so").contains("undefined symbol: abplayer_test_function_that_does_not_exist"))
        #expect(reason("h-refuses.so").contains("refused this host"))
        #expect(reason("i-writable.so").contains("writable by other users"))
        #expect(reason("j-text.so").contains("cannot load"))
        #expect(reason("k-no-read.so") == "decoder 'noread' leaves read NULL (only seek and last_error may be NULL)")
        #expect(registry.rejected.count == 10)
    }

    @Test func aWorldWritableDirectoryIsRefusedWhole() throws {
        let directory = try BuildProducts.temporaryDirectory("abi-dir")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.build("good.so", [], in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory.path)
        let registry = PluginRegistry(
            searchPath: PluginSearchPath(directories: [.init(path: directory.path, isExplicit: true, filePrefix: "")]),
            cacheDirectory: nil, log: { _, _, _ in })
        #expect(registry.plugins.isEmpty)
        #expect(registry.rejected.map(\.reason) == [
            "its directory is writable by other users (mode 777); loading it would run their code: chmod o-w",
        ])
    }

    @Test func aGroupWritableDirectoryOrFileIsRefused() throws {
        // A directory its group can write: refused whole
        let directory = try BuildProducts.temporaryDirectory("abi-group-dir")
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try Self.build("good.so", [], in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: directory.path)
        func load(_ path: URL) -> PluginRegistry {
            PluginRegistry(
                searchPath: PluginSearchPath(directories: [.init(path: path.path, isExplicit: true, filePrefix: "")]),
                cacheDirectory: nil, log: { _, _, _ in })
        }
        let refusedWhole = load(directory)
        #expect(refusedWhole.plugins.isEmpty)
        #expect(refusedWhole.rejected.map(\.reason) == [
            "its directory is writable by its group (mode 775); loading it would run the group's code: chmod g-w",
        ])
        // A file its group can write, in a safe directory: that file refused, the rest loaded
        let safe = try BuildProducts.temporaryDirectory("abi-group-file")
        defer { try? FileManager.default.removeItem(at: safe) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: safe.path)
        _ = try Self.build("good.so", [], in: safe)
        let shared = try Self.build("shared.so", ["ID=\"shared\""], in: safe)
        try FileManager.default.setAttributes([.posixPermissions: 0o664], ofItemAtPath: shared.path)
        let registry = load(safe)
        #expect(registry.plugins.map(\.id) == ["good"])
        #expect(registry.rejected.map(\.reason) == [
            "the file is writable by its group (mode 664); loading it would run the group's code: chmod g-w",
        ])
    }
}
