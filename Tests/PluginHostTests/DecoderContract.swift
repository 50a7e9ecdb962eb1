import Foundation
import PlayerCore
@testable import PluginHost
import Synchronization
import TestSupport
import Testing

/// One decoder plugin on one fixture: an argument of every decoder contract test.
struct DecoderContractCase: Sendable, CustomTestStringConvertible {
    let pluginPath: String
    let pluginID: String
    let fixture: ContractFixture

    var testDescription: String { "\(pluginID) on \(fixture.name)" }
}

/// The decoder contract (MPD's test/run_decoder, as a suite): what every decoder plugin must do,
/// run on every decoder the build's descriptors declare, or on a third party's.
///
/// The cases come from the descriptors: each decoder in the build directory meets every fixture
/// of the table (ContractFixture.all) whose MIME type it lists. With ABPLAYER_CONTRACT_DECODER
/// (a .so) and ABPLAYER_CONTRACT_FIXTURE (a file it reads) set, the one case is that plugin on
/// that file, compared with ABPLAYER_CONTRACT_REFERENCE (a WAV of the expected decode) when given;
/// see plugin-sdk/README.md.
enum DecoderContract {
    static let environment = ProcessInfo.processInfo.environment

    /// The decoders built with this tree, as the host finds them.
    static let buildRegistry = PluginRegistry(
        searchPath: PluginSearchPath(directories: [
            .init(path: BuildProducts.binDirectory.path, isExplicit: true, filePrefix: "libabplayer-"),
        ]),
        cacheDirectory: nil, log: { _, _, _ in })

    static let cases: [DecoderContractCase] = {
        if let external = externalCase { return [external] }
        return buildRegistry.decoders.flatMap { plugin in
            ContractFixture.all.filter { plugin.mimeTypes.contains($0.format) }
                .map { DecoderContractCase(pluginPath: plugin.path, pluginID: plugin.id, fixture: $0) }
        }
    }()

    /// A third party's decoder and fixture from the environment, or nil.
    static var externalCase: DecoderContractCase? {
        guard let library = environment["ABPLAYER_CONTRACT_DECODER"], !library.isEmpty else { return nil }
        let file = URL(fileURLWithPath: environment["ABPLAYER_CONTRACT_FIXTURE"] ?? "")
        let reference = environment["ABPLAYER_CONTRACT_REFERENCE"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        let lossless = environment["ABPLAYER_CONTRACT_LOSSLESS"] == "1"
        let tolerance = environment["ABPLAYER_CONTRACT_SEEK_TOLERANCE"].flatMap(Double.init) ?? (lossless ? 0 : 1e-6)
        let fixture = ContractFixture(
            name: file.lastPathComponent, format: "", make: { file }, seconds: 0, rate: nil, channels: nil,
            length: reference.map { .reference($0) } ?? .selfConsistent,
            audio: reference.map { .reference($0, lossless: lossless) } ?? .none,
            seekTolerance: tolerance, timeCoded: false, cutSlack: nil, garbageReason: nil,
            garbageExtension: file.pathExtension, metadata: nil)
        // The id is the descriptor's; a plugin that does not load keeps its file name, and fails
        // every test with the loader's reason.
        let id = (try? ContractHarness(pluginPath: library).plugin.id) ?? URL(fileURLWithPath: library).lastPathComponent
        return DecoderContractCase(pluginPath: library, pluginID: id, fixture: fixture)
    }

    /// What the decoder under test made of the whole file, decoded once per case and shared by
    /// the tests that compare with it.
    struct FullDecode: Sendable {
        let file: URL
        let info: StreamInfo
        let samples: [Float]
        let error: String?

        var channels: Int { info.format.channels }
        var rate: Int { info.format.rate }
        var frames: Int { samples.count / channels }

        func window(from frame: Int, count: Int) -> [Float] {
            Array(samples[(frame * channels)..<(min(frame + count, frames) * channels)])
        }
    }

    private static let fullDecodes = Mutex<[String: Slot]>([:])
    private final class Slot: Sendable { let value = Mutex<FullDecode?>(nil) }

    static func fullDecode(_ contractCase: DecoderContractCase) throws -> FullDecode {
        let slot = fullDecodes.withLock { slots in
            if let slot = slots[contractCase.testDescription] { return slot }
            let slot = Slot()
            slots[contractCase.testDescription] = slot
            return slot
        }
        return try slot.value.withLock { made in
            if let made { return made }
            let file = try contractCase.fixture.make()
            let harness = try ContractHarness(pluginPath: contractCase.pluginPath)
            let decoder = try harness.open(file)
            let (samples, error) = ContractHarness.readToEnd(decoder, limit: 48000 * 3600)
            let full = FullDecode(file: file, info: decoder.info, samples: samples, error: error.map(String.init(describing:)))
            made = full
            return full
        }
    }
}

/// The plugin under test, loaded alone by the real loader from its file (as a user's
/// --plugin-dir would), opened and probed through the host's own adapter.
final class ContractHarness: @unchecked Sendable {
    let registry: PluginRegistry
    let plugin: LoadedPlugin
    /// Warnings and errors the plugin logged, in order.
    let logged: LoggedLines

