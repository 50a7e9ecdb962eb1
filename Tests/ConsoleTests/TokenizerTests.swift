@testable import Console
import Testing

@Suite struct TokenizerTests {
    @Test func spacesSeparateWordsAndSemicolonsSeparateCommands() throws {
        #expect(try Tokenizer.commands(in: "  play   Dune ; seek 1:00:00;status ") == [["play", "Dune"], ["seek", "1:00:00"], ["status"]])
    }

    @Test func quotesKeepSpacesAndApostrophesAndSemicolons() throws {
        #expect(try Tokenizer.commands(in: #"play "Hitchhiker's Guide; Part 1""#) == [["play", "Hitchhiker's Guide; Part 1"]])
        #expect(try Tokenizer.commands(in: #"cd 'Science "Fiction"'"#) == [["cd", #"Science "Fiction""#]])
        #expect(try Tokenizer.commands(in: #"play Ender\'s\ Game"#) == [["play", "Ender's Game"]])
        #expect(try Tokenizer.commands(in: #"find "a\"b\\c\d""#) == [["find", #"a"b\c\d"#]])
        #expect(try Tokenizer.commands(in: #"play "Half"' 'Done"#) == [["play", "Half Done"]])
        #expect(try Tokenizer.commands(in: #"bookmark """#) == [["bookmark", ""]])
    }

    @Test func aBookmarkNoteIsTheRestOfTheLineAsTyped() throws {
        #expect(try Tokenizer.commands(in: "bookmark Don't forget") == [["bookmark", "Don't forget"]])
        #expect(try Tokenizer.commands(in: "play Dune; bookmark it's \"here\"; really  ") == [["play", "Dune"], ["bookmark", "it's \"here\"; really"]])
        #expect(try Tokenizer.commands(in: #"bookmark "the duel""#) == [["bookmark", "the duel"]])
        #expect(try Tokenizer.commands(in: "bookmark; status") == [["bookmark"], ["status"]])
        #expect(try Tokenizer.commands(in: #"play "bookmark it's""#) == [["play", "bookmark it's"]])
    }

    @Test func inAScriptOrASocketLineASemicolonEndsANoteUnlessQuoted() throws {
        // (a `-c` script, a pipe, a socket line: `;` ends a bookmark's note as any command)
        #expect(try Tokenizer.commands(in: "bookmark first; seek 0:50; status", notes: .command)
            == [["bookmark", "first"], ["seek", "0:50"], ["status"]])
        #expect(try Tokenizer.commands(in: #"bookmark "the duel; at dawn"; status"#, notes: .command)
            == [["bookmark", "the duel; at dawn"], ["status"]])
        #expect(try Tokenizer.commands(in: "bookmark note 3 two words; status", notes: .command)
            == [["bookmark", "note", "3", "two", "words"], ["status"]])
        // and a line read at a prompt, sent quoted, is read the same on the other side
        let typed = try Tokenizer.commands(in: #"play Dune; bookmark it's "here"; really \ done"#)
        #expect(try Tokenizer.commands(in: Tokenizer.line(quoting: typed), notes: .command) == typed)
    }

    @Test func anyUnicodePassesThrough() throws {
        #expect(try Tokenizer.commands(in: "play \"Война и мир\" ; find 三体 ; find 👩‍👩‍👧e\u{301}") ==
                [["play", "Война и мир"], ["find", "三体"], ["find", "👩‍👩‍👧e\u{301}"]])
    }

    @Test func anUnfinishedQuoteOrBackslashIsOneClearError() {
        #expect(throws: Tokenizer.Failure(description: "unfinished quote: close the \" that was opened")) {
            try Tokenizer.commands(in: #"play "Dune"#)
        }
        #expect(throws: Tokenizer.Failure.self) { try Tokenizer.commands(in: #"play Dune\"#) }
    }

    @Test func emptyCommandsAreDropped() throws {
        #expect(try Tokenizer.commands(in: " ; ;; ") == [])
    }

    @Test func quotedNamesScanBackToThemselves() throws {
        for name in ["Dune", "Hitchhiker's Guide", #"Say "hi""#, #"back\slash"#, "a;b", "Война и мир", ""] {
            let quoted = Tokenizer.quoted(name)
            #expect(try Tokenizer.commands(in: "play " + quoted) == [["play", name]], "\(quoted)")
        }
        #expect(Tokenizer.quoted("Dune") == "Dune")
        #expect(Tokenizer.quoted("Ender's Game") == #""Ender's Game""#)
    }

    @Test func scanReportsTheOpenQuoteAndWhereTheLastWordStarts() {
        let scan = Tokenizer.scan(#"play "Ender's G"#)
        #expect(scan.openQuote == "\"")
        #expect(scan.endsInWord)
        #expect(scan.commands.last?.last == Tokenizer.Word(value: "Ender's G", start: 5))
    }
}
