import Foundation
import TestSupport

/// Runs the built `abplayer` binary as a user would, with private XDG directories so a test never
/// sees the machine's own plugins or caches.
struct AbplayerProcess {
    let home: URL

    init(_ name: String) throws {
        home = try BuildProducts.temporaryDirectory(name)
    }

    var environment: [String: String] {
        ["XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
         "XDG_DATA_HOME": home.appendingPathComponent("data").path,
         // The machine's own event hooks never run in a test (a test that wants some puts them here).
         "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
         "ABPLAYER_PLUGIN_PATH": ""]
    }

    func run(_ arguments: [String], timeout: TimeInterval = 120) throws -> CommandResult {
        try Command.run(BuildProducts.abplayer.path, arguments, environment: environment, timeout: timeout)
    }

    /// `probe --json` of one file, decoded.
    func probe(_ file: URL, extra: [String] = []) throws -> ProbeJSON {
        let result = try run(["probe", "--json"] + extra + [file.path])
        guard result.status == 0 else { throw ProbeFailure(stderr: result.stderr) }
        return try JSONDecoder().decode(ProbeJSON.self, from: result.stdout)
    }

    /// `decode FILE -o OUT [--from --to]`, read back.
    func decode(_ file: URL, from: String? = nil, to: String? = nil, extra: [String] = []) throws -> WavFile {
        let output = home.appendingPathComponent("decoded-\(UUID().uuidString.prefix(6)).wav")
        var arguments = ["decode"] + extra + [file.path, "-o", output.path]
        if let from { arguments += ["--from", from] }
        if let to { arguments += ["--to", to] }
        let result = try run(arguments)
        guard result.status == 0 else { throw ProbeFailure(stderr: result.stderr) }
        return try WavFile.read(output)
    }
}

struct ProbeFailure: Error, CustomStringConvertible {
    let stderr: String
    var description: String { "abplayer failed: \(stderr)" }
}

/// What `abplayer probe --json` prints for one file.
struct ProbeJSON: Decodable {
    struct Chapter: Decodable {
        let start: Double
        let startFrame: Int64
        let title: String
    }

    struct Cover: Decodable {
        let mimeType: String
        let bytes: Int
    }

    let path: String
    let plugin: String
    let rate: Int
    let channels: Int
    let duration: Double?
    let frames: Int64?
    let seekable: Bool
    /// What the decoder names (abp_stream_info.codec); absent when it does not say.
    let codec: String?
    let bitsPerSample: Int?
    let tags: [String: String]
    let chapters: [Chapter]
    let cover: Cover?
}
