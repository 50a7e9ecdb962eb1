@testable import Console
import Foundation
import Library
import PlayerCore
import Testing

/// Completion against a real (in-memory) library: shelves "Synthetic 0|1/Shelf 0|1", books
/// "Book 0..3", one renamed "Ender's Game".
@Suite struct CompleterTests {
    let library: LibraryDatabase
    let location = ShelfLocation()
    let completer: Completer

    init() throws {
        library = try LibraryDatabase()
        try library.books.insertSyntheticBooks(books: 4, itemsPerBook: 2, shelfFanout: 2)
        try library.books.renameBook(try library.books.book(matching: "Book 3").id!, to: "Ender's Game")
        completer = Completer(library: library, location: location, outputNames: ["pulse", "null", "wav:"])
    }

    @Test func commandNames() {
        #expect(completer.complete("pl") == Completion(start: 0, replacement: "play ", candidates: ["play"]))
        #expect(completer.complete("bookm")?.candidates == ["bookmark", "bookmarks"])
        #expect(completer.complete("bookm")?.replacement == "bookmark") // their common start, no space
        #expect(completer.complete("book")?.candidates == ["bookmark", "bookmarks", "book"])
        #expect(completer.complete("status; see")?.replacement == "seek ")
        #expect(completer.complete("status; se")?.candidates == ["seek", "set"])
        #expect(completer.complete("set sl")?.replacement == "sleep ")
        #expect(completer.complete("set sleep o")?.replacement == "off ")
        #expect(completer.complete("help ch")?.candidates == ["chapter", "chapters"])
        #expect(completer.complete("help chapters")?.replacement == "chapters ")
        // help's topics and the actions of a command
        #expect(completer.complete("help pl")?.candidates == ["play", "playback"])
        #expect(completer.complete("help se")?.candidates == ["seek", "set", "settings"])
        #expect(completer.complete("help bookmark n")?.replacement == "note ")
        #expect(completer.complete("zz") == nil)
    }

    @Test func loudnessCompletesItsWordsItsDefaultsAndBooksToMeasure() {
        #expect(completer.complete("loudness m")?.replacement == "measure ")
        #expect(completer.complete("loudness ")?.candidates == ["on", "off", "default", "measure"])
        #expect(completer.complete("loudness measure End")?.replacement == #""Ender's Game" "#)
        #expect(completer.complete("set loudness-")?.replacement == "loudness-target ")
        #expect(completer.complete("set loudness o")?.candidates == ["on", "off"])
    }

    @Test func aBookNameWithAnApostropheComesBackQuoted() throws {
        let completion = try #require(completer.complete("play End"))
        #expect(completion == Completion(start: 5, replacement: #""Ender's Game" "#, candidates: ["Ender's Game"]))
        // Already inside a quote, or typed in any case
        #expect(completer.complete(#"play "ender"#)?.replacement == #""Ender's Game" "#)
        // What completion writes, the tokenizer reads back as the title
        #expect(try Tokenizer.commands(in: "play " + completion.replacement!) == [["play", "Ender's Game"]])
    }

    @Test func severalBooksCompleteToTheirCommonStart() {
        let completion = completer.complete("play Bo")
        #expect(completion?.candidates == ["Book 0", "Book 1", "Book 2"])
        #expect(completion?.replacement == #""Book "#)
    }

    @Test func shelvesCompleteRelativeToTheCurrentShelfAndInsidePaths() {
        #expect(completer.complete("cd Syn")?.candidates == ["Synthetic 0", "Synthetic 1"])
        #expect(completer.complete("cd Syn")?.replacement == #""Synthetic "#)
        #expect(completer.complete(#"cd "Synthetic 1/Shelf 1"#)?.replacement == #""Synthetic 1/Shelf 1" "#)
        location.current = "Synthetic 0"
        #expect(completer.complete("cd Sh")?.candidates == ["Shelf 0", "Shelf 1"])
        #expect(completer.complete("cd /Synthetic 1/")?.candidates == nil) // an unquoted space ends the word
    }

    @Test func keywordsAndOutputs() {
        #expect(completer.complete("output nu")?.replacement == "null ")
        #expect(completer.complete("chapter n")?.replacement == "next ")
        #expect(completer.complete("status --")?.replacement == "--json ")
        #expect(completer.complete("seek 1") == nil)
    }
}

/// Completion of the library commands: actions, options, shelves, books and file paths.
@Suite struct LibraryCompletionTests {
    let library: LibraryDatabase
    let completer: Completer

