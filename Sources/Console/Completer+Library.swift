import Foundation
import Library

/// Completion for the library commands: their actions and options, shelf paths, book titles,
/// tag names and values, and file paths.
extension Completer {
    /// What the word being typed can be.
    enum Candidates {
        case names([String])
        /// A file or folder path.
        case path
    }

    static let libraryCommandNames: Set<String> = LibraryCommand.names.union(["bookmarks", "queue"])

    /// `words`: the command's words before the one being typed (`typed`).
    func libraryCandidates(_ words: [String], typed: String) -> Candidates? {
        let position = words.count // the word being typed is words[position]
        let books = { (try? library.catalog.bookTitles()) ?? [] }
        switch (words[0], position) {
        case ("import", _):
            if words.last == "--shelf" { return .names(shelfNames(under: typed)) }
            if words.last == "--layout" { return .names(ImportLayout.allCases.map(\.rawValue)) }
            return typed.hasPrefix("-") ? .names(["--shelf", "--layout"]) : .path
        case ("export", 1), ("import-state", 1): return .path
        case ("shelf", 1): return .names(LibraryCommand.shelfActions)
        case ("shelf", 2) where typed.hasPrefix("-") && words[1] == "rm": return .names(["--force"])
        case ("shelf", 2) where words[1] != "new", ("shelf", 3) where words[1] == "mv" || words[2] == "--force":
            return .names(shelfNames(under: typed))
        case ("book", 1): return .names(LibraryCommand.bookActions)
        case ("book", 2): return .names(books())
        case ("book", 3) where words[1] == "mv": return .names(shelfNames(under: typed))
        case ("book", 3...) where words[1] == "add": return .path
        case ("browse", 1): return .names(LibraryCommand.browseFields)
        case ("browse", 2):
            let field = words[1] == "author" ? BrowseField.artist : BrowseField(rawValue: words[1])
            return field.map { field in .names(((try? library.catalog.browse(field)) ?? []).map(\.value)) }
        case ("bookmarks", 1): return .names(["export", "import"] + books())
        case ("bookmarks", 2...) where words[1] == "export" || words[1] == "import":
            if words.last == "--format" { return .names(BookmarkFileFormat.allCases.map(\.rawValue)) }
            if typed.hasPrefix("-") { return .names(words[1] == "export" ? ["--format", "--all"] : ["--format"]) }
            // FILE ends the line; a book before it is typed as part of its title, Tab or no Tab.
            return .path
        case ("history", 1), ("stats", 1), ("rescan", 1): return .names(books())
        case ("queue", 1): return .names(["add"])
        case ("queue", 2) where words[1] == "add": return .names(books())
        default: return nil
        }
    }

    /// Completes a file path: the entries of the folder typed so far (`~` expanded) that start
    /// with the rest; a folder gets a `/` and stays open for more typing, a file gets a space.
    /// Names are quoted as the tokenizer reads them back.
    func completePath(_ word: Tokenizer.Word) -> Completion? {
        var typed = word.value
        if typed == "~" || typed.hasPrefix("~/") { typed = (typed as NSString).expandingTildeInPath + (typed.hasSuffix("/") || typed == "~" ? "/" : "") }
        let slash = typed.lastIndex(of: "/")
        let folder = slash.map { String(typed[...$0]) } ?? ""
        let prefix = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        let candidates = entries
            .filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }
            .sorted()
            .map { name -> String in
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: folder + name, isDirectory: &isFolder)
                return isFolder.boolValue ? name + "/" : name
            }
        guard let first = candidates.first else { return nil }
        if candidates.count == 1 {
            let path = folder + first
            let replacement = first.hasSuffix("/") ? Self.openQuoted(path) : Tokenizer.quoted(path) + " "
            return Completion(start: word.start, replacement: replacement, candidates: candidates)
        }
        let common = candidates.dropFirst().reduce(first) { common, name in String(zip(common, name).prefix { $0 == $1 }.map(\.0)) }
        let longer = folder + common != word.value
        return Completion(start: word.start, replacement: longer ? Self.openQuoted(folder + common) : nil, candidates: candidates)
    }
}
