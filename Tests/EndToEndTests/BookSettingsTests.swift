import Foundation
import TestSupport
import Testing

/// `abplayer book settings` in the REPL's units, its refusals, and the settings' way through
/// `export` and `import-state` files of both versions.
@Suite struct BookSettingsTests {
    /// A library of two made-up books, "Book 0" and "Book 1" (no audio is needed to edit settings).
    static func library(_ name: String, in abplayer: AbplayerProcess) throws -> String {
        let library = abplayer.home.appending(path: "\(name).sqlite").path
        try abplayer.run(["debug-generate-library", "--library", library, "--books", "2", "--items", "2"]).requireSuccess()
        return library
    }

    static func settings(_ abplayer: AbplayerProcess, _ library: String, _ book: String, _ changes: [String] = []) throws -> CommandResult {
        try abplayer.run(["book", "settings", "--library", library, book] + changes)
    }

    @Test func settingsAreTypedAndShownInTheREPLsUnits() throws {
        let abplayer = try AbplayerProcess("book-settings")
        let library = try Self.library("units", in: abplayer)

        // When a book is given volume 80 %, speed 1.25, a 30 s skip and a 30 min sleep timer
        let set = try Self.settings(abplayer, library, "Book 1", ["--volume", "80", "--speed", "1.25", "--skip", "30s", "--sleep-timer", "30m"])

        // Then it says so with the units, and says the same when asked again
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdoutString == "volume 80 %, speed 1.25x, skip 30 s, sleep timer 30:00, shuffle off\n")
        #expect(try Self.settings(abplayer, library, "Book 1").stdoutString == set.stdoutString)
        // and every form of the grammar and of the units is taken; a bare number is seconds, but
        // minutes for the sleep timer (as every audiobook app's timer counts)
        let other = try Self.settings(abplayer, library, "Book 0", ["--volume", "150%", "--speed", "0.5x", "--skip", "1:30", "--sleep-timer", "90"])
        #expect(other.stdoutString == "volume 150 % (boost), speed 0.5x, skip 90 s, sleep timer 1:30:00, shuffle off\n", "\(other.stderr)")
        let off = try Self.settings(abplayer, library, "Book 0", ["--sleep-timer", "off", "--skip", "1h", "--volume", "0"])
        #expect(off.stdoutString == "volume 0 %, speed 0.5x, skip 3600 s, sleep timer off, shuffle off\n", "\(off.stderr)")
    }

    @Test(arguments: [
        (["--speed", "0.3"], "--speed: '0.3' is out of range: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)"),
        (["--speed", "4.5"], "--speed: '4.5' is out of range: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)"),
        (["--speed", "fast"], "--speed: 'fast' is not a speed: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)"),
        (["--volume", "151"], "--volume: '151' is out of range: use a volume from 0 to 150 percent (80 or 80%)"),
        (["--volume=-1"], "--volume: '-1' is not a volume: use a volume from 0 to 150 percent (80 or 80%)"),
        (["--skip", "0"], "--skip: '0' is out of range: use a time from 1s to 1h (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m)"),
        (["--skip", "2h"], "--skip: '2h' is out of range: use a time from 1s to 1h (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m)"),
        (["--sleep-timer", "25h"], "--sleep-timer: '25h' is out of range: use a time from 1s to 24h (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m)"),
        (["--sleep-timer", "30 min"], "--sleep-timer: '30 min' is not a time: use 90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m (from 1s to 24h)"),
    ])
    func aValueOutOfRangeIsRefusedInOneLineAndChangesNothing(arguments: [String], message: String) throws {
        // Given a book with settings
        let abplayer = try AbplayerProcess("book-settings-refused")
        let library = try Self.library("refused", in: abplayer)
        let before = try Self.settings(abplayer, library, "Book 1", ["--volume", "90", "--speed", "1.5"]).stdoutString

        // When a bad value comes with a good one
        let result = try Self.settings(abplayer, library, "Book 1", ["--shuffle", "true"] + arguments)

        // Then it is a usage error of one line naming the option, the value and the range, and
        // nothing is changed, not even the good value
        #expect(result.status == 64)
        #expect(result.stderr == "abplayer: \(message)\n")
        #expect(result.stdout.isEmpty)
        #expect(try Self.settings(abplayer, library, "Book 1").stdoutString == before)
    }

    @Test func exportWritesVersion2AndImportReadsBothVersions() throws {
        // Given a library with settings, and another of the same books
        let abplayer = try AbplayerProcess("book-settings-state")
        let library = try Self.library("from", in: abplayer)
        let other = try Self.library("to", in: abplayer)
        let shown = try Self.settings(abplayer, library, "Book 1", ["--volume", "80", "--speed", "1.25", "--skip", "15", "--sleep-timer", "30m"])
            .requireSuccess().stdoutString

        // When it is exported to a file
        let file = abplayer.home.appending(path: "state.json")
        try abplayer.run(["export", "--library", library, file.path]).requireSuccess()

        // Then the file is version 2 in percent and seconds
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(json["version"] as? Int == 2)
        var books = try #require(json["books"] as? [[String: Any]])
        let index = try #require(books.firstIndex { $0["title"] as? String == "Book 1" })
        var exported = try #require(books[index]["settings"] as? [String: Any])
        #expect(exported["volume"] as? Double == 80 && exported["sleepTimerSeconds"] as? Double == 1800)
        #expect(exported["sleepTimerMinutes"] == nil)

        // When it is imported into the other library, the settings arrive as they were
        try abplayer.run(["import-state", "--library", other, file.path]).requireSuccess()
        #expect(try Self.settings(abplayer, other, "Book 1").stdoutString == shown)

        // When a version 1 file says volume 0.5 (a factor), speed 0.3 and a 20 min sleep timer
        json["version"] = 1
        exported["volume"] = 0.5
        exported["speed"] = 0.3
        exported["sleepTimerMinutes"] = 20
        exported["sleepTimerSeconds"] = nil
        books[index]["settings"] = exported
        json["books"] = books
        let old = abplayer.home.appending(path: "old.json")
        try JSONSerialization.data(withJSONObject: json).write(to: old)
        let imported = try abplayer.run(["import-state", "--library", other, old.path])

        // Then it is read in today's units: 50 %, 0.5x (what the engine played), 20:00
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try Self.settings(abplayer, other, "Book 1").stdoutString
                == "volume 50 %, speed 0.5x, skip 15 s, sleep timer 20:00, shuffle off\n")
    }
}