    init() throws {
        library = try LibraryDatabase()
        try library.books.insertSyntheticBooks(books: 4, itemsPerBook: 2, shelfFanout: 2)
        try library.books.renameBook(try library.books.book(matching: "Book 3").id!, to: "Ender's Game")
        completer = Completer(library: library, location: ShelfLocation(), outputNames: ["pulse", "alsa", "jack", "null", "wav:"])
    }

    @Test func actionsAndOptions() {
        #expect(completer.complete("shelf r")?.candidates == ["rename", "rm"])
        #expect(completer.complete("shelf n")?.replacement == "new ")
        #expect(completer.complete("shelf rm --f")?.replacement == "--force ")
        #expect(completer.complete("book re")?.candidates == ["rename", "reorder", "remove"])
        #expect(completer.complete("book reo")?.replacement == "reorder ")
        #expect(completer.complete("browse au")?.replacement == "author ")
        #expect(completer.complete("import --sh")?.replacement == "--shelf ")
        #expect(completer.complete("output j")?.replacement == "jack ")
        #expect(completer.complete("status --j")?.replacement == "--json ")
        #expect(completer.complete("imp")?.candidates == ["import", "import-state"])
        #expect(completer.complete("bookmarks exp")?.replacement == "export ")
        #expect(completer.complete("bookmarks export --f")?.replacement == "--format ")
        #expect(completer.complete("bookmarks export --format au")?.replacement == "audacity ")
        #expect(completer.complete("bookmarks import --a") == nil)
    }

    @Test func booksAndShelvesWhereTheyGo() {
        #expect(completer.complete("book items End")?.replacement == #""Ender's Game" "#)
        #expect(completer.complete("bookmarks End")?.replacement == #""Ender's Game" "#)
        #expect(completer.complete("queue add End")?.replacement == #""Ender's Game" "#)
        #expect(completer.complete(#"book mv "Ender's Game" Syn"#)?.candidates == ["Synthetic 0", "Synthetic 1"])
        #expect(completer.complete("import /tmp --shelf Syn")?.candidates == ["Synthetic 0", "Synthetic 1"])
        #expect(completer.complete("shelf rename Synthetic\\ 1/Sh")?.candidates == ["Synthetic 1/Shelf 0", "Synthetic 1/Shelf 1"])
        // A book title is no shelf action
        #expect(completer.complete("shelf new Syn") == nil)
    }

    /// A folder with a sub-folder, a file with an apostrophe and a space, and a Unicode folder.
    func makeFolder(in parent: URL) throws -> URL {
        let folder = parent.appending(path: "abplayer-completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appending(path: "Dune"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appending(path: "Ünïcode book"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: folder.appending(path: "Ender's Game.mp3"))
        try Data("x".utf8).write(to: folder.appending(path: "Dune notes.txt"))
        return folder
    }

    @Test func filePathsAreQuotedAsTheTokenizerReadsThem() throws {
        let folder = try makeFolder(in: FileManager.default.temporaryDirectory)
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.path + "/"

        // A folder gets a slash and stays open; a file is closed with a space
        #expect(completer.complete("import \(base)Dune")?.candidates == ["Dune/", "Dune notes.txt"])
        #expect(completer.complete("import \(base)Dune/") == nil) // an empty folder
        let file = try #require(completer.complete("export \(base)End"))
        #expect(file.replacement == "\"\(base)Ender's Game.mp3\" ")
        #expect(try Tokenizer.commands(in: "export " + file.replacement!) == [["export", base + "Ender's Game.mp3"]])
        let unicode = try #require(completer.complete("import-state \(base)Ü"))
        #expect(unicode.replacement == "\"\(base)Ünïcode book/")
        #expect(Tokenizer.scan("import " + unicode.replacement!).commands.last?.last?.value == base + "Ünïcode book/")
        // Typing on inside the open quote completes inside that folder
        try Data("x".utf8).write(to: folder.appending(path: "Ünïcode book/Kapitel 1.mp3"))
        #expect(completer.complete("book add Dune \"\(base)Ünïcode book/K")?.replacement == "\"\(base)Ünïcode book/Kapitel 1.mp3\" ")
    }

    @Test func aTildeIsTheHomeFolder() throws {
        let home = URL(fileURLWithPath: NSHomeDirectory())
        let folder = try makeFolder(in: home)
        defer { try? FileManager.default.removeItem(at: folder) }
        let completion = try #require(completer.complete("import ~/\(folder.lastPathComponent)/Dune"))
        #expect(completion.replacement == home.path + "/\(folder.lastPathComponent)/Dune")
        #expect(completion.candidates == ["Dune/", "Dune notes.txt"])
    }
}
