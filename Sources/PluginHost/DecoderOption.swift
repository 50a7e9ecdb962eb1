/// `--decoder-option ID.key=value`: an option for every file the decoder `ID` opens.
public struct DecoderOption: Sendable, Equatable {
    public let pluginID: String
    public let name: String
    public let value: String

    public init(pluginID: String, name: String, value: String) {
        self.pluginID = pluginID
        self.name = name
        self.value = value
    }

    /// Parses `ID.key=value`; whether the decoder and its option exist is checked once the
    /// plugins are loaded (`PluginRegistry.decoderOptionProblems`).
    public init(parsing text: String) throws(OptionSyntaxError) {
        guard let dot = text.firstIndex(of: "."), let equals = text[dot...].firstIndex(of: "="),
              dot > text.startIndex, text.index(after: dot) < equals else {
            throw OptionSyntaxError("'\(text)' is not ID.key=value (e.g. mpg123.index-cache=false; `abplayer plugins ID` lists a plugin's options)")
        }
        self.init(pluginID: String(text[..<dot]), name: String(text[text.index(after: dot)..<equals]),
                  value: String(text[text.index(after: equals)...]))
    }
}

/// A plugin option or output named in the wrong form, or not offered by the plugins loaded: one
/// line saying what would be right.
public struct OptionSyntaxError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension LoadedPlugin {
    /// One line per option in `values` that the plugin does not declare or whose value is not of
    /// the declared type, each starting with `subject`.
    func optionProblems(_ values: [String: String], subject: String) -> [String] {
        values.keys.sorted().compactMap { name in
            guard let spec = option(named: name) else {
                let known = options.map(\.name).joined(separator: ", ")
                return "\(subject)\(name): \(id) has no option '\(name)' (options: \(known.isEmpty ? "none" : known))"
            }
            return spec.type.problem(with: values[name]!).map { "\(subject)\(name)=\(values[name]!): \($0) (\(spec.help))" }
        }
    }
}
