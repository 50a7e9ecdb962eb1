import ABPluginABI

public enum PluginKind: String, Sendable {
    case decoder, sink
}

public struct PluginOptionSpec: Sendable, Equatable {
    public let name: String
    public let defaultValue: String?
    public let help: String
}

/// A plugin that passed every check, as the Swift side sees its descriptor.
public struct LoadedPlugin: @unchecked Sendable {
    public let id: String
    public let name: String
    public let version: String
    public let description: String
    public let kind: PluginKind
    public let priority: Int
    public let extensions: [String]
    public let options: [PluginOptionSpec]
    public let path: String
    /// Immutable static data inside a shared object that is never unloaded.
    let descriptor: UnsafePointer<abp_plugin>

    var decoderOps: abp_decoder_ops? { descriptor.pointee.decoder?.pointee }
    var sinkOps: abp_sink_ops? { descriptor.pointee.sink?.pointee }
}

/// A file that looked like a plugin but was not loaded, and why.
public struct RejectedPlugin: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): \(reason)" }
}

func strings(_ list: UnsafePointer<UnsafePointer<CChar>?>?) -> [String] {
    guard var cursor = list else { return [] }
    var result: [String] = []
    while let string = cursor.pointee, result.count < 256 {
        result.append(String(cString: string))
        cursor += 1
    }
    return result
}
