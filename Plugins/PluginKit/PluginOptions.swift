public import ABPluginABI

/// The name=value options the host passed to `open`, with typed accessors. The host has already
/// checked that every name is one the plugin declared.
public struct PluginOptions: Sendable {
    public let values: [String: String]

    public init(_ options: UnsafePointer<abp_option>?, count: Int) {
        var values: [String: String] = [:]
        if let options {
            for index in 0..<count {
                guard let name = options[index].name, let value = options[index].value else { continue }
                values[String(cString: name)] = String(cString: value)
            }
        }
        self.values = values
    }

    public subscript(_ name: String) -> String? { values[name] }

    /// nil when absent; throws when present but not a boolean word.
    public func bool(_ name: String) throws(PluginOptionError) -> Bool? {
        guard let text = values[name] else { return nil }
        switch text.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw PluginOptionError(name: name, value: text, expected: "true or false")
        }
    }

    public func int(_ name: String) throws(PluginOptionError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let number = Int(text) else { throw PluginOptionError(name: name, value: text, expected: "a whole number") }
        return number
    }
}

public struct PluginOptionError: Error, Sendable, CustomStringConvertible {
    public let name: String
    public let value: String
    public let expected: String
    public var description: String { "option \(name)=\(value): expected \(expected)" }
}
