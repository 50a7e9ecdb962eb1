import ABPluginABI

public enum PluginKind: String, Sendable {
    case decoder, sink
}

/// The kind of value an option takes, as the descriptor declares it (`abp_option_type`).
public enum PluginOptionType: String, Sendable {
    case string, bool, int, path

    init?(_ type: abp_option_type) {
        switch type {
        case ABP_OPTION_STRING: self = .string
        case ABP_OPTION_BOOL: self = .bool
        case ABP_OPTION_INT: self = .int
        case ABP_OPTION_PATH: self = .path
        default: return nil
        }
    }

    /// Why `value` is not of this type, or nil when it is (the words the ABI lists for bools).
    func problem(with value: String) -> String? {
        switch self {
        case .string, .path: return value.isEmpty ? "an empty value" : nil
        case .bool: return ["true", "false", "yes", "no", "1", "0"].contains(value) ? nil : "not true or false"
        case .int: return Int64(value) == nil ? "not a whole number" : nil
        }
    }
}

public struct PluginOptionSpec: Sendable, Equatable {
    public let name: String
    public let type: PluginOptionType
    public let defaultValue: String?
    public let help: String
}

/// The capability flags of a descriptor (`ABP_CAP_*`).
public struct PluginCapabilities: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let seek = Self(rawValue: ABP_CAP_SEEK)
    public static let gapless = Self(rawValue: ABP_CAP_GAPLESS)
    public static let tags = Self(rawValue: ABP_CAP_TAGS)
    public static let chapters = Self(rawValue: ABP_CAP_CHAPTERS)
    public static let pictures = Self(rawValue: ABP_CAP_PICTURES)
    public static let pause = Self(rawValue: ABP_CAP_PAUSE)
    public static let latency = Self(rawValue: ABP_CAP_LATENCY)
    public static let fixedRate = Self(rawValue: ABP_CAP_FIXED_RATE)
    public static let realtime = Self(rawValue: ABP_CAP_REALTIME)

    /// The names `abplayer plugins` shows, in flag order.
    public var names: [String] {
        let all: [(Self, String)] = [(.seek, "seek"), (.gapless, "gapless"), (.tags, "tags"), (.chapters, "chapters"),
                                     (.pictures, "pictures"), (.pause, "pause"), (.latency, "latency"),
                                     (.fixedRate, "fixed-rate"), (.realtime, "realtime")]
        return all.filter { contains($0.0) }.map(\.1)
    }
}

/// A plugin that passed every check, as the Swift side sees its descriptor.
public struct LoadedPlugin: @unchecked Sendable {
    public let id: String
    public let name: String
    public let version: String
    public let description: String
    public let kind: PluginKind
    public let capabilities: PluginCapabilities
    public let priority: Int
    /// Decoders: the file extensions they read (lower-case, no dot), a tie-break between equal
    /// probes and what the importer takes for audio. Sinks: the files they write (`decode -o`).
    public let extensions: [String]
    public let mimeTypes: [String]
    public let options: [PluginOptionSpec]
    /// Sinks: the option a bare `--output ID:ARG` fills; nil when it takes none.
    public let argumentOption: String?
    public let path: String
    /// The plugin's ABI version as declared: 1.x, x the lowest host minor it needs.
    public let abiMinor: Int
    /// Immutable static data inside a shared object that is never unloaded.
    let descriptor: UnsafePointer<abp_plugin>

    var decoderOps: abp_decoder_ops? { descriptor.pointee.decoder?.pointee }
    var sinkOps: abp_sink_ops? { descriptor.pointee.sink?.pointee }

    public func option(named name: String) -> PluginOptionSpec? { options.first { $0.name == name } }
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
