import Foundation
import TestSupport
import Testing

/// The command line's forgiving side: shared options before the command, and typos.
@Suite struct CommandLineTests {
    @Test func sharedOptionsMayComeBeforeTheCommand() throws {
        // Given a library with one book
        let abplayer = try AbplayerProcess("command-line-order")
        let library = abplayer.home.appending(path: "lib/library.sqlite").path
        let mp3 = try Fixtures.mp3(seconds: 2, vbr: false)
        #expect(try abplayer.run(["import", "--library", library, mp3.path]).status == 0)

        // When --library comes before `books`, and before the two words of `book settings`
        let books = try abplayer.run(["--library", library, "books"])
        let settings = try abplayer.run(["--library=\(library)", "book", "settings", "#1"])

        // Then both run as with the option after the command
        #expect(books.status == 0 && books.stdoutString.hasPrefix("#1 "), "stdout: \(books.stdoutString) stderr: \(books.stderr)")
        #expect(settings.status == 0 && settings.stdoutString.contains("speed 1x"), "stdout: \(settings.stdoutString) stderr: \(settings.stderr)")
    }

    @Test func aMistypedCommandGetsTheNearestOne() throws {
        let abplayer = try AbplayerProcess("command-line-typo")
        let typo = try abplayer.run(["listne", "Time"])
        #expect(typo.status == 64)
        #expect(typo.stderr == "abplayer: unknown command 'listne': did you mean 'listen'? ('abplayer --help' lists the commands)\n")
        #expect(typo.stdoutString.isEmpty)
    }

    @Test func anEmptyLibrarySaysHowToFillIt() throws {
        // Given a fresh library, when a new user lists it and asks to play
        let abplayer = try AbplayerProcess("command-line-empty")
        let library = abplayer.home.appending(path: "lib/library.sqlite").path
        let result = try abplayer.run(["-c", "ls; tree; play", "--library", library, "--output", "null"])

        // Then each answer names `import` rather than nothing
        #expect(result.stdoutString == "(the library is empty: 'import FOLDER' adds the books in a folder)\n"
                + "(no shelves: the library is empty; 'import FOLDER' adds books)\n", "\(result.stdoutString)")
        #expect(result.stderr.contains("play: the library has no books yet: 'import FOLDER' adds the books in a folder"), "\(result.stderr)")
    }
}
