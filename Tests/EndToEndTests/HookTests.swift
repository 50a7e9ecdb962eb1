import Foundation
import TestSupport
import Testing

/// Event hooks through the real binary: executables in `$XDG_CONFIG_HOME/abplayer/hooks` named
/// after events, run by a REPL (commands on a pipe, or `-c`) playing to the null output in real
/// time. The hooks record their environment in files; the tests wait for those files.
@Suite(.serialized) struct HookTests {
    static let events = ["started", "paused", "resumed", "chapter", "bookmark", "sleep", "finished", "output-lost", "synced"]

    @Test func eachEventRunsItsHookWithTheBookTheChapterAndThePlace() throws {
        // Given a book of two 20 s files, and a recording hook for every event
        let (abplayer, library) = try ReplTests.library("hooks-events")
        let hooks = try HookFolder(abplayer)
        try hooks.record(Self.events)
        let repl = try ReplPipeProcess(abplayer, arguments: ["--output", "null", "--library", library])
        defer { repl.quit() }

        // When the book is played, paused and bookmarked (auto-rewind off: a slow machine's long
        // pause would move where it resumes)
        repl.send("rewind off")
        repl.send("play Ender")
        let started = try #require(hooks.waitFor("started"), "\(repl.stderrLines)")
        #expect(waitUntil(within: 30) { (repl.status()?.bookPosition ?? 0) > 0.5 })
        repl.send("pause")
        let paused = try #require(hooks.waitFor("paused"))
        repl.send("bookmark the duel")
        let bookmark = try #require(hooks.waitFor("bookmark"))

        // Then each hook was given the book, its file, the state and the place
        #expect(started["EVENT"] == "started" && started["BOOK"] == "Ender's Game" && started["BOOK_ID"] == "1")
        #expect(started["STATE"] == "playing" && started["ITEM_NUMBER"] == "1" && started["ITEM_COUNT"] == "2")
        #expect(started["FILE"]?.hasSuffix("/Listen Book/Part 1.mp3") == true, "\(started.variables)")
        #expect(started["CHAPTER_NUMBER"] == "1" && started["CHAPTER_COUNT"] == "2" && started["AUTHOR"] != nil)
        #expect(abs((started.number("DURATION") ?? 0) - 40) < 0.2 && started["DURATION_TEXT"] == "0:40")
        #expect(paused["STATE"] == "paused" && (paused.number("POSITION") ?? -1) > 0.5 && (paused.number("POSITION") ?? 99) < 10)
        #expect(paused["POSITION_TEXT"]?.hasPrefix("0:0") == true, "\(paused.variables)")
        #expect(bookmark["BOOKMARK_NOTE"] == "the duel" && bookmark["BOOKMARK_NUMBER"] == "1" && bookmark["STATE"] == "paused")
        #expect(abs((bookmark.number("POSITION") ?? 0) - (paused.number("POSITION") ?? 99)) < 0.5, "\(bookmark.variables)")

        // When it plays on from 0:18 with the sleep timer set to the end of the file
        repl.send("seek 0:18")
        repl.send("sleep item")
        repl.send("play")
        let resumed = try #require(hooks.waitFor("resumed"))
        let sleep = try #require(hooks.waitFor("sleep"))
        // Then it resumed there, and the sleep timer's hook ran where it paused, at the file's end
        #expect(abs((resumed.number("POSITION") ?? 0) - 18) < 0.5 && resumed["STATE"] == "playing", "\(resumed.variables)")
        #expect(abs((sleep.number("POSITION") ?? 0) - 20) < 0.5 && sleep["STATE"] == "paused", "\(sleep.variables)")
        #expect(hooks.waitFor("paused", count: 2) != nil)

        // When it plays the last two seconds of the second file
        repl.send("seek 0:38")
        repl.send("play")
        let chapter = try #require(hooks.waitFor("chapter"))
        let finished = try #require(hooks.waitFor("finished"))
        // Then the second chapter (its file) and the end ran their hooks
        #expect(chapter["CHAPTER_NUMBER"] == "2" && chapter["FILE"]?.hasSuffix("/Part 2.mp3") == true, "\(chapter.variables)")
        #expect(finished["STATE"] == "finished" && abs((finished.number("POSITION") ?? 0) - 40) < 0.5, "\(finished.variables)")
        // and nothing ran twice that happened once, nor was any hook said to have failed
        #expect(hooks.records(of: "started").count == 1 && hooks.records(of: "finished").count == 1 && hooks.records(of: "bookmark").count == 1)
        #expect(!repl.stderrLines.contains { $0.contains("hook") }, "\(repl.stderrLines)")
    }

