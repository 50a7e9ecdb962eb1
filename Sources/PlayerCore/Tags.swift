/// Tags as the decoders reported them, in order, keys lower-case. A key may repeat: every plugin
/// reports each value of a repeated frame, comment or atom (two TPE1, two ARTIST) by its own
/// callback, and all of them are kept. Wherever a tag is shown or stored (probe, the REPL, the
/// library's author) it is all its values, each once, joined: "A; B".
public struct Tags: Sendable, Equatable {
    public private(set) var entries: [(key: String, value: String)] = []

    /// What joins the values of a repeated tag.
    public static let separator = "; "

    /// Keys that carry how the file was encoded (lame's and ffmpeg's TSSE, opusenc's ENCODER and
    /// ENCODER_OPTIONS, MP4's ©too): settings of a tool, not something a listener tagged.
    static let encoderKeys: Set<String> = ["encoder", "encoder_options", "encoderoptions", "encoder_settings",
                                           "encodersettings", "encoding settings", "tsse", "encoding_tool"]

    public init() {}

    /// Keeps the value unless it is empty or an encoder setting; keys are lower-cased (the ABI's
    /// rule, which not every plugin keeps for keys it passes through).
    public mutating func append(key: String, value: String) {
        let key = key.lowercased()
        guard !value.isEmpty, !Self.encoderKeys.contains(key) else { return }
        entries.append((key, value))
    }

    /// Every value of `key`, in order, each once.
    public func values(_ key: String) -> [String] {
        var seen = Set<String>()
        return entries.compactMap { $0.key == key && seen.insert($0.value).inserted ? $0.value : nil }
    }

    /// All values of `key` joined ("A; B"), nil when it has none.
    public subscript(_ key: String) -> String? {
        let values = values(key)
        return values.isEmpty ? nil : values.joined(separator: Self.separator)
    }

    /// The first value of `key`: for tags that are one value by nature (track, disc, year).
    public func first(_ key: String) -> String? { entries.first { $0.key == key }?.value }

    /// Each key once, in the order first reported, with its joined values: what a listing shows.
    public var joined: [(key: String, value: String)] {
        var seen = Set<String>()
        return entries.compactMap { entry in seen.insert(entry.key).inserted ? (entry.key, self[entry.key]!) : nil }
    }

    public static func == (lhs: Tags, rhs: Tags) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.key == $1.key && $0.value == $1.value }
    }
}
