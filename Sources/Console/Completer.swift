public import Library
import Player

/// What tab completion does to the word before the cursor.
public struct Completion: Equatable, Sendable {
    /// Offset (in Characters) where the word being completed starts.
    public var start: Int
    /// The text to put in its place (quoted as needed); nil: leave it.
    public var replacement: String?
    /// Every name that fits, to show when there is more than one.
    public var candidates: [String]
}

/// Completes command names, shelf names after `cd`, book titles after `play` and `find`, output
/// names, and keywords; names with spaces or apostrophes come back quoted.
public struct Completer: Sendable {
    let library: LibraryDatabase
    let location: ShelfLocation
    let outputNames: [String]

    public init(library: LibraryDatabase, location: ShelfLocation, outputNames: [String]) {
        self.library = library
        self.location = location
        self.outputNames = outputNames
    }

    /// Completes the last word of `line` (the text before the cursor).
    public func complete(_ line: String) -> Completion? {
        let scan = Tokenizer.scan(line)
        var words = scan.commands.last ?? []
        let current = scan.endsInWord ? words.removeLast() : Tokenizer.Word(value: "", start: line.count)
        let names: [String]
        switch words.first?.value {
        case nil: names = Self.commandNames
        case "help" where words.count == 1:
            names = Self.commandNames + (HelpTopic.allCases.map(\.rawValue) + ["all"]).filter { !Self.commandNames.contains($0) }
        case "help" where words.count == 2: names = CommandHelp.named(words[1].value)?.actions.map(\.name) ?? []
        case "cd" where words.count == 1: names = shelfNames(under: current.value)
        case "play" where words.count == 1, "find" where words.count == 1:
            names = (try? library.catalog.bookTitles()) ?? []
        case "output" where words.count == 1: names = outputNames
        case "chapter" where words.count == 1: names = ["next", "prev", "add", "rename", "rm"]
        case "chapters" where words.count == 1: names = ["reset", "detect"] + ((try? library.catalog.bookTitles()) ?? [])
        case "chapters" where words.count >= 2 && words[1].value == "detect":
            names = ["--yes"] + ((try? library.catalog.bookTitles()) ?? [])
        case "chapters" where words.count == 2 && words[1].value == "reset": names = (try? library.catalog.bookTitles()) ?? []
        case "status" where words.count == 1: names = ["--json"]
        case "set" where words.count == 1, "unset" where words.count == 1: names = ListenerSetting.allCases.map(\.rawValue)
        case "set" where words.count == 2:
            names = ["default"] + (["rewind", "sleep", "intro", "outro"].contains(words[1].value) ? ["off"] : [])
                + (["silence", ListenerSetting.loudness.rawValue, ListenerSetting.plain.rawValue].contains(words[1].value) ? ["on", "off"] : [])
        case "speed" where words.count == 1: names = ["default"]
        case "silence" where words.count == 1: names = ["skip"]
        case "silence" where words.count == 2: names = ["on", "off", "default"]
        case "intro" where words.count == 1, "outro" where words.count == 1: names = ["off", "default"]
        case "loudness" where words.count == 1: names = ["on", "off", "default", "measure"]
        case "loudness" where words.count == 2 && words[1].value == "measure": names = (try? library.catalog.bookTitles()) ?? []
        case "sync" where words.count == 1: names = ["status", "now", "dir", "jump", "auto-jump", "name"]
        case "sync" where words.count == 2 && words[1].value == "auto-jump": names = ["on", "off"]
        case let name? where Self.libraryCommandNames.contains(name):
            switch libraryCandidates(words.map(\.value), typed: current.value) {
            case let .names(found)?: names = found
            case .path?: return completePath(current)
            case nil: return nil
            }
        default: return nil
        }
        let typed = current.value.lowercased()
        let candidates = names.filter { $0.lowercased().hasPrefix(typed) }
        guard let first = candidates.first else { return nil }
        if candidates.count == 1 {
            return Completion(start: current.start, replacement: Tokenizer.quoted(first) + " ", candidates: candidates)
        }
        let common = candidates.dropFirst().reduce(first) { prefix, name in
            String(zip(prefix, name).prefix { $0.lowercased() == $1.lowercased() }.map(\.0))
        }
        let replacement = common.count > current.value.count ? Self.openQuoted(common) : nil
        return Completion(start: current.start, replacement: replacement, candidates: candidates)
    }

    static let commandNames = CommandHelp.all.map(\.name).filter { $0 != "+" }

    /// The start of a name, quoted as the whole name would be but left open for more typing.
    static func openQuoted(_ prefix: String) -> String {
        let quoted = Tokenizer.quoted(prefix)
        return quoted.hasPrefix("\"") ? String(quoted.dropLast()) : quoted
    }

    /// Shelf paths for `cd`: the shelves inside the one typed so far ("Fiction/Ru" -> inside
    /// Fiction), relative to the current shelf.
    func shelfNames(under typed: String) -> [String] {
        let here = location.current
        let directory = typed.contains("/") ? String(typed[..<typed.lastIndex(of: "/")!]) : ""
        let base = typed.hasPrefix("/") ? directory : [here, directory].filter { !$0.isEmpty }.joined(separator: "/")
        let prefix = base.isEmpty ? "" : base + "/"
        let shelves = (try? library.shelves.shelfTree()) ?? []
        return shelves.compactMap { shelf in
            guard shelf.path.hasPrefix(prefix), !shelf.path.dropFirst(prefix.count).contains("/") else { return nil }
            let name = String(shelf.path.dropFirst(prefix.count))
            return directory.isEmpty && !typed.hasPrefix("/") ? name : directory + "/" + name
        }
    }
}
