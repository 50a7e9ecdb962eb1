import Foundation
import TestSupport
import Testing

/// Bookmarks and defaults through the real binary: `-c` scripts against a library file, each run
/// a new player, read back with the `abplayer` subcommands. Books play in real time to the null output.
@Suite(.serialized) struct ReplBookmarksAndDefaultsTests {
    struct StatusJSON: Decodable {
        let bookPosition: Double?
        let speed: Double
        let speedSource: String
        let skipInterval: Double
        let skipSource: String
    }

    struct BookmarkJSON: Decodable {
        let id: Int64
        let kind: String
        let note: String?
    }

    static func statuses(_ result: CommandResult) throws -> [StatusJSON] {
        try result.stdoutString.split(separator: "\n").filter { $0.hasPrefix("{") }.map {
            try JSONDecoder().decode(StatusJSON.self, from: Data($0.utf8))
        }
    }

    static func bookmarks(_ abplayer: AbplayerProcess, library: String) throws -> [BookmarkJSON] {
        let result = try abplayer.run(["bookmarks", "--json", "--library", library, "Ender"]).requireSuccess()
        return try result.stdoutString.split(separator: "\n").map { try JSONDecoder().decode(BookmarkJSON.self, from: Data($0.utf8)) }
    }

    func script(_ abplayer: AbplayerProcess, _ library: String, _ commands: String) throws -> CommandResult {
        try abplayer.run(["-c", commands, "--output", "null", "--library", library])
    }

