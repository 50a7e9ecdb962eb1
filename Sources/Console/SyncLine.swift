import Foundation
import Player

/// `sync [status] | sync now | sync dir FOLDER|off | sync jump | sync auto-jump on|off | sync name [NAME]`.
enum SyncLine {
    static let usage = "sync [status] | sync now | sync dir FOLDER|off | sync jump | sync auto-jump on|off | sync name [NAME]"

    static func parse(_ arguments: [String]) throws(CommandError) -> SyncRequest {
        switch arguments {
        case [], ["status"]: return .status
        case ["now"]: return .now
        case ["jump"]: return .jump
        case ["dir", "off"]: return .folder(nil)
        case ["auto-jump", "on"]: return .jumpOnStart(true)
        case ["auto-jump", "off"]: return .jumpOnStart(false)
        case ["name"]: return .name(nil)
        // A name of several words as typed, one space between them (`DeviceName` trims and checks it).
        case let words where words.first == "name": return .name(words.dropFirst().joined(separator: " "))
        case let words where words.first == "dir" && words.count == 2:
            // A folder as typed (~ and relative paths too), made absolute: it is stored.
            let typed = NSString(string: words[1]).expandingTildeInPath
            return .folder(URL(fileURLWithPath: typed).standardizedFileURL.path)
        default:
            throw CommandError("usage: \(usage)")
        }
    }
}
