import Foundation
import TestSupport
import Testing

@Suite struct FullDiskTests {
    @Test(.enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs (mount -t tmpfs)"))
    func aFullDiskDuringImportGivesOneLineAndLeavesTheLibraryWhole() throws {
        // Given a library on a 1 MiB disk with 128 KiB left, and a book of 500 files (hard links
        // to one MP3: 500 paths, a media row each, more than the space left)
        let abplayer = try AbplayerProcess("full-disk")
        let disk = try SmallDisk(at: abplayer.home.appending(path: "disk"), bytes: 1 << 20)
        defer { disk.unmount() }
        let library = disk.mountPoint.appending(path: "library.sqlite").path
        _ = try abplayer.run(["shelf", "new", "A", "--library", library]).requireSuccess()
        let book = abplayer.home.appending(path: "Long Book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let first = book.appending(path: "part 1.mp3")
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 2, vbr: false), to: first)
        for part in 2...500 { try FileManager.default.linkItem(at: first, to: book.appending(path: "part \(part).mp3")) }
        let filler = disk.mountPoint.appending(path: "filler")
        try Data(count: disk.freeBytes - 128 * 1024).write(to: filler)

        // When the book is imported
        let imported = try abplayer.run(["import", "--library", library, book.path], timeout: 120)

        // Then it fails with one line naming the library, the full disk and what to do
        let lines = imported.stderr.split(separator: "\n")
        #expect(imported.status != 0)
        #expect(lines.count == 1 && lines[0].hasPrefix("abplayer: \(library): the disk is full"), "stderr: \(imported.stderr)")
        #expect(imported.stderr.contains("free some space"), "stderr: \(imported.stderr)")

        // and once there is space again, the library opens with no half-written book
        try FileManager.default.removeItem(at: filler)
        let books = try abplayer.run(["books", "--library", library]).requireSuccess()
        #expect(!books.stdoutString.contains("Long Book"), "books: \(books.stdoutString)")
        #expect(try abplayer.run(["import", "--library", library, book.path], timeout: 120).status == 0)
    }
}

@Suite struct ReadOnlyLibraryTests {
    @Test(.enabled(if: SmallDisk.canMount, "needs root to mount a small tmpfs (mount -t tmpfs)"))
    func aLibraryOnAReadOnlyDiskIsRefusedInOneLineNotCalledDamaged() throws {
        // Given a library with a book, on a disk then mounted read-only
        let abplayer = try AbplayerProcess("read-only")
        let disk = try SmallDisk(at: abplayer.home.appending(path: "disk"), bytes: 4 << 20)
        defer { disk.unmount() }
        let library = disk.mountPoint.appending(path: "library.sqlite").path
        let book = abplayer.home.appending(path: "Book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 3, vbr: false), to: book.appending(path: "01.mp3"))
        _ = try abplayer.run(["import", "--library", library, book.path]).requireSuccess()
        _ = try Command.run("mount", ["-o", "remount,ro", disk.mountPoint.path]).requireSuccess()
        let before = try Data(contentsOf: URL(fileURLWithPath: library))

        // When it is listed, listened to, or opened by the REPL
        for arguments in [["books"], ["listen", "Book", "--output", "null"], ["-c", "play Book"]] {
            let result = try abplayer.run(arguments + ["--library", library], timeout: 30)
            // Then each says in one line that it is read-only and what to do (it said "damaged",
            // which invites deleting it), and the file is as it was
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasPrefix("abplayer: \(library): cannot open the library: it is read-only (read-only file system)"),
                    "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: library)) == before)
    }
}
