import Foundation
import TestSupport
import Testing

/// Plain mode on a second terminal: the REPL of a second `abplayer` on a library whose player
/// already runs (here a daemon) sends its lines over the control socket, and in plain mode it
/// also says what the player did by itself and what other clients did, as the player's own
/// terminal would: a screen reader's listener at that terminal hears a new chapter, a pause from
/// a media key, the end of the book.
@Suite struct PlainClientTests {
    @Test func aPlainClientReplHearsTheChaptersOthersActionsAndTheEndButNotItsOwnAnswersTwice() throws {
        // Given a daemon on a library with a book of three chapters (8 s, 3 s and 3 s), and a
        // client REPL in plain mode on a terminal that could draw screens
        let fixture = try ControlFixture("plain-client")
        defer { fixture.cleanUp() }
        _ = try PlainModeTests.library(fixture.abplayer)
        let daemon = try DaemonProcess(fixture, output: "null")
        defer { _ = daemon.stop() }
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let session = try PlainModeTests.Session(fixture.abplayer, name: "plain-client", arguments: ["--plain", "--library", fixture.library],
                                                 runtime: fixture.runtime)
        defer { session.terminal.stop() }
        #expect(session.waitForLine("abplayer — a player already runs on this library; .*"), "\(session.lines)")

        // When the book is played from this terminal, and once it reached its second chapter
        // another client pauses it, bookmarks and plays on, and it plays to its end
        try session.type("play Plain Book")
        #expect(session.waitForLine("playing #2 Plain Book from 0:00 \\(item 1/3\\) through null"), "\(session.lines)")
        #expect(session.waitForLine("chapter 2: 02"), "\(session.lines)")
        #expect(try fixture.remote(["pause"]).status == 0)
        #expect(session.waitForLine("paused at 0:\\d\\d / 0:14 .*"), "\(session.lines)")
        #expect(try fixture.remote(["bookmark"]).status == 0)
        #expect(session.waitForLine("bookmark 1 at 0:\\d\\d"), "\(session.lines)")
        #expect(try fixture.remote(["play"]).status == 0)
        #expect(session.waitForLine("Plain Book: the end .*"), "\(session.lines)")
        try session.type("quit")

        // Then this terminal said, in order, its own answer once, each chapter reached, what the
        // other client did with the places, and the end, with nothing else and no byte that
        // moves the cursor
        let said = session.lines.filter { !["play Plain Book", "quit"].contains($0) }
        let expected = [
            "abplayer — a player already runs on this library; .*",
            "playing #2 Plain Book from 0:00 \\(item 1/3\\) through null",
            "chapter 2: 02",
            "paused at 0:\\d\\d / 0:14 \\(\\d+%\\) · chapter 2/3: 02, 0:0\\d / 0:03",
            "bookmark 1 at 0:\\d\\d",
            "playing from 0:\\d\\d / 0:14 \\(\\d+%\\) · chapter 2/3: 02, 0:0\\d / 0:03",
            "chapter 3: 03",
            "Plain Book: the end \\(finished\\); 'play' or space starts it again",
        ]
        #expect(said.count == expected.count, "\(said)")
        for (line, pattern) in zip(said, expected) {
            #expect((try? Regex(pattern).wholeMatch(in: line)) != nil, "\(line) is not \(pattern): \(said)")
        }
        #expect(PlainModeTests.plain(session.bytes), "\(Array(session.bytes))")
        // and the greeting came before the first prompt, not after it
        #expect(String(decoding: session.bytes, as: UTF8.self).hasPrefix("abplayer — a player already runs on this library"))
    }

    @Test func aPlainClientReplHearsWhatIsTypedAtThePlayersOwnTerminal() throws {
        // Given a player's REPL (its commands on a pipe) with the book playing, and a client
        // REPL in plain mode beside it
        let abplayer = try AbplayerProcess("plain-client-face")
        let library = try PlainModeTests.library(abplayer)
        let runtime = try PlainModeTests.runtimeDirectory(abplayer)
        let player = try ReplPipeProcess(abplayer, arguments: ["--output", "null", "--library", library], environment: ["XDG_RUNTIME_DIR": runtime])
        defer { player.quit() }
        player.send("play Plain Book")
        #expect(player.waitForLine(containing: "playing #1 Plain Book") != nil, "\(player.stdoutLines) \(player.stderrLines)")
        let session = try PlainModeTests.Session(abplayer, name: "plain-client-face", arguments: ["--plain", "--library", library], runtime: runtime)
        defer { session.terminal.stop() }
        #expect(session.waitForLine("abplayer — a player already runs on this library; .*"), "\(session.lines)")

        // When the player's own lines pause it and bookmark there
        player.send("pause")
        player.send("bookmark by the player")

        // Then the client says both, with the place, as its own answers would read
        #expect(session.waitForLine("paused at 0:0\\d / 0:14 .*"), "\(session.lines)")
        #expect(session.waitForLine("bookmark 1 at 0:0\\d: by the player"), "\(session.lines)")
        try session.type("quit")
        #expect(PlainModeTests.plain(session.bytes), "\(Array(session.bytes))")
    }
}
