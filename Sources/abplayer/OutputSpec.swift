import ArgumentParser

/// An output as the user names it on the command line: `pulse`, `pulse:SINK`, `alsa`,
/// `alsa:hw:1,0`, `jack`, `jack:SERVER`, `null`, `wav:PATH`.
enum OutputSpec: Equatable, Sendable, CustomStringConvertible {
    case pulse(sink: String?)
    case alsa(device: String)
    case jack(server: String?)
    case null
    case wav(path: String)

    static let syntax = "pulse[:SINK], alsa[:DEVICE], jack[:SERVER], null or wav:PATH"

    init(parsing text: String) throws {
        let (kind, argument) = text.firstIndex(of: ":").map {
            (String(text[..<$0]), String(text[text.index(after: $0)...]))
        } ?? (text, "")
        let value: String? = argument.isEmpty ? nil : argument
        switch kind {
        case "pulse": self = .pulse(sink: value)
        case "alsa": self = .alsa(device: value ?? "default")
        case "jack": self = .jack(server: value)
        case "null" where value == nil: self = .null
        case "wav" where value != nil: self = .wav(path: argument)
        default: throw ValidationError("'\(text)' is not an output: use \(Self.syntax)")
        }
    }

    /// The sink plugin that plays it.
    var pluginID: String {
        switch self {
        case .pulse: "pulse"
        case .alsa: "alsa"
        case .jack: "jack"
        case .null: "null"
        case .wav: "wav"
        }
    }

    /// The plugin's options for it.
    var options: [String: String] {
        switch self {
        case let .pulse(sink): sink.map { ["sink": $0] } ?? [:]
        case let .alsa(device): ["device": device]
        case let .jack(server): server.map { ["server": $0] } ?? [:]
        case .null: [:]
        case let .wav(path): ["path": path]
        }
    }

    var description: String {
        switch self {
        case let .pulse(sink): sink.map { "pulse:\($0)" } ?? "pulse"
        case let .alsa(device): "alsa:\(device)"
        case let .jack(server): server.map { "jack:\($0)" } ?? "jack"
        case .null: "null"
        case let .wav(path): "wav:\(path)"
        }
    }
}