    @Test func aHookThatHangsDelaysNeitherTheNextHookNorPlayingAndIsKilledAtItsLimit() throws {
        // Given a `paused` hook that never ends (it says its pid), a recording `resumed` hook, and
        // a time limit of 10 s
        let (abplayer, library) = try ReplTests.library("hooks-hang")
        let hooks = try HookFolder(abplayer)
        try hooks.write("paused", """
            #!/bin/sh
            echo $$ > '\(hooks.records.path)/.pid'
            mv '\(hooks.records.path)/.pid' '\(hooks.records.path)/hanging-'$$
            exec sleep 1000
            """)
        try hooks.record(["resumed"])
        let repl = try ReplPipeProcess(abplayer, arguments: ["--output", "null", "--library", library],
                                       environment: ["ABPLAYER_HOOK_TIMEOUT": "10"])
        defer { repl.quit() }
        func hanging() -> [pid_t] {
            ((try? FileManager.default.contentsOfDirectory(atPath: hooks.records.path)) ?? [])
                .filter { $0.hasPrefix("hanging-") }.compactMap { pid_t($0.dropFirst("hanging-".count)) }
        }
        func isRunning(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

        // When the book plays, is paused (its hook hangs) and plays on
        repl.send("play Ender")
        #expect(waitUntil(within: 30) { (repl.status()?.bookPosition ?? 0) > 0.5 })
        repl.send("pause")
        #expect(waitUntil(within: 30) { hanging().count == 1 })
        let hung = try #require(hanging().first)
        repl.send("play")

        // Then the next event's hook ran while the first still hangs
        #expect(hooks.waitFor("resumed") != nil)
        #expect(isRunning(hung), "the hanging hook ended before the next hook ran")
        // and the book plays on
        let resumedAt = try #require(repl.status()?.bookPosition)
        #expect(waitUntil(within: 30) { (repl.status()?.bookPosition ?? 0) > resumedAt + 1 })

        // When its time limit passes, it is killed, and said so in one line naming it
        #expect(waitUntil(within: 60) { !isRunning(hung) }, "the hanging hook still runs")
        let said = try #require(repl.waitForErrorLine(containing: "/paused (paused)"))
        #expect(said.hasPrefix("abplayer: hook \(hooks.directory.path)/paused (paused): still running after 10 s: killed"), "\(said)")

        // When it hangs again and is killed again
        repl.send("pause")
        #expect(waitUntil(within: 30) { hanging().count == 2 })
        let again = try #require(hanging().first { $0 != hung })
        #expect(waitUntil(within: 60) { !isRunning(again) }, "the second hanging hook still runs")
        // Then its failure was said once in the run (a status asked after it ended comes after
        // anything it had to say)
        _ = repl.status()
        #expect(repl.stderrLines.filter { $0.contains("/paused (paused)") }.count == 1, "\(repl.stderrLines)")
    }

    @Test func aHookThatIsNotExecutableOrIsWritableByItsGroupIsRefusedWithItsReason() throws {
        // Given a `paused` hook that is not executable and a `started` one its group may write,
        // and a recording `bookmark` hook
        let (abplayer, library) = try ReplTests.library("hooks-refused")
        let hooks = try HookFolder(abplayer)
        try hooks.record(["started", "paused", "bookmark"])
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: hooks.directory.appending(path: "paused").path)
        try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: hooks.directory.appending(path: "started").path)

        // When a script plays, pauses and bookmarks the book
        let result = try abplayer.run(["-c", "play Ender; pause; bookmark", "--output", "null", "--library", library])