    @Test func inAScriptASemicolonEndsABookmarksNote() throws {
        // Given a book, and a script that bookmarks, seeks and asks for the status
        let (abplayer, library) = try ReplTests.library("repl-script-note")
        let result = try script(abplayer, library, "play Ender; pause; bookmark first; seek 0:30; status --json")
        // Then the bookmark's note is "first", and the seek and the status ran after it
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.bookmarks(abplayer, library: library).map(\.note) == ["first"])
        let status = try #require(try ReplTests.statuses(result).last, "\(result.stdoutString)")
        #expect(abs((status.bookPosition ?? 0) - 30) < 0.5, "\(result.stdoutString)")
    }

    @Test func aDefaultSpeedAppliesToABookWithoutItsOwnAndTheBooksOwnWins() throws {
        // Given a book with no settings, and the listener's default speed set once
        let (abplayer, library) = try ReplTests.library("repl-defaults")
        let set = try script(abplayer, library, "set speed 1.3; set skip 20; set")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdoutString.hasPrefix("default speed 1.3x\ndefault skip 20 s\nspeed   1.3x\nskip    20 s\n"), "\(set.stdoutString)")

        // When a new player plays the book
        let first = try script(abplayer, library, "play Ender; status --json; status")
        // Then the default applies, and status says so
        #expect(first.status == 0, "\(first.stderr)")
        let status = try #require(try Self.statuses(first).first, "\(first.stdoutString)")
        #expect(status.speed == 1.3 && status.speedSource == "default")
        #expect(status.skipInterval == 20 && status.skipSource == "default")
        #expect(first.stdoutString.contains("speed 1.3x (default)  skip 20 s (default)"), "\(first.stdoutString)")

        // When the book is given its own speed, it wins in the next run too
        _ = try script(abplayer, library, "play Ender; speed 1.5").requireSuccess()
        let own = try #require(try Self.statuses(try script(abplayer, library, "play Ender; status --json")).first)
        #expect(own.speed == 1.5 && own.speedSource == "book")
        let settings = try abplayer.run(["book", "settings", "--library", library, "Ender"]).requireSuccess()
        #expect(settings.stdoutString.contains("speed 1.5x, skip 20 s (default)"), "\(settings.stdoutString)")

        // When `book settings --speed default` clears it, the default applies again
        let cleared = try abplayer.run(["book", "settings", "--library", library, "Ender", "--speed", "default"]).requireSuccess()
        #expect(cleared.stdoutString.contains("speed 1.3x (default)"), "\(cleared.stdoutString)")
        let again = try #require(try Self.statuses(try script(abplayer, library, "play Ender; status --json")).first)
        #expect(again.speed == 1.3 && again.speedSource == "default")

        // When a sleep default is set, the next start arms it and says so, right after the started line
        let armed = try script(abplayer, library, "set sleep 20m; play Ender")
        let said = armed.stdoutString.split(separator: "\n").map(String.init)
        #expect(said.count == 3 && said[1].hasPrefix("playing #1 Ender's Game")
                && said[2] == "sleep timer: 20:00 left (your default; 'sleep off' cancels it)", "\(said)")
    }

    @Test func aBookmarkIsListedAsMadeJumpedToAndUndoneThenNotedAndRemovedInTheFile() throws {
        // Given a book, bookmarked at a fractional second (25.6 s: item 2, 5.6 s in)
        let (abplayer, library) = try ReplTests.library("repl-bookmarks")
        // (a note is the rest of the line: `bookmarks` goes on a line of its own)
        let made = try Command.run(BuildProducts.abplayer.path, ["--output", "null", "--library", library],
                                   stdin: Data("play Ender\npause\nseek 0:25.6\nbookmark the duel\nbookmarks\n".utf8),
                                   environment: abplayer.environment)
        #expect(made.status == 0, "\(made.stderr)")
        let lines = made.stdoutString.split(separator: "\n").map(String.init)
        let said = try #require(lines.first { $0.hasPrefix("bookmark ") }, "\(lines)")
        let match = try #require(said.wholeMatch(of: /bookmark 1 at (\S+): the duel/), "\(said)")
        let time = String(match.1)

        // Then the time said is the time listed, by the REPL and by `abplayer bookmarks` alike
        #expect(time == "0:25")
        #expect(lines.contains("1  \(time)  chapter 2: Part 2  the duel"), "\(lines)")
        let listed = try abplayer.run(["bookmarks", "--library", library, "Ender"]).requireSuccess()
        #expect(listed.stdoutString == "1  \(time)  chapter 2: Part 2  the duel\n")

        // When a new player goes elsewhere, jumps to it and undoes the jump
        let jumped = try script(abplayer, library, "play Ender; pause; seek 0:05; jump 1; status --json; undo; status --json")
        #expect(jumped.status == 0, "\(jumped.stderr)")
        let positions = try Self.statuses(jumped).map { $0.bookPosition ?? -1 }
        // Then it was there, and undo came back
        #expect(positions.count == 2 && abs(positions[0] - 25.6) < 0.05 && abs(positions[1] - 5) < 0.05, "\(positions)")
        #expect(jumped.stdoutString.contains("at bookmark 1 (the duel): 0:25 / 0:40 (64%) · chapter 2/2: Part 2, 0:05 / 0:20; 'undo' goes back"),
                "\(jumped.stdoutString)")
        // and an unknown number names the valid ones
        let unknown = try script(abplayer, library, "play Ender; jump 999")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no bookmark 999 in Ender's Game: its one bookmark is 1"), "\(unknown.stderr)")

        // When its note is replaced (in a script, a note with a `;` is quoted: an unquoted `;`
        // ends it as it ends any command), it is so in the file
        _ = try script(abplayer, library, "play Ender; bookmark note 1 \"Don't forget; the duel\"").requireSuccess()
        #expect(try Self.bookmarks(abplayer, library: library).map(\.note) == ["Don't forget; the duel"])
        // and a note that starts like a command is a note when quoted (made at the start: bookmark 1 now)
        _ = try script(abplayer, library, "play Ender; seek 0; bookmark \"rm 1\"").requireSuccess()
        #expect(try Self.bookmarks(abplayer, library: library).map(\.note) == ["rm 1", "Don't forget; the duel"])

        // When 2 is removed, it is gone from the file
        let removed = try script(abplayer, library, "play Ender; bookmark rm 2")
        #expect(removed.stdoutString.hasSuffix("removed bookmark 2 at \(time)\n"), "\(removed.stdoutString) \(removed.stderr)")
        #expect(try Self.bookmarks(abplayer, library: library).map(\.note) == ["rm 1"])
    }
}
