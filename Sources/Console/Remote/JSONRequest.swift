import Foundation

/// A request in JSON on the control socket, for programs (as mpv's JSON IPC is):
/// `{"command":"seek","to":"1:30"}`, `{"command":"speed","args":[1.5],"id":7}`. `command` is a
/// REPL command's name; its arguments are `args` (strings, numbers, true/false for on/off), or
/// else the value of the one other field (its name is for the reader: `to`, `book`, `note`...).
/// No quoting to get right: the words go to the command grammar as they are, never through the
/// tokenizer. The reply is the line's reply with `outcomes` (`TypedOutcome`, one per command run)
/// and the request's `id`, when it had one.
struct JSONRequest: Equatable, Sendable {
    let words: [String]
    let id: RequestID?

    /// The request, or why not (with its id when that much was readable).
    static func parse(_ text: String) -> Result<JSONRequest, Refusal> {
        guard let fields = try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8)) else {
            return .failure(Refusal(reason: "not a JSON object: send {\"command\":\"NAME\", \"args\":[...]} or a command line", id: nil))
        }
        var id: RequestID?
        switch fields["id"] {
        case nil, .null?: id = nil
        case let .string(text)?: id = .text(text)
        case let .number(number)? where number == number.rounded() && abs(number) < 1e15: id = .number(Int64(number))
        default: return .failure(Refusal(reason: "\"id\" must be a string or a whole number", id: nil))
        }
        func refused(_ reason: String) -> Result<JSONRequest, Refusal> { .failure(Refusal(reason: reason, id: id)) }
        guard case let .string(command)? = fields["command"], !command.isEmpty else {
            return refused("no \"command\": name a REPL command, e.g. {\"command\":\"status\"}")
        }
        let others = fields.keys.filter { !["command", "id", "args"].contains($0) }.sorted()
        let values: [JSONValue]
        switch (fields["args"], others.count) {
        case let (.array(arguments)?, 0): values = arguments
        case (nil, 0): values = []
        case (nil, 1): values = [fields[others[0]]!]
        case (.some, 0): return refused("\"args\" must be a list, e.g. \"args\":[\"1:30\"]")
        default: return refused("one argument field at most (\(others.joined(separator: ", "))): give several as \"args\":[...]")
        }
        var words = [command]
        for value in values {
            guard let word = value.word else { return refused("\(command): an argument must be a string, a number, true or false") }
            words.append(word)
        }
        return .success(JSONRequest(words: words, id: id))
    }

    struct Refusal: Error, Equatable {
        let reason: String
        let id: RequestID?
    }
}

/// The `id` of a JSON request, given back in its reply as it came.
public enum RequestID: Codable, Equatable, Sendable {
    case number(Int64)
    case text(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .number(number): try container.encode(number)
        case let .text(text): try container.encode(text)
        }
    }
}

/// A JSON value as a request holds it.
enum JSONValue: Decodable, Equatable, Sendable {
    case string(String), number(Double), bool(Bool), null, array([JSONValue]), object

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let list = try? container.decode([JSONValue].self) { self = .array(list) }
        else { self = .object }
    }

    /// The word a command line would hold: numbers as typed (1.5, 30), true/false as on/off.
    var word: String? {
        switch self {
        case let .string(text): text
        case let .number(number):
            number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case let .bool(on): on ? "on" : "off"
        case .null, .array, .object: nil
        }
    }
}
