import Foundation
import TestSupport
import Testing

/// The command line's forgiving side: shared options before the command, and typos.
@Suite struct CommandLineTests {
    @Test func sharedOptionsMayComeBeforeTheCommand() throws {
        // Given a library with one book
        let abplayer = try AbplayerProcess("command-line-order")
        let library = abplayer.home.appending(path: "lib/library.sqlite").path
        try FileManager.default.createDirectory(at: abplayer.home.appending(path: "lib"), withIntermediateDirectories: true)
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

    @Test func everyREPLCommandWorksAsAnAbplayerCommand() throws {
        // Given a library with Ender's Game on the shelf Science Fiction
        let (abplayer, library) = try ReplTests.library("command-line-repl-words")
        // When REPL commands are given as abplayer's own (shared options before them too)
        let ls = try abplayer.run(["--library", library, "ls"])
        let chapters = try abplayer.run(["chapters", "Ender's Game", "--library", library])
        let quoted = try abplayer.run(["--library", library, "find", "ender's"])
        // Then each answers as in the REPL: the quoting of its words is the shell's
        #expect(ls.status == 0 && ls.stdoutString.contains("Science Fiction/"), "\(ls.stdoutString) \(ls.stderr)")
        #expect(chapters.status == 0 && chapters.stdoutString.contains("Ender's Game"), "\(chapters.stdoutString) \(chapters.stderr)")
        #expect(quoted.status == 0 && quoted.stdoutString.contains("#1 Ender's Game"), "\(quoted.stdoutString) \(quoted.stderr)")
    }

    @Test func jsonTimesAreLocalTimeWithTheirOffset() throws {
        // Given a bookmark made in a library, and a listener in India (UTC+05:30, no summer time)
        let (abplayer, library) = try ReplTests.library("command-line-json-times")
        _ = try abplayer.run(["-c", "play Ender; bookmark here", "--output", "null", "--library", library]).requireSuccess()
        // When the bookmarks are listed as JSON
        let listed = try Command.run(BuildProducts.abplayer.path, ["bookmarks", "Ender's Game", "--json", "--library", library],
                                     environment: abplayer.environment.merging(["TZ": "Asia/Kolkata"]) { $1 }).requireSuccess()
        // Then the time it was made is ISO 8601 in local time, with the offset
        #expect(listed.stdoutString.firstMatch(of: /"createdAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30"/) != nil, "\(listed.stdoutString)")
    }

    @Test func anEmptyLibrarySaysHowToFillIt() throws {
        // Given a fresh library, when a new user lists it and asks to play
        let abplayer = try AbplayerProcess("command-line-empty")
        let library = abplayer.home.appending(path: "lib/library.sqlite").path
        try FileManager.default.createDirectory(at: abplayer.home.appending(path: "lib"), withIntermediateDirectories: true)
        let result = try abplayer.run(["-c", "ls; tree; play", "--library", library, "--output", "null"])

        // Then each answer names `import` rather than nothing
        #expect(result.stdoutString == "(the library is empty: 'import FOLDER' adds the books in a folder)\n"
                + "(the library is empty: 'import FOLDER' adds books)\n", "\(result.stdoutString)")
        #expect(result.stderr.contains("play: the library has no books yet: 'import FOLDER' adds the books in a folder"), "\(result.stderr)")
    }

    @Test func aLibraryInAFolderThatIsNotThereIsRefusedInOneLine() throws {
        // Given a path whose folders do not exist (a typo), and the default location not made yet
        let abplayer = try AbplayerProcess("command-line-no-folder")
        let missing = abplayer.home.appending(path: "nonexistent/dir")
        let library = missing.appending(path: "x.sqlite").path

        // When a script, `books` and `remote` are run on it
        for arguments in [["-c", "ls"], ["books"], ["remote", "status"]] {
            let result = try abplayer.run(["--library", library] + arguments)
            // Then each says in one line what is wrong and what to do, and fails
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "abplayer: --library \(library): no such folder; create it first\n", "\(arguments)")
            #expect(result.stdoutString.isEmpty, "\(arguments): \(result.stdoutString)")
        }
        // and nothing was made
        #expect(!FileManager.default.fileExists(atPath: abplayer.home.appending(path: "nonexistent").path))

