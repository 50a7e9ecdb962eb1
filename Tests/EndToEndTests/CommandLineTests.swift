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

    /// The XDG spec says relative XDG paths are to be ignored; a relative HOME gives no default.
    @Test func aRelativeXDGDataHomeOrHomeNeverPutsTheLibraryInTheCurrentFolder() throws {
        // Given a folder to run in, and a home elsewhere
        let here = try BuildProducts.temporaryDirectory("relative-xdg")
        let home = here.appending(path: "home").path
        func books(_ environment: [String: String]) throws -> CommandResult {
            try Command.run("sh", ["-c", "mkdir -p \"$1\" && cd \"$1\" && exec \"$2\" books", "sh", here.appending(path: "cwd").path,
                                   BuildProducts.abplayer.path],
                            environment: environment.merging(["PATH": "/usr/bin:/bin", "ABPLAYER_PLUGIN_PATH": ""]) { old, _ in old }, timeout: 60)
        }

        // When `books` runs with HOME=. and no XDG_DATA_HOME (empty: the runner's is inherited otherwise)
        let noDefault = try books(["HOME": ".", "XDG_DATA_HOME": ""])
        // Then it says in one line that there is no default library, and makes none
        #expect(noDefault.status == 1 && noDefault.stderr.split(separator: "\n").count == 1, "\(noDefault.stderr)")
        #expect(noDefault.stderr.hasPrefix("abplayer: no default library: XDG_DATA_HOME is empty and HOME=. is not an absolute path"), "\(noDefault.stderr)")

        // When it runs with XDG_DATA_HOME=. and an absolute HOME
        let fallback = try books(["XDG_DATA_HOME": ".", "HOME": home])
        // Then the library is HOME's default one
        #expect(fallback.status == 0, "\(fallback.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/abplayer/library.sqlite"))
        // and nothing was made in the folder it ran in
        #expect(try FileManager.default.contentsOfDirectory(atPath: here.appending(path: "cwd").path) == [])
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
                + "(the library is empty: 'import FOLDER' adds books)\n", "\(result.stdoutString)")
        #expect(result.stderr.contains("play: the library has no books yet: 'import FOLDER' adds the books in a folder"), "\(result.stderr)")
    }
}
