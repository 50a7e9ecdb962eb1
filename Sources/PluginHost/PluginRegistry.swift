import ABPluginABI
import Foundation
public import PlayerCore
import PathNames

/// The loaded plugins of a running abplayer: picks the decoder for a file and opens outputs
/// (PluginRegistry+Outputs). Everything it knows of a plugin comes from its descriptor.
/// Immutable after init; the descriptors it points into live as long as the process.
public final class PluginRegistry: DecoderOpener, @unchecked Sendable {
    public let plugins: [LoadedPlugin]
    public let rejected: [RejectedPlugin]
    let hostAPI: PluginHostAPI
    /// `--decoder-option ID.key=value`, by plugin id; see `decoderOptionProblems`.
    let decoderOptions: [String: [String: String]]

    /// The first bytes handed to `probe`.
    private static let probeBytes = 4096

    public init(searchPath: PluginSearchPath, cacheDirectory: String?, decoderOptions: [DecoderOption] = [],
                log: @escaping PluginLogHandler) {
        hostAPI = PluginHostAPI(cacheDirectory: cacheDirectory, log: log)
        (plugins, rejected) = PluginLoader(hostAPI: hostAPI).load(searchPath)
        self.decoderOptions = Dictionary(grouping: decoderOptions, by: \.pluginID)
            .mapValues { Dictionary($0.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last }) }
    }

    /// One line for each `--decoder-option` that names no loaded decoder, an option the decoder
    /// does not declare, or a value of the wrong type; empty when all are good.
    public var decoderOptionProblems: [String] {
        decoderOptions.keys.sorted().flatMap { id -> [String] in
            guard let plugin = decoders.first(where: { $0.id == id }) else {
                return ["--decoder-option \(id).…: no decoder '\(id)' is loaded (decoders: \(decoders.map(\.id).joined(separator: ", ")))"]
            }
            return plugin.optionProblems(decoderOptions[id]!, subject: "--decoder-option \(id).")
        }
    }

    public var decoders: [LoadedPlugin] { plugins.filter { $0.kind == .decoder } }
    public var sinks: [LoadedPlugin] { plugins.filter { $0.kind == .sink } }

    // MARK: Decoders

    /// Opens `path` with the decoder that claims it most strongly (by content; the extension only
    /// breaks ties), trying the next claimant when the best one fails to open it.
    public func openDecoder(path: String) throws -> any Decoder {
        let head = try readHead(of: path)
        let fileExtension = PathNames.fileExtension(of: path)
        // The content decides; between equal probes the decoder that lists the file's extension,
        // then the higher priority (the order plugin.h promises).
        let candidates = decoders.compactMap { plugin -> (plugin: LoadedPlugin, ops: abp_decoder_ops, score: Int32, named: Int)? in
            guard let ops = plugin.decoderOps else { return nil }
            let score = head.withUnsafeBufferPointer { ops.probe(path, $0.baseAddress, $0.count) }
            return score > 0 ? (plugin, ops, min(score, 100), plugin.extensions.contains(fileExtension) ? 1 : 0) : nil
        }.sorted { ($0.score, $0.named, $0.plugin.priority) > ($1.score, $1.named, $1.plugin.priority) }
        guard !candidates.isEmpty else {
            let tried = decoders.map(\.id).joined(separator: ", ")
            throw AudioError(.noDecoder, subject: path,
                             reason: "not a recognised audio file (no decoder claims it; tried: \(tried.isEmpty ? "none loaded" : tried))")
        }
        var firstError: (any Error)?
        var damage: (pluginID: String, error: AudioError)?
        for candidate in candidates {
            do {
                let decoder = try PluginDecoder(plugin: candidate.plugin, ops: candidate.ops, path: path,
                                                options: decoderOptions[candidate.plugin.id] ?? [:], hostAPI: hostAPI)
                // A decoder that refused a file of its own format as damaged says so once another
                // plays it: a listener should know the file is not what it claims. "Not a codec I
                // decode" (ABP_ERR_UNSUPPORTED: ALAC in an M4A, FLAC in an Ogg) is no news.
                if let damage {
                    hostAPI.warn(pluginID: candidate.plugin.id,
                                 "\(path): \(damage.pluginID) refused it (\(damage.error.reason)); \(candidate.plugin.id) plays it")
                }
                return decoder
            } catch {
                firstError = firstError ?? error
                if damage == nil, let refusal = error as? AudioError, refusal.kind != .unsupported {
                    damage = (candidate.plugin.id, refusal)
                }
            }
        }
        throw firstError!
    }

    public func openDecoderKeepingWarnings(path: String) throws -> (decoder: any Decoder, warnings: [String]) {
        let (decoder, warnings) = try OpenWarnings.keeping { try openDecoder(path: path) }
        return (decoder, warnings)
    }

    public func markWarningsSaid(_ warnings: [String]) { hostAPI.markSaid(warnings) }

    /// The first bytes of a regular, readable, non-empty file; otherwise a clear error. One open,
    /// fstat and pread (an import probes every file: a stat by path and a FileHandle cost more).
    /// O_NONBLOCK: a FIFO in the file's place must not block the open.
    private func readHead(of path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == EACCES ? "cannot open for reading (permission denied?)" : String(cString: strerror(errno)).lowercased()
            throw AudioError(.io, subject: path, reason: reason)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw AudioError(.io, subject: path, reason: String(cString: strerror(errno)).lowercased())
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw AudioError(.io, subject: path, reason: "is a directory, not an audio file") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw AudioError(.io, subject: path, reason: "not a regular file") }
        guard info.st_size > 0 else { throw AudioError(.format, subject: path, reason: "empty file (0 bytes)") }
        var head = [UInt8](repeating: 0, count: Self.probeBytes)
        var count = 0
        while count < head.count {
            let got = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + count, $0.count - count, off_t(count)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { break }
            count += got
        }
        return Array(head[..<count])
    }
}
