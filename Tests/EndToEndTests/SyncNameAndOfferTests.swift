import Foundation
import TestSupport
import Testing

/// Two libraries of the same book sharing a sync folder, as two computers would: each computer
/// is named (`sync name`), shown once by that name; a place from the other is offered only while
/// it is ahead of what was heard here since; a journal of the previous format is still read.
@Suite struct SyncNameAndOfferTests {
    /// Library B (the fixture's, "Code", 20 s), library A of a copy of the same book elsewhere, both syncing through one folder.
    static func twoComputers(_ name: String) throws -> SyncPair {
        let pair = try SyncPair(ControlFixture(name, seconds: 20))
        try pair.nameTheFolder()
        return pair
    }

    @Test func aComputerNamedLaptopIsShownOnceByThatNameOnTheOther() throws {
        // Given two computers, A having journalled several places
        let two = try Self.twoComputers("sync-name")
        defer { two.fixture.cleanUp() }
        let (a, b) = (two.libraryA, two.fixture.library)
        for second in [3, 5, 7] {
            _ = try two.onA("play Code; seek 0:0\(second); pause")
            _ = try two.run(["sync", "now"], on: a).requireSuccess()
        }

        // When A is named with a terminal escape in it, and B syncs
        _ = try two.run(["sync", "name", "kitchen\u{1B}[2J"], on: a).requireSuccess()
        _ = try two.run(["sync", "now"], on: b).requireSuccess()
        let escaped = try two.run(["sync", "status"], on: b).requireSuccess().stdoutString

        // Then B shows the name without the escape working on its terminal
        #expect(escaped.contains("kitchen") && !escaped.contains("\u{1B}"), "status: \(escaped)")

        // When A is named laptop (with spaces around), and B syncs
        let named = try two.run(["sync", "name", "  laptop "], on: a).requireSuccess()
        _ = try two.run(["sync", "now"], on: b).requireSuccess()
        let status = try two.run(["sync", "status"], on: b).requireSuccess().stdoutString

        // Then A says its name (trimmed), asked alone too, and B's status shows it once, with its place, no id beside it
        #expect(named.stdoutString.contains("this computer is called laptop "), "\(named.stdoutString)")
        #expect(try two.run(["sync", "name"], on: a).stdoutString.contains("called laptop "))
        let lines = status.split(separator: "\n")
        #expect(lines.filter { $0.contains("laptop") }.count == 1 && status.contains("laptop  0:07"), "status: \(status)")
        #expect(!status.contains("laptop (") && !status.contains("kitchen"), "status: \(status)")

        // When a name is empty or too long, then it is refused in one line and the name stays
        for bad in ["   ", String(repeating: "x", count: 41)] {
            let refused = try two.run(["sync", "name", bad], on: a)
            #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1 && refused.stderr.hasPrefix("abplayer: "),
                    "\(refused.stderr)")
        }
        #expect(try two.run(["sync", "name"], on: a).stdoutString.contains("called laptop "))

        // When B names itself at its prompt, and A syncs, then A shows B by that name
        let prompt = try Command.run(BuildProducts.abplayer.path, ["repl", "--library", b, "-c", "sync name den"],
                                     environment: two.fixture.environment, timeout: 60).requireSuccess()
        #expect(prompt.stdoutString.contains("this computer is called den "), "\(prompt.stdoutString)")
        _ = try two.run(["sync", "now"], on: b).requireSuccess()
        _ = try two.run(["sync", "now"], on: a).requireSuccess()
        #expect(try two.run(["sync", "status"], on: a).stdoutString.contains("den  "))

