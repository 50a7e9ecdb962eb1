import Foundation
import TestSupport
import Testing

/// `--library` naming a file that is not an abplayer library, or a damaged one: every command
/// refuses with one line and leaves the file byte for byte as it was.
@Suite struct ForeignLibraryTests {
    /// The commands tried on each file, as a user would run them.
    func commands(_ abplayer: AbplayerProcess) throws -> [[String]] {
        let book = abplayer.home.appending(path: "Book")
        try? FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let mp3 = book.appending(path: "01.mp3")
        if !FileManager.default.fileExists(atPath: mp3.path) {
            try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 2, vbr: false), to: mp3)
        }
        return [["books"], ["import", book.path], ["shelves"], ["shelf", "new", "A"], ["listen", "1"]]
    }

    /// Runs every command on `file` and checks each one's single line and the file's bytes.
    func expectRefusedAndUntouched(_ abplayer: AbplayerProcess, file: String, saying words: [String]) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let folder = (file as NSString).deletingLastPathComponent
        let neighbours = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        for command in try commands(abplayer) {
            let result = try abplayer.run(command + ["--library", file], timeout: 60)
            let lines = result.stderr.split(separator: "\n")
            #expect(result.status != 0, "\(command): exit 0")
            #expect(lines.count == 1 && lines[0].hasPrefix("abplayer: \(file)"), "\(command): \(result.stderr)")
            for word in words { #expect(result.stderr.contains(word), "\(command): \(result.stderr)") }
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "\(command) changed \(file)")
            // Reading a database in WAL mode, as any SQLite reader does, leaves its index (-shm)
            // and an empty log (-wal); nothing else may appear, and the log must hold nothing.
            let name = (file as NSString).lastPathComponent
            let after = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(after.filter { !neighbours.contains($0) && $0 != name + "-wal" && $0 != name + "-shm" } == [],
                    "\(command) left files beside \(file): \(after)")
            let log = (try? FileManager.default.attributesOfItem(atPath: file + "-wal")[.size] as? Int) ?? 0
            #expect(log == 0, "\(command) wrote \(log) bytes to \(file)-wal")
        }
    }

    @Test func anotherProgramsDatabaseIsNotTakenOver() throws {
        // Given an SQLite database with a table of its own
        let abplayer = try AbplayerProcess("foreign-db")
        let folder = abplayer.home.appending(path: "other")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let other = folder.appending(path: "other.sqlite").path
        _ = try Command.run("sqlite3", [other, "CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO recipes VALUES (1, 'soup');"]).requireSuccess()
        _ = try commands(abplayer)

        // When every library command names it, then each refuses with one line and leaves it as it was
        try expectRefusedAndUntouched(abplayer, file: other, saying: ["is not an abplayer library (it has tables recipes)", "--library"])
    }

    @Test func aDatabaseWithOnlyAViewOrOnlyAUserVersionIsNotTakenOver() throws {
        // Given two SQLite files without a table: one holding a view, one only a user_version
        let abplayer = try AbplayerProcess("foreign-bare")
        _ = try commands(abplayer)
        for (name, sql, said) in [("view", "CREATE VIEW totals AS SELECT 1 AS one;", "(it has view totals)"),
                                  ("version", "PRAGMA user_version = 7;", "(another program's: user_version 7)")] {
            let folder = abplayer.home.appending(path: name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let other = folder.appending(path: "other.sqlite").path
            _ = try Command.run("sqlite3", [other, sql]).requireSuccess()

            // When every library command names it (`books` first, which only reads), then each
            // refuses with one line and leaves it as it was (it used to be made a library)
            try expectRefusedAndUntouched(abplayer, file: other, saying: ["is not an abplayer library " + said, "--library"])
        }
    }

    @Test func aFileOfGarbageIsNotRewritten() throws {
        let abplayer = try AbplayerProcess("garbage-db")
        let folder = abplayer.home.appending(path: "lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let garbage = folder.appending(path: "library.sqlite")
        var generator = SystemRandomNumberGenerator()
        try Data((0..<16384).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: garbage)
        try expectRefusedAndUntouched(abplayer, file: garbage.path, saying: ["damaged", "--library"])
    }

    @Test func aTruncatedLibraryIsNotRewritten() throws {
        // Given a library with a book in it, cut to its first three pages
        let abplayer = try AbplayerProcess("truncated-db")
        let folder = abplayer.home.appending(path: "lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appending(path: "library.sqlite").path
        let imported = try abplayer.run(["import", "--library", library] + (try commands(abplayer)[1].dropFirst()), timeout: 60)
        #expect(imported.status == 0, "stderr: \(imported.stderr)")
        let whole = try Data(contentsOf: URL(fileURLWithPath: library))
        #expect(whole.count > 3 * 4096)
        try whole.prefix(3 * 4096).write(to: URL(fileURLWithPath: library))

        // When every library command names it, then each refuses with one line and leaves it as it was
        try expectRefusedAndUntouched(abplayer, file: library, saying: ["damaged", "truncated"])
    }

    @Test func aLibraryWhoseMigrationsTableWasDroppedGivesOneLine() throws {
        let abplayer = try AbplayerProcess("dropped-migrations")
        let folder = abplayer.home.appending(path: "lib")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appending(path: "library.sqlite").path
        _ = try abplayer.run(["shelf", "new", "A", "--library", library]).requireSuccess()
        _ = try Command.run("sqlite3", [library, "DROP TABLE grdb_migrations"]).requireSuccess()
        try expectRefusedAndUntouched(abplayer, file: library, saying: ["grdb_migrations"])
    }

    @Test func anEmptyFileAndAnEmptyDatabaseBecomeLibraries() throws {
        let abplayer = try AbplayerProcess("empty-db")
        let empty = abplayer.home.appending(path: "empty.sqlite").path
        #expect(FileManager.default.createFile(atPath: empty, contents: nil))
        _ = try abplayer.run(["shelf", "new", "A", "--library", empty]).requireSuccess()
        let blank = abplayer.home.appending(path: "blank.sqlite").path
        _ = try Command.run("sqlite3", [blank, "PRAGMA user_version = 0; VACUUM;"]).requireSuccess()
        _ = try abplayer.run(["shelf", "new", "A", "--library", blank]).requireSuccess()
        // and both are marked as abplayer's, "abpl"
        for file in [empty, blank] {
            let id = try Command.run("sqlite3", [file, "PRAGMA application_id"]).requireSuccess().stdoutString
            #expect(id.trimmingCharacters(in: .whitespacesAndNewlines) == "1633841260", "\(file): \(id)")
        }
    }
}
