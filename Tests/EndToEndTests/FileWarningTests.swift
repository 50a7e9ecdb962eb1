import Foundation
import TestSupport
import Testing

/// Warnings about a file, as a listener meets them: each names its file once, is said once per
/// run (not at every play), and at the REPL's prompt comes above the line being typed.
@Suite struct FileWarningTests {
    /// A folder holding one book: a VBR MP3 cut to half the length its Xing header states.
    static func cutBook(_ abplayer: AbplayerProcess) throws -> URL {
        let folder = abplayer.home.appending(path: "books/Cut Short")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cut = try Fixtures.truncated(try Fixtures.mp3(seconds: 12, vbr: true), keepingFraction: 0.5)
        try FileManager.default.copyItem(at: cut, to: folder.appending(path: "01.mp3"))
        return folder
    }

    @Test func aFileCutShortIsNamedOnceAtImportAndSaidOnceHoweverOftenItPlays() throws {
        // Given a book whose file is cut short of its header's length
        let abplayer = try AbplayerProcess("warn-once")
        let library = abplayer.home.appending(path: "library.sqlite").path
        let folder = try Self.cutBook(abplayer)
        let file = folder.appending(path: "01.mp3").path
        // When it is imported
        let imported = try abplayer.run(["import", "--library", library, folder.path])
        // Then the import says what is wrong in one line naming the file once
        #expect(imported.status == 0, "\(imported.stderr)")
        let importLines = imported.stderr.split(separator: "\n").filter { $0.contains("shorter") }
        #expect(importLines.count == 1 && importLines[0].hasPrefix("abplayer: \(file): the file is shorter"), "\(imported.stderr)")
        #expect(importLines.first?.components(separatedBy: file).count == 2, "\(imported.stderr)")
        // When a script plays it, stops, and plays it again
        let played = try abplayer.run(["-c", "play 'Cut Short'; stop; play 'Cut Short'; stop", "--output", "null", "--library", library])
        // Then the decoder's warning is said once in the run, naming the file once
        #expect(played.status == 0, "\(played.stderr)")
        let playLines = played.stderr.split(separator: "\n").filter { $0.contains(file) }
        #expect(playLines.count == 1, "\(played.stderr)")
        #expect(playLines.first?.components(separatedBy: file).count == 2, "\(played.stderr)")
    }

    @Test func aWarningSaidAtImportIsNotSaidAgainWhenTheBookPlaysInTheSameRun() throws {
        // Given a REPL run that imports a book whose file is cut short, then plays it twice
        let abplayer = try AbplayerProcess("warn-import-then-play")
        let library = abplayer.home.appending(path: "library.sqlite").path
        let folder = try Self.cutBook(abplayer)
        let file = folder.appending(path: "01.mp3").path
        let run = try abplayer.run(["-c", "import '\(folder.path)'; play 'Cut Short'; stop; play 'Cut Short'; stop",
                                    "--output", "null", "--library", library])
        // Then the file's warning is said once in the whole run: by the import
        #expect(run.status == 0, "\(run.stdoutString)\n\(run.stderr)")
        let said = (run.stdoutString + "\n" + run.stderr).split(separator: "\n").filter { $0.contains("shorter") }
        #expect(said.count == 1, "\(run.stdoutString)\n\(run.stderr)")
        #expect(said.first?.contains(file) == true, "\(said)")
    }
}

extension ReplTerminalTests {
    @Test func aFileTheLibraryWatchSkipsIsSaidAboveTheLineBeingTyped() throws {
        // Given the REPL at a terminal, its library watching a book's folder, a line half typed
        let abplayer = try AbplayerProcess("warn-prompt")
        let library = abplayer.home.appending(path: "library.sqlite").path
        let folder = abplayer.home.appending(path: "books/Watched")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 3, vbr: false), to: folder.appending(path: "01.mp3"))
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        let terminal = try Self.terminal(abplayer, library: library, name: "warn-prompt")
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")
        try terminal.send("book items Wat")
        #expect(terminal.waitFor("abplayer /> book items Wat") != nil, "\(terminal.screen())")

        // When a file that is not audio lands in the book's folder
        let broken = folder.appending(path: "02.mp3")
        try Data(repeating: 0x5A, count: 8192).write(to: broken)

        // Then the watch says it skipped it, naming it, on a line above the prompt, and the half
        // typed line is still there to finish
        let screen = terminal.waitFor("skipped \(broken.path)", timeout: 60) ?? terminal.screen()
        let lines = screen.split(separator: "\n").map(String.init)
        let said = try #require(lines.firstIndex { $0.hasPrefix("skipped \(broken.path): ") }, "\(screen)")
        #expect(terminal.waitUntil { $0.split(separator: "\n").last == "abplayer /> book items Wat" } != nil, "\(terminal.screen())")
        #expect(!lines[said].contains("abplayer />"), "\(screen)")
        try terminal.send("ched", "Enter")
        #expect(terminal.waitFor("1. ") != nil, "\(terminal.screen())")
        #expect(!terminal.screen().contains("2. "), "\(terminal.screen())")
    }
}