        // When A takes the same name, then B tells it apart by a short id, its first characters
        _ = try two.run(["sync", "name", "den"], on: a).requireSuccess()
        let same = try two.run(["sync", "status"], on: b).requireSuccess().stdoutString
        let short = String(try two.device(of: a).prefix(4))
        #expect(same.contains("den (\(short))") && same.split(separator: "\n").filter { $0.hasPrefix("  den") }.count == 1, "status: \(same)")
    }

    @Test func aPlaceIsOfferedOnlyWhileItIsAheadOfWhatWasHeardHereSince() throws {
        // Given two computers, B's player running with the book loaded and paused
        let two = try Self.twoComputers("sync-offer")
        defer { two.fixture.cleanUp() }
        let fixture = two.fixture
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket { fixture.socketPath() }, "\(daemon.log)")
        _ = try fixture.remote(["play", "Code"]).requireSuccess()
        _ = try fixture.remote(["pause"]).requireSuccess()

        // When A listens to 0:06 and B syncs, then B is offered 0:06 and goes there
        _ = try two.onA("play Code; seek 0:06; pause")
        _ = try fixture.remote(["sync", "now"]).requireSuccess()
        let jumped = try fixture.remote(["sync", "jump"])
        #expect(jumped.status == 0 && jumped.stdoutString.contains("0:06"), "out: \(jumped.stdoutString) err: \(jumped.stderr)")

        // When B listens on past 0:08
        _ = try fixture.remote(["play"]).requireSuccess()
        #expect(try fixture.status(within: 60) { ($0.bookPosition ?? 0) >= 8.2 } != nil)
        _ = try fixture.remote(["pause"]).requireSuccess()

        // Then A's 0:06 is not offered again
        _ = try fixture.remote(["sync", "now"]).requireSuccess()
        #expect(try fixture.remote(["sync", "jump"]).status != 0)

        // When A goes back to a place behind B's, later than B listened (as a rewind at start dates one anew)
        _ = try two.onA("play Code; seek 0:07; pause")
        _ = try fixture.remote(["sync", "now"]).requireSuccess()

        // Then it is not offered: B has heard past it since it went to A's place
        let behind = try fixture.remote(["sync", "jump"])
        #expect(behind.status != 0 && behind.stderr.contains("no other device has a later place"), "out: \(behind.stdoutString) err: \(behind.stderr)")

        // When A listens on to 0:15, then B is offered 0:15
        _ = try two.onA("play Code; seek 0:15; pause")
        _ = try fixture.remote(["sync", "now"]).requireSuccess()
        let ahead = try fixture.remote(["sync", "jump"])
        #expect(ahead.status == 0 && ahead.stdoutString.contains("0:15"), "out: \(ahead.stdoutString) err: \(ahead.stderr)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test func aCopiedLibraryThatTakesADeviceOfItsOwnIsListedOnceAndLeavesTheOriginalsJournalAlone() throws {
        // Given A syncing, and a copy of A's library file made before A's latest listening (as a
        // second computer set up from a backup), so that the copy finds A's journal not as it left it
        let two = try Self.twoComputers("sync-copy")
        defer { two.fixture.cleanUp() }
        _ = try two.onA("play Code; seek 0:02; pause")
        let deviceA = try two.device(of: two.libraryA)
        let copy = two.fixture.abplayer.home.appending(path: "copy/library.sqlite").path
        try FileManager.default.createDirectory(at: two.fixture.abplayer.home.appending(path: "copy"), withIntermediateDirectories: true)
        // The file with its write-ahead log, where A's last exchange may still be.
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: two.libraryA + suffix) {
            try FileManager.default.copyItem(atPath: two.libraryA + suffix, toPath: copy + suffix)
        }
        _ = try two.onA("play Code; seek 0:03; pause")

        // When the copy's player listens and quits at once, and A syncs
        _ = try Command.run(BuildProducts.abplayer.path, ["repl", "--library", copy, "--output", "null", "-c", "play Code; seek 0:11; pause"],
                            environment: two.fixture.environment, timeout: 60).requireSuccess()
        let synced = try two.run(["sync", "now"], on: two.libraryA).requireSuccess()

        // Then the copy took a device of its own and wrote only its journal: A is still itself,
        // and B lists two other computers, each once
        #expect(!synced.stderr.contains("another copy"), "\(synced.stderr)")
        #expect(try two.device(of: two.libraryA) == deviceA)
        let deviceCopy = try two.device(of: copy)
        #expect(deviceCopy != deviceA)
        let status = try two.run(["sync", "status"], on: two.fixture.library).requireSuccess().stdoutString
        let others = status.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("  here") }
        #expect(others.count == 2 && others.filter { $0.contains(" 0:11 ") }.count == 1, "status: \(status)")
    }

    @Test func aJournalOfThePreviousFormatIsStillRead() throws {
        // Given a computer's journal as the previous version wrote it (version 1, its name only in
        // its header), made from A's: the same book and place
        let two = try Self.twoComputers("sync-old")
        defer { two.fixture.cleanUp() }
        _ = try two.onA("play Code; seek 0:09; pause")
        let deviceA = try two.device(of: two.libraryA)
        let written = try String(contentsOf: two.shared.appending(path: deviceA + ".abplayer-journal"), encoding: .utf8)
        let records = written.split(separator: "\n").dropFirst().filter { $0.hasPrefix("B\t") || $0.hasPrefix("P\t") }
        #expect(records.count >= 2, "\(written)")
        let old = "abplayer-journal\t1\tOLD-DESK\tdesk\n" + records.joined(separator: "\n") + "\n"
        try Data(old.utf8).write(to: two.shared.appending(path: "OLD-DESK.abplayer-journal"))

        // When B looks at where the others are
        let status = try two.run(["sync", "status"], on: two.fixture.library).requireSuccess()

        // Then the old journal's computer is there by its name, at its place, without a problem said
        let desk = status.stdoutString.split(separator: "\n").filter { $0.contains("desk") }
        #expect(desk.count == 1 && desk.first?.contains(" 0:09 ") == true, "status: \(status.stdoutString)")
        #expect(status.stderr.isEmpty, "\(status.stderr)")
    }
}