        // When the default location is named with --library: its folders are abplayer's to make
        let defaultLibrary = abplayer.home.appending(path: "data/abplayer/library.sqlite").path
        let named = try abplayer.run(["--library", defaultLibrary, "-c", "ls"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: defaultLibrary))
    }

    @Test func versionNamesAbplayerThePluginABIAndEachPluginFromItsDescriptor() throws {
        // Given the ABI plugin.h defines, and the plugins `abplayer plugins` lists
        let abplayer = try AbplayerProcess("command-line-version")
        let header = try String(contentsOf: BuildProducts.sdkInclude.appending(path: "abplayer/plugin.h"), encoding: .utf8)
        func define(_ name: String) -> String? {
            header.split(separator: "\n").first { $0.hasPrefix("#define \(name) ") }.flatMap { $0.split(separator: " ").last.map(String.init) }
        }
        let abi = "\(try #require(define("ABP_ABI_MAJOR"))).\(try #require(define("ABP_ABI_MINOR")))"
        let listed = try abplayer.run(["plugins"]).requireSuccess().stdoutString.split(separator: "\n").dropFirst()
            .prefix { !$0.isEmpty }.map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }

        // When --version is asked for
        let version = try abplayer.run(["--version"])

        // Then it says abplayer's version, the ABI, and each plugin's id and version, kind
        #expect(version.status == 0, "\(version.stderr)")
        let lines = version.stdoutString.split(separator: "\n").map(String.init)
        #expect(lines.first?.wholeMatch(of: /abplayer \d+\.\d+\.\d+/) != nil, "\(lines)")
        #expect(lines.dropFirst().first == "plugin ABI \(abi)", "\(lines)")
        #expect(lines.dropFirst(2).first == "plugins:", "\(lines)")
        #expect(listed.count >= 5, "\(listed)")
        #expect(Array(lines.dropFirst(3)) == listed.map { "  \($0[0]) \($0[2]) (\($0[1]))" }, "\(lines) vs \(listed)")

        // and the shared options may come before it, as before any command
        let withOptions = try abplayer.run(["--plugin-dir", abplayer.home.path, "-v", "--version"])
        #expect(withOptions.status == 0 && withOptions.stdoutString == version.stdoutString, "\(withOptions.stderr)")
    }

    @Test func topLevelHelpListsEveryOptionThatWorksThere() throws {
        let abplayer = try AbplayerProcess("command-line-help")
        for asked in ["--help", "-h", "help"] {
            // When the top-level help is asked for
            let help = try abplayer.run([asked])
            // Then it lists the subcommands and the options that work with none (the REPL's, --version)
            #expect(help.status == 0, "\(asked): \(help.stderr)")
            let text = help.stdoutString
            for option in ["--daemon", "-c <COMMANDS>", "--output <OUTPUT>", "--library <DB>", "--plugin-dir <DIR>",
                           "--decoder-option", "-v, --verbose", "--version", "-h, --help"] {
                #expect(text.contains("\n  \(option)"), "\(asked): no \(option) in \(text)")
            }
            #expect(text.contains("USAGE: abplayer [--library <DB>]") && text.contains("\nSUBCOMMANDS:\n  repl (default)"), "\(text)")
            #expect(text.contains("  listen  ") && text.contains("  remote  "), "\(text)")
        }
        // and each option it lists works there
        let library = abplayer.home.appending(path: "library.sqlite").path
        let script = try abplayer.run(["--library", library, "--output", "null", "--plugin-dir", abplayer.home.path, "-v", "-c", "status"])
        #expect(script.status == 1 && script.stderr.contains("nothing is playing"), "\(script.stderr)")
    }
}
