import ABPluginABI
import Foundation
public import PlayerCore

/// The loaded plugins of a running abplayer: picks the decoder for a file and opens outputs.
public final class PluginRegistry: DecoderOpener, @unchecked Sendable {
    public let plugins: [LoadedPlugin]
    public let rejected: [RejectedPlugin]
    private let hostAPI: PluginHostAPI

    /// The first bytes handed to `probe`.
    private static let probeBytes = 4096

    public init(searchPath: PluginSearchPath, cacheDirectory: String?, log: @escaping PluginLogHandler) {
        hostAPI = PluginHostAPI(cacheDirectory: cacheDirectory, log: log)
        (plugins, rejected) = PluginLoader(hostAPI: hostAPI).load(searchPath)
    }

    public var decoders: [LoadedPlugin] { plugins.filter { $0.kind == .decoder } }
    public var sinks: [LoadedPlugin] { plugins.filter { $0.kind == .sink } }

    // MARK: Decoders

    /// Opens `path` with the decoder that claims it most strongly (by content; the extension only
    /// breaks ties), trying the next claimant when the best one fails to open it.
    public func openDecoder(path: String) throws -> any Decoder {
        let head = try readHead(of: path)
        let candidates = decoders.compactMap { plugin -> (plugin: LoadedPlugin, ops: abp_decoder_ops, score: Int32)? in
            guard let ops = plugin.decoderOps else { return nil }
            let score = head.withUnsafeBufferPointer { ops.probe(path, $0.baseAddress, $0.count) }
            return score > 0 ? (plugin, ops, min(score, 100)) : nil
        }.sorted { ($0.score, $0.plugin.priority) > ($1.score, $1.plugin.priority) }
        guard !candidates.isEmpty else {
            let tried = decoders.map(\.id).joined(separator: ", ")
            throw AudioError(.noDecoder, subject: path,
                             reason: "not a recognised audio file (no decoder claims it; tried: \(tried.isEmpty ? "none loaded" : tried))")
        }
        var firstError: (any Error)?
        for candidate in candidates {
            do {
                return try PluginDecoder(plugin: candidate.plugin, ops: candidate.ops, path: path, hostAPI: hostAPI)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError!
    }

    /// The first bytes of a regular, readable, non-empty file; otherwise a clear error.
    private func readHead(of path: String) throws -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw AudioError(.io, subject: path, reason: String(cString: strerror(errno)).lowercased())
        }
        if info.st_mode & S_IFMT == S_IFDIR { throw AudioError(.io, subject: path, reason: "is a directory, not an audio file") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw AudioError(.io, subject: path, reason: "not a regular file") }
        guard info.st_size > 0 else { throw AudioError(.format, subject: path, reason: "empty file (0 bytes)") }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw AudioError(.io, subject: path, reason: "cannot open for reading (permission denied?)")
        }
        defer { try? handle.close() }
        return [UInt8]((try? handle.read(upToCount: Self.probeBytes)) ?? Data())
    }

    // MARK: Sinks

    /// Opens outputs of the sink plugin `pluginID` with `options` (checked against the options the
    /// plugin declares).
    public func sinkOpener(pluginID: String, options: [String: String] = [:],
                           statusHandler: SinkStatusHandler? = nil) throws -> any SinkOpener {
        guard let plugin = sinks.first(where: { $0.id == pluginID }), let ops = plugin.sinkOps else {
            let known = sinks.map(\.id).joined(separator: ", ")
            throw AudioError(.invalidArgument, subject: "output \(pluginID)",
                             reason: "no such output plugin (available: \(known.isEmpty ? "none" : known))")
        }
        let declared = Set(plugin.options.map(\.name))
        if let unknown = options.keys.sorted().first(where: { !declared.contains($0) }) {
            throw AudioError(.invalidArgument, subject: "output \(pluginID)",
                             reason: "no option '\(unknown)' (options: \(plugin.options.map(\.name).joined(separator: ", ")))")
        }
        return PluginSinkOpener(plugin: plugin, ops: ops, options: options, hostAPI: hostAPI, statusHandler: statusHandler)
    }
}

private struct PluginSinkOpener: SinkOpener, @unchecked Sendable {
    let plugin: LoadedPlugin
    let ops: abp_sink_ops
    let options: [String: String]
    let hostAPI: PluginHostAPI
    let statusHandler: SinkStatusHandler?

    func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink {
        try PluginSink(plugin: plugin, ops: ops, requested: format, options: options, ring: source,
                       hostAPI: hostAPI, statusHandler: statusHandler)
    }

    /// Status goes to `onStatus` (the engine) and to the opener's own handler when it has one.
    func openSink(format: AudioFormat, source: RingBuffer,
                  onStatus: @escaping @Sendable (SinkStatus) -> Void) throws -> any Sink {
        let own = statusHandler
        return try PluginSink(plugin: plugin, ops: ops, requested: format, options: options, ring: source,
                              hostAPI: hostAPI, statusHandler: { status in
                                  own?(status)
                                  onStatus(status)
                              })
    }
}