        // Then each refused hook was said in one line naming it and why, and the script went on
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            "abplayer: hook \(hooks.directory.path)/started refused: the file is writable by its group (mode 775); running it would run the group's code: chmod g-w",
            "abplayer: hook \(hooks.directory.path)/paused refused: not executable (mode 644): chmod u+x",
        ], "\(lines)")
        // and the good hook ran, the refused ones not (they would have run before it: hooks start
        // in the order of their events)
        #expect(hooks.waitFor("bookmark") != nil)
        #expect(hooks.records(of: "started").isEmpty && hooks.records(of: "paused").isEmpty)
    }

    @Test func aHookThatCannotRunIsSaidOnceARunWithWhatToDo() throws {
        // Given a `paused` hook that is a script without its #! line
        let (abplayer, library) = try ReplTests.library("hooks-cannot-run")
        let hooks = try HookFolder(abplayer)
        try hooks.write("paused", "echo paused")

        // When a script pauses twice (the second as the script ends)
        let result = try abplayer.run(["-c", "play Ender; pause; play; pause", "--output", "null", "--library", library])

        // Then the script succeeded, and the failure was said once, in one line naming the hook
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "abplayer: hook \(hooks.directory.path)/paused (paused): cannot run: Exec format error (a script must start with a #! line naming its interpreter); its later failures in this run are not said",
        ], "\(result.stderr)")
    }

    @Test func aHookMadeWritableByItsGroupAfterTheStartIsRefusedAtItsNextRun() throws {
        // Given a player started with a good recording `bookmark` hook, and a book loaded
        let (abplayer, library) = try ReplTests.library("hooks-recheck")
        let hooks = try HookFolder(abplayer)
        try hooks.record(["bookmark"])
        let hook = hooks.directory.appending(path: "bookmark").path
        let repl = try ReplPipeProcess(abplayer, arguments: ["--output", "null", "--library", library])
        defer { repl.quit() }
        repl.send("play Ender")
        repl.send("pause")
        #expect(repl.status()?.state == "paused")

        // When the hook is made writable by its group, and a bookmark is made
        try FileManager.default.setAttributes([.posixPermissions: 0o775], ofItemAtPath: hook)
        repl.send("bookmark first")

        // Then it is refused in one line saying why, and does not run
        let said = try #require(repl.waitForErrorLine(containing: "(bookmark): refused"), "\(repl.stderrLines)")
        #expect(said == "abplayer: hook \(hook) (bookmark): refused: the file is writable by its group (mode 775); running it would run the group's code: chmod g-w; its later failures in this run are not said")
        #expect(hooks.records(of: "bookmark").isEmpty)

        // When it is made ours alone again: it runs at the next bookmark
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook)
        repl.send("bookmark second")
        #expect(hooks.waitFor("bookmark")?["BOOKMARK_NOTE"] == "second")
    }

    @Test func losingTheSoundServerWhilePlayingRunsTheOutputLostHook() throws {
        // Given a book playing to a private PulseAudio, and a recording `output-lost` hook
        let server = try PulseServer()
        defer { server.stop() }
        let (abplayer, library) = try ReplTests.library("hooks-output-lost")
        let hooks = try HookFolder(abplayer)
        try hooks.record(["output-lost"])
        let repl = try ReplPipeProcess(abplayer, arguments: ["--output", "pulse", "--library", library], environment: server.environment)
        defer { repl.quit() }
        repl.send("play Ender")
        #expect(waitUntil(within: 30) { (repl.status()?.bookPosition ?? 0) > 1 }, "\(repl.stderrLines)")

        // When the server dies
        server.stop()

        // Then the hook ran with what the output said, the book and the place it kept
        let lost = try #require(hooks.waitFor("output-lost"), "\(repl.stderrLines)")
        #expect(lost["EVENT"] == "output-lost" && lost["BOOK"] == "Ender's Game" && lost["OUTPUT"] == "pulse", "\(lost.variables)")
        #expect(lost["MESSAGE"]?.isEmpty == false, "\(lost.variables)")
        #expect((lost.number("POSITION") ?? 0) > 1, "\(lost.variables)")
    }

    @Test func anExchangeWithTheSyncFolderThatChangedSomethingRunsTheSyncedHook() throws {
        // Given library B (the fixture's, "Code") and library A of a copy of the same book, both
        // syncing through one folder, and A's bookmark sent there
        let fixture = try ControlFixture("hooks-sync")
        defer { fixture.cleanUp() }
        let abplayer = fixture.abplayer
        let pair = try SyncPair(fixture)
        let libraryA = pair.libraryA
        func run(_ arguments: [String], on library: String) throws -> CommandResult { try pair.run(arguments, on: library) }
        try pair.nameTheFolder()
        _ = try run(["bookmarks", "add", "Code", "--at", "5", "--note", "the duel"], on: libraryA).requireSuccess()
        _ = try run(["sync", "now"], on: libraryA).requireSuccess()
        let hooks = try HookFolder(abplayer)
        try hooks.record(["synced"])

        // When B's player starts (it exchanges with the folder as it starts)
        let repl = try ReplPipeProcess(abplayer, arguments: ["--output", "null", "--library", fixture.library],
                                       environment: ["XDG_RUNTIME_DIR": fixture.environment["XDG_RUNTIME_DIR"] ?? ""])
        defer { repl.quit() }

        // Then its `synced` hook was told what the exchange brought
        let synced = try #require(hooks.waitFor("synced"), "out: \(repl.stdoutLines) err: \(repl.stderrLines)")
        #expect(synced["MESSAGE"]?.contains("bookmarks from other devices: 1 added") == true, "\(synced.variables)")
        #expect(synced["EVENT"] == "synced")

        // When A sends another bookmark and B's player is asked to sync now
        _ = try run(["bookmarks", "add", "Code", "--at", "8", "--note", "the end"], on: libraryA).requireSuccess()
        _ = try run(["sync", "now"], on: libraryA).requireSuccess()
        repl.send("sync now")
        // Then the hook ran again, told of that one
        let again = try #require(hooks.waitFor("synced", count: 2), "out: \(repl.stdoutLines) err: \(repl.stderrLines)")
        #expect(again["MESSAGE"]?.contains("bookmarks from other devices: 1 added") == true, "\(again.variables)")
    }
}
