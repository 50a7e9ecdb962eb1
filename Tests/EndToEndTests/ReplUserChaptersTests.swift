import Foundation
import TestSupport
import Testing

/// The listener's own chapters through the real binary: detected in real narration and stored
/// after a yes typed at the REPL, edited by `-c` scripts, kept through a rescan after the files
/// moved and through export and import into a fresh library. The library file is read back with
/// sqlite3.
@Suite(.serialized) struct ReplUserChaptersTests {
    struct StatusJSON: Decodable {
        let bookPosition: Double?
        let chapter: String?
    }

    /// The user chapters in `library`, "title@frame", in book order.
    static func stored(_ library: String) throws -> [String] {
        let result = try Command.run("sqlite3", [library, """
            SELECT userChapter.title || '@' || userChapter.frame FROM userChapter
            JOIN bookItem ON bookItem.mediaId = userChapter.mediaId ORDER BY bookItem.position, userChapter.frame
            """]).requireSuccess()
        return result.stdoutString.split(separator: "\n").map(String.init)
    }

    /// A library with one narrated book, "Told": five chapters 3 s apart, 0.4 s pauses inside them.
    static func toldLibrary(_ name: String) throws -> (AbplayerProcess, library: String, folder: URL, NarrationFixture) {
        let narration = try Fixtures.narration(chapters: 5, gapSeconds: 3, pauseSeconds: 0.4)
        let abplayer = try AbplayerProcess(name)
        let folder = abplayer.home.appending(path: "Books/Told")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: narration.url, to: folder.appending(path: "told.mp3"))
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        return (abplayer, library, folder, narration)
    }

    func script(_ abplayer: AbplayerProcess, _ library: String, _ commands: String) throws -> CommandResult {
        try abplayer.run(["-c", commands, "--output", "null", "--library", library])
    }

    @Test func detectedChaptersAreStoredOnYesEditedAndKeptThroughARescanAndAnExport() throws {
        // Given a library with one narrated book: five chapters 3 s apart, 0.4 s pauses inside them
        let (abplayer, library, folder, narration) = try Self.toldLibrary("repl-user-chapters")

        // When a script asks for detection without --yes: they are listed, not stored
        let unasked = try script(abplayer, library, "chapters detect Told")
        #expect(unasked.status == 0, "\(unasked.stderr)")
        #expect(unasked.stdoutString.contains("not stored: 'chapters detect --yes' stores them"), "\(unasked.stdoutString)")
        #expect(try Self.stored(library).isEmpty)

        // When the REPL asks and the listener goes on with a command instead: not stored, and the command runs
        let ignored = try Command.run(BuildProducts.abplayer.path, ["--output", "null", "--library", library],
                                      stdin: Data("play Told\npause\nchapters detect\nchapters\n".utf8), environment: abplayer.environment)
        #expect(ignored.status == 0, "\(ignored.stderr)")
        #expect(ignored.stdoutString.hasSuffix("store these 5 chapters? [y/N]\nnot stored\n"
            + "Told has no chapters (one file without chapter marks): use seek or +N/-N\n"), "\(ignored.stdoutString)")
        #expect(try Self.stored(library).isEmpty)

        // When the REPL detects them in the book playing, and the listener answers y
        let typed = "play Told\npause\nchapters detect\ny\nchapters\nchapter next\nstatus --json\n"
        let detected = try Command.run(BuildProducts.abplayer.path, ["--output", "null", "--library", library],
                                       stdin: Data(typed.utf8), environment: abplayer.environment)
        #expect(detected.status == 0, "\(detected.stderr)")
        let lines = detected.stdoutString.split(separator: "\n").map(String.init)

        // Then it listed five, one at the start and one before the sound after each long silence, and asked
        #expect(lines.contains("Told: 5 chapters, each starting 0.5s before the sound after a silence:"), "\(lines)")
        let listed = lines.filter { $0.wholeMatch(of: /\d\t[0-9:.]+\t\S+\t.*/) != nil }
        #expect(listed.count == 5, "\(lines)")
        #expect(lines.contains("store these 5 chapters? [y/N]"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("Told: stored 5 chapters as yours") }, "\(lines)")
        // and they are in the file, as the book's chapter list, said to be the listener's
        let rows = try Self.stored(library)
        #expect(rows.map { $0.split(separator: "@")[0] } == ["Chapter 1", "Chapter 2", "Chapter 3", "Chapter 4", "Chapter 5"], "\(rows)")
        #expect(lines.contains("Told: 5 chapters (your chapters)"), "\(lines)")
        // and `chapter next` landed where the second starts: 0.5 s before the end of the first long silence
        let status = try #require(lines.last { $0.hasPrefix("{") }.map { try JSONDecoder().decode(StatusJSON.self, from: Data($0.utf8)) })
        #expect(status.chapter == "Chapter 2")
        let landed = try #require(status.bookPosition)
        #expect(abs(landed - (narration.breaks[0].end - 0.5)) < 0.5, "\(landed) vs \(narration.breaks[0])")

        // When a script adds, renames and removes chapters
        let edited = try script(abplayer, library, "play Told; pause; chapter add 0:40 Finale; chapter rename 1 Opening; chapter rm 2")
        #expect(edited.status == 0, "\(edited.stderr)")
        #expect(edited.stdoutString.contains("added chapter 6 of 6 at 0:40: Finale"), "\(edited.stdoutString)")
        #expect(edited.stdoutString.contains("chapter 1 is now: Opening"), "\(edited.stdoutString)")
        // Then the file holds the edited list
        #expect(try Self.stored(library).map { $0.split(separator: "@")[0] } == ["Opening", "Chapter 3", "Chapter 4", "Chapter 5", "Finale"])
        #expect(try Self.stored(library).last == "Finale@\(40 * 22050)")

        // When bad edits are typed, each gets one line naming what to do, and nothing changes
        let before = try Self.stored(library)
        for (line, said) in [
            ("chapter rm 99", "chapter: there is no chapter 99 in Told: use 1–5 ('chapters' lists them)"),
            ("chapter add 99:00:00 X", "chapter: 99:00:00 is past the end of Told (0:41): give a time in the book"),
            ("chapter add 0:10 \"\"", "chapter add: the title is empty: give the chapter a name"),
        ] {
            let refused = try script(abplayer, library, "play Told; pause; \(line)")
            #expect(refused.status == 1, "\(line)")
            let errors = refused.stderr.split(separator: "\n")
            #expect(errors.count == 1 && errors[0] == said, "\(line): \(refused.stderr)")
        }
        #expect(try Self.stored(library) == before)

        // When the book's folder moves elsewhere and the library is rescanned
        let moved = abplayer.home.appending(path: "Elsewhere/Told (moved)")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: folder, to: moved)
        let rescan = try script(abplayer, library, "rescan Told \(abplayer.home.appending(path: "Elsewhere").path)")
        #expect(rescan.status == 0, "\(rescan.stderr)")
        // Then its chapters are still its own
        let listedAfter = try script(abplayer, library, "chapters Told")
        #expect(listedAfter.stdoutString.hasPrefix("Told: 5 chapters (your chapters)\n"), "\(listedAfter.stdoutString) \(listedAfter.stderr)")
        #expect(try Self.stored(library) == before)

        // When the state is exported and imported into a fresh library of the same file
        let state = abplayer.home.appending(path: "state.json")
        _ = try abplayer.run(["export", "--library", library, state.path]).requireSuccess()
        let fresh = abplayer.home.appending(path: "fresh.sqlite").path
        _ = try abplayer.run(["import", "--library", fresh, moved.path]).requireSuccess()
        _ = try abplayer.run(["import-state", "--library", fresh, state.path]).requireSuccess()
        // Then the fresh library's book (named after its new folder) has them
        #expect(try Self.stored(fresh) == before)

        // When they are reset, the book has no chapters again (one file without marks)
        let reset = try script(abplayer, fresh, "chapters reset Told; chapters Told")
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdoutString == "Told (moved): your chapters dropped; no chapters from its files\n"
                + "Told (moved) has no chapters (one file without chapter marks): use seek or +N/-N\n", "\(reset.stdoutString)")
        #expect(try Self.stored(fresh).isEmpty)
    }

    @Test func detectionTypedAtATerminalRunsBesideTheREPLAndAsksWhenItIsDone() throws {
        // Given the REPL at a terminal, playing a narrated book of five chapters
        let (abplayer, library, _, _) = try Self.toldLibrary("repl-chapters-terminal")
        let terminal = try ReplTerminalTests.terminal(abplayer, library: library, name: "chapters")
        defer { terminal.stop() }
        #expect(terminal.waitFor("abplayer />") != nil, "\(terminal.screen())")
        try terminal.send("play Told", "Enter")
        #expect(terminal.waitFor("playing #1 Told") != nil, "\(terminal.screen())")

        // When the listener types `chapters detect`, and another command straight after
        try terminal.send("chapters detect", "Enter", "volume 90", "Enter")

        // Then the REPL said detection goes on beside it, ran the next command, and when the
        // detection ended listed the five chapters and asked
        #expect(terminal.waitFor("store these 5 chapters? [y/N]", timeout: 60) != nil, "\(terminal.screen())")
        #expect(terminal.waitFor("volume 90%") != nil, "\(terminal.screen())")
        var screen = ReplTerminalTests.joinedScreen(terminal)
        #expect(screen.contains("Told: detecting chapters in its file; playing and the REPL go on"), "\(screen)")
        #expect(screen.contains("Told: 5 chapters, each starting 0.5s before the sound after a silence:"), "\(screen)")
        #expect(try Self.stored(library).isEmpty)
        // (On a loaded machine the detection can end before the REPL reads the line typed after
        // it: the question comes first, and the command answers no, as a command does. Asked
        // again, with nothing typed ahead, the next line is the answer.)
        if screen.contains("not stored") {
            try terminal.send("chapters detect", "Enter")
            screen = terminal.waitUntil(timeout: 60) {
                $0.components(separatedBy: "abplayer /> chapters detect").last?.contains("store these 5 chapters? [y/N]") == true
            } ?? ""
            #expect(!screen.isEmpty, "\(terminal.screen())")
        }

        // When the listener answers y, then they are stored as the listener's
        try terminal.send("y", "Enter")
        #expect(terminal.waitFor("Told: stored 5 chapters as yours") != nil, "\(terminal.screen())")
        #expect(try Self.stored(library).count == 5)
        try terminal.send("quit", "Enter")
    }
}
