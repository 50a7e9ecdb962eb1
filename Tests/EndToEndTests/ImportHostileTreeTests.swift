import Foundation
import TestSupport
import Testing

/// `import` of folders holding what is not an audio file: a FIFO, symbolic link loops, dangling
/// links, a file that does not decode. Each run has a deadline: a FIFO once hung `import` for good.
@Suite struct ImportHostileTreeTests {
    @Test func specialFilesLinkLoopsAndDanglingLinksAreSkippedWithOneLineEach() throws {
        // Given a book folder with two real MP3s, a FIFO, a link to itself named like an MP3, a
        // link to the folder above, and a link to nothing
        let abplayer = try AbplayerProcess("import-hostile")
        let root = abplayer.home.appending(path: "books")
        let book = root.appending(path: "The Book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let mp3 = try Fixtures.mp3(seconds: 2, vbr: false)
        try FileManager.default.copyItem(at: mp3, to: book.appending(path: "01.mp3"))
        try FileManager.default.copyItem(at: mp3, to: book.appending(path: "02.mp3"))
        #expect(mkfifo(book.appending(path: "pipe.mp3").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: book.appending(path: "loop.mp3").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: book.appending(path: "up").path, withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: book.appending(path: "gone.mp3").path, withDestinationPath: "nowhere.mp3")
        let library = abplayer.home.appending(path: "library.sqlite").path

        // When the folder of books is imported (a hang is a failure after 60 s)
        let imported = try abplayer.run(["import", "--library", library, root.path], timeout: 60)

        // Then exactly the real book is imported, with its two files
        #expect(imported.stdoutString.contains("1 new book, 2 files imported, 0 already present, 4 skipped"),
                "stdout: \(imported.stdoutString)")
        struct BookJSON: Decodable {
            struct Item: Decodable { let path: String }
            let title: String
            let items: [Item]
        }
        let books = try abplayer.run(["books", "--json", "--library", library]).requireSuccess()
            .stdoutString.split(separator: "\n").map { try JSONDecoder().decode(BookJSON.self, from: Data($0.utf8)) }
        #expect(books.map(\.title) == ["The Book"])
        #expect(books.first?.items.map { ($0.path as NSString).lastPathComponent } == ["01.mp3", "02.mp3"])

        // and each skipped thing has one line naming it and why; the exit code says not all went in
        let lines = imported.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "stderr: \(imported.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix("abplayer: skipped ") }, "stderr: \(imported.stderr)")
        #expect(lines.contains("abplayer: skipped \(book.path)/pipe.mp3: not a regular file"), "stderr: \(imported.stderr)")
        #expect(lines.contains { $0.contains("loop.mp3") && $0.contains("loop") }, "stderr: \(imported.stderr)")
        #expect(lines.contains { $0.contains("/up") && $0.contains("loop") }, "stderr: \(imported.stderr)")
        #expect(lines.contains { $0.contains("gone.mp3") && $0.contains("dangling") }, "stderr: \(imported.stderr)")
        #expect(imported.status == 1)
    }

    @Test func aFileCutShortOfItsHeaderIsImportedWithOneLineNamingIt() throws {
        // Given a book folder holding an M4B (moov first) cut in the middle of its audio
        let abplayer = try AbplayerProcess("import-truncated")
        let book = abplayer.home.appending(path: "books/Cut Short")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let truncated = try Fixtures.truncated(try Fixtures.aac(seconds: 20, faststart: true), keepingFraction: 0.5)
        let file = book.appending(path: "book.m4b")
        try FileManager.default.copyItem(at: truncated, to: file)
        let library = abplayer.home.appending(path: "library.sqlite").path

        // When the folder is imported
        let imported = try abplayer.run(["import", "--library", library, book.path], timeout: 60)

        // Then the book is imported, and one line names the file and says it is truncated
        #expect(imported.stdoutString.contains("1 new book, 1 file imported"), "stdout: \(imported.stdoutString)")
        let lines = imported.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1, "stderr: \(imported.stderr)")
        #expect(lines.first?.hasPrefix("abplayer: \(file.path): ") == true && lines.first?.contains("truncated") == true,
                "stderr: \(imported.stderr)")
    }

    @Test func aFIFONamedOnTheCommandLineIsSkippedNotOpened() throws {
        // Given a FIFO nobody writes to, and a real MP3
        let abplayer = try AbplayerProcess("import-fifo-arg")
        let fifo = abplayer.home.appending(path: "chapter.mp3").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let mp3 = abplayer.home.appending(path: "real.mp3")
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 2, vbr: false), to: mp3)
        let library = abplayer.home.appending(path: "library.sqlite").path

        // When both are named
        let imported = try abplayer.run(["import", "--library", library, fifo, mp3.path], timeout: 60)

        // Then the MP3 is imported and the FIFO has its line
        #expect(imported.stdoutString.contains("1 new book, 1 file imported"), "stdout: \(imported.stdoutString)")
        #expect(imported.stderr == "abplayer: skipped \(fifo): not a regular file\n")
        #expect(imported.status == 1)
    }

    @Test func importFailsWhenAnyFileIsSkipped() throws {
        // Given a folder with one good MP3 and one file that is not audio
        let abplayer = try AbplayerProcess("import-exit-code")
        let book = abplayer.home.appending(path: "Book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 2, vbr: false), to: book.appending(path: "01.mp3"))
        try Data(repeating: 0x55, count: 4096).write(to: book.appending(path: "02.mp3"))
        let library = abplayer.home.appending(path: "library.sqlite").path

        // When it is imported
        let imported = try abplayer.run(["import", "--library", library, book.path], timeout: 60)

        // Then the good file is in, the bad one has one line, and the exit code says not every file went in
        #expect(imported.stdoutString.contains("1 new book, 1 file imported, 0 already present, 1 skipped"))
        #expect(imported.stderr.split(separator: "\n").count == 1 && imported.stderr.contains("02.mp3"), "stderr: \(imported.stderr)")
        #expect(imported.status == 1)

        // and a run where every file goes in succeeds
        let again = try abplayer.run(["import", "--library", library, book.appending(path: "01.mp3").path], timeout: 60)
        #expect(again.status == 0, "stderr: \(again.stderr)")
    }
}
