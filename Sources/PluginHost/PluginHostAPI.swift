import ABPluginABI
import Foundation
import Synchronization

/// How plugin log lines reach the user.
public typealias PluginLogHandler = @Sendable (_ level: PluginLogLevel, _ pluginID: String, _ message: String) -> Void

public enum PluginLogLevel: Int, Sendable, Comparable {
    case error = 1, warning, info, debug

    init(_ level: abp_log_level) { self = PluginLogLevel(rawValue: Int(level.rawValue)) ?? .info }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The `abp_host_api` table handed to every plugin. Plugins may keep the pointer for as long as
/// they are loaded, and they are never unloaded (RTLD_NODELETE), so the table and its context are
/// deliberately never freed.
final class PluginHostAPI: @unchecked Sendable {
    let table: UnsafePointer<abp_host_api>
    private let logHandler: PluginLogHandler
    /// NUL-terminated cache directory path, or nil; immortal like the table.
    private let cacheDirectory: UnsafePointer<CChar>?
    /// Warnings a caller kept while opening a file and has said itself (an import at the REPL):
    /// the same line from a later open of that file in this run is not said again.
    private let alreadySaid = Mutex<Set<String>>([])

    init(cacheDirectory: String?, log: @escaping PluginLogHandler) {
        logHandler = log
        if let cacheDirectory,
           (try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)) != nil {
            self.cacheDirectory = UnsafePointer(strdup(cacheDirectory))
        } else {
            self.cacheDirectory = nil
        }
        let table = UnsafeMutablePointer<abp_host_api>.allocate(capacity: 1)
        table.initialize(to: abp_host_api())
        table.pointee.struct_size = UInt32(MemoryLayout<abp_host_api>.size)
        table.pointee.abi_major = UInt16(ABP_ABI_MAJOR)
        table.pointee.abi_minor = UInt16(ABP_ABI_MINOR)
        table.pointee.log = { context, level, pluginID, message in
            let host = Unmanaged<PluginHostAPI>.fromOpaque(context!).takeUnretainedValue()
            if PluginLogLevel(level) <= .warning, let kept = OpenWarnings.current {
                kept.messages.append(message.map { String(cString: $0) } ?? "")
                return
            }
            let id = pluginID.map { String(cString: $0) } ?? "?"
            let text = PluginHostAPI.withoutOwnID(message.map { String(cString: $0) } ?? "", id: id)
            if PluginLogLevel(level) <= .warning, host.wasSaid(text) { return }
            host.logHandler(PluginLogLevel(level), id, text)
        }
        table.pointee.cache_dir = { context in
            Unmanaged<PluginHostAPI>.fromOpaque(context!).takeUnretainedValue().cacheDirectory
        }
        self.table = UnsafePointer(table)
        table.pointee.host_ctx = Unmanaged.passRetained(self).toOpaque()
    }
}

extension PluginHostAPI {
    /// The host writes the plugin's id before its lines (plugin.h, `log`); a plugin that wrote it
    /// too would be said as "tape: tape: ...", so a leading "ID: " is dropped.
    static func withoutOwnID(_ message: String, id: String) -> String {
        let prefix = id + ": "
        return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
    }

    /// A warning of the host's own about a plugin's work, said as that plugin's warnings are
    /// (kept with them while an import opens a file).
    func warn(pluginID: String, _ message: String) {
        if let kept = OpenWarnings.current {
            kept.messages.append(message)
            return
        }
        if wasSaid(message) { return }
        logHandler(.warning, pluginID, message)
    }

    /// Marks warnings kept at an open (`OpenWarnings`) as said by the caller that kept them.
    func markSaid(_ messages: [String]) {
        alreadySaid.withLock { $0.formUnion(messages) }
    }

    fileprivate func wasSaid(_ message: String) -> Bool {
        alreadySaid.withLock { $0.contains(message) }
    }
}

/// Warnings kept while one thread opens a decoder (`PluginRegistry.openDecoderKeepingWarnings`).
/// Per thread: the importer opens files on every core at once, and a plugin logs from `open` on
/// the thread that called it.
///
/// Found through a pthread key (plain thread-local storage): Foundation's thread dictionary
/// made a Thread object and a dictionary lookup per file, which showed in import profiles.
final class OpenWarnings {
    var messages: [String] = []
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: OpenWarnings? {
        pthread_getspecific(key).map { Unmanaged<OpenWarnings>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body` with this thread's warnings kept, and returns them with its result.
    static func keeping<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let kept = OpenWarnings()
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(kept).toOpaque())
        defer { pthread_setspecific(key, previous) }
        let result = try withExtendedLifetime(kept) { try body() }
        return (result, kept.messages)
    }
}