    final class LoggedLines: Sendable {
        let lines = Mutex<[String]>([])
        func take() -> [String] { lines.withLock { lines in defer { lines = [] }; return lines } }
    }

    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    init(pluginPath: String) throws {
        let file = URL(fileURLWithPath: pluginPath)
        let logged = LoggedLines()
        registry = PluginRegistry(
            searchPath: PluginSearchPath(directories: [
                .init(path: file.deletingLastPathComponent().path, isExplicit: true, filePrefix: file.lastPathComponent),
            ]),
            cacheDirectory: nil,
            log: { level, _, message in if level <= .warning { logged.lines.withLock { $0.append(message) } } })
        guard let plugin = registry.decoders.first(where: { $0.path.hasSuffix("/" + file.lastPathComponent) }) else {
            throw LoadError(description: "\(pluginPath): no decoder loaded: \(registry.rejected.map(\.description))")
        }
        self.plugin = plugin
        self.logged = logged
    }

    /// Opens `file` with this plugin, whatever its probe says (a hostile file need not probe well
    /// to reach open: another plugin's extension, a tie).
    func open(_ file: URL) throws -> any PlayerCore.Decoder {
        try PluginDecoder(plugin: plugin, ops: plugin.decoderOps!, path: file.path, options: [:], hostAPI: registry.hostAPI)
    }

    /// The plugin's probe score for `file`, given its first 4096 bytes as the host gives them.
    func probe(_ file: URL) throws -> Int32 {
        try Self.probe(plugin, file)
    }

    static func probe(_ plugin: LoadedPlugin, _ file: URL) throws -> Int32 {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let head = [UInt8](try handle.read(upToCount: 4096) ?? Data())
        return head.withUnsafeBufferPointer { plugin.decoderOps!.probe(file.path, $0.baseAddress, $0.count) }
    }

    /// Every frame `decoder` gives until its end, its first error, or `limit` frames (a decoder
    /// that never ends); the error, if there was one.
    static func readToEnd(_ decoder: any PlayerCore.Decoder, limit: Int) -> (samples: [Float], error: (any Error)?) {
        let channels = decoder.info.format.channels
        let chunk = 4096
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: chunk * channels)
        while samples.count / channels <= limit {
            do {
                let got = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: chunk) }
                if got == 0 { return (samples, nil) }
                samples += buffer[..<(got * channels)]
            } catch {
                return (samples, error)
            }
        }
        return (samples, nil)
    }

    /// `count` frames (fewer at the end) from the decoder's current place.
    static func read(_ decoder: any PlayerCore.Decoder, frames count: Int) throws -> [Float] {
        let channels = decoder.info.format.channels
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: 4096 * channels)
        while samples.count < count * channels {
            let want = min(4096, count - samples.count / channels)
            let got = try buffer.withUnsafeMutableBufferPointer { try decoder.read(into: $0.baseAddress!, maxFrames: want) }
            if got == 0 { break }
            samples += buffer[..<(got * channels)]
        }
        return samples
    }
}
