@testable import Console
import Library
import Testing

@Suite struct GotoTests {
    func parse(_ line: String) throws -> Command {
        try Command(words: try #require(try Tokenizer.commands(in: line).first))
    }

    let titles = ["Prologue", "Part 1", "Part 2", "Part 12", "Epilogue"]

    /// What `goto` goes to, as the console resolves the parsed words against the titles.
    func target(_ line: String) throws -> (item: Int, seconds: Double?)? {
        guard case let .goto(item, seconds) = try parse(line) else {
            Issue.record("'\(line)' is not a goto")
            return nil
        }
        return ItemReference.gotoTarget(item, seconds: seconds, titles: titles)
    }

    @Test func aTitleEndingInANumberNeedsNoQuotes() throws {
        // The whole words name "Part 2", not item "Part" at 2 s
        #expect(try parse("goto Part 2") == .goto(item: "Part 2", seconds: nil))
        let part2 = try #require(try target("goto Part 2"))
        #expect(part2.item == 2 && part2.seconds == nil)
        let part12 = try #require(try target("goto part 12"))
        #expect(part12.item == 3 && part12.seconds == nil)
    }

    @Test func theLastWordIsATimeWhenItLooksLikeOne() throws {
        #expect(try parse("goto Part 2 1:30") == .goto(item: "Part 2", seconds: 90))
        #expect(try parse("goto Part 2 90s") == .goto(item: "Part 2", seconds: 90))
        #expect(try parse("goto 3 5m") == .goto(item: "3", seconds: 300))
        #expect(try parse("goto 3 1:02:03") == .goto(item: "3", seconds: 3723))
        let timed = try #require(try target("goto Part 2 1:30"))
        #expect(timed.item == 2 && timed.seconds == 90)
    }

    @Test func aBareNumberIsATimeWhenTheOtherWordsNameAnItem() throws {
        // "Epilogue 45" is no title, "Epilogue" is: 45 s into it
        let epilogue = try #require(try target("goto Epilogue 45"))
        #expect(epilogue.item == 4 && epilogue.seconds == 45)
        // item 2 at 90 s
        let second = try #require(try target("goto 2 90"))
        #expect(second.item == 1 && second.seconds == 90)
        // "Part" alone matches several titles: nothing
        #expect(try target("goto Part 99") == nil)
        #expect(try target("goto Nowhere") == nil)
    }
}

@Suite struct LibraryCommandParsingTests {
    func parse(_ line: String) throws -> Command {
        try Command(words: try #require(try Tokenizer.commands(in: line).first))
    }

    func failure(_ line: String) -> String {
        do {
            _ = try parse(line)
        } catch let error as CommandError {
            return error.description
        } catch {
            return "\(error)"
        }
        Issue.record("'\(line)' parsed")
        return ""
    }

    @Test func libraryCommandsParse() throws {
        #expect(try parse("shelf new Fiction/Russian") == .library(.shelf(.create("Fiction/Russian"))))
        #expect(try parse("shelf rename A B") == .library(.shelf(.rename("A", to: "B"))))
        #expect(try parse("shelf mv A") == .library(.shelf(.move("A", under: nil))))
        #expect(try parse("shelf rm --force A") == .library(.shelf(.remove("A", force: true))))
        #expect(try parse("import ~/books \"/x y\" --shelf New") == .library(.importPaths(["~/books", "/x y"], shelf: "New")))
        #expect(try parse("import ~/books --layout author-series") == .library(.importPaths(["~/books"], shelf: nil, layout: .authorSeries)))
        #expect(try parse("rescan") == .library(.rescan(book: nil, folders: [])))
        #expect(try parse("rescan Dune Messiah ~/Moved /media/usb") == .library(.rescan(book: "Dune Messiah", folders: ["~/Moved", "/media/usb"])))
        #expect(try parse("rescan ./here") == .library(.rescan(book: nil, folders: ["./here"])))
        #expect(try parse("book rm Ender\\'s Game") == .library(.book(.remove("Ender's Game"))))
        #expect(try parse("book items") == .library(.book(.items(nil))))
        #expect(try parse("book reorder Dune 3 1") == .library(.book(.reorder("Dune", from: 3, to: 1))))
        #expect(try parse("book remove Dune 2 4") == .library(.book(.removeItems("Dune", items: [2, 4]))))
        #expect(try parse("browse author") == .library(.browse(.artist, value: nil)))
        #expect(try parse("browse genre Science Fiction") == .library(.browse(.genre, value: "Science Fiction")))
        #expect(try parse("bookmarks Dune Messiah") == .library(.bookmarks(book: "Dune Messiah")))
        #expect(try parse("bookmarks") == .bookmarks(all: false))
        #expect(try parse("export /tmp/state.json") == .library(.export(path: "/tmp/state.json")))
    }

    @Test func badArgumentsSayWhatIsRight() {
        #expect(failure("shelf fly A") == "shelf: 'fly' is not an action: use new, rename, mv or rm")
        #expect(failure("book reorder Dune one 2") == "book reorder: 'one' is not an item number: items are numbered from 1 ('book items BOOK' lists them)")
        #expect(failure("book reorder Dune 2") == "usage: book reorder BOOK I J")
        // the usages as help gives the actions
        #expect(failure("shelf") == "usage: shelf new PATH | rename PATH NAME | mv PATH [PARENT] | rm [--force] PATH")
        #expect(failure("book") == "usage: book rename BOOK TITLE | mv BOOK [SHELF] | rm BOOK | items [BOOK] | reorder BOOK I J | add BOOK PATH... | remove BOOK N...")
        #expect(failure("queue rm") == "usage: queue rm I")
        #expect(failure("browse series") == "browse: 'series' is not a tag: use author, artist, album, album-artist, composer, genre, narrator, year")
        #expect(failure("import --shelf") == "import: --shelf needs a shelf, e.g. --shelf Fiction/Russian")
        #expect(failure("import") == "usage: import PATH... [--shelf SHELF] [--layout folders|author-series]")
        #expect(failure("export") == "usage: export PATH")
    }
}
