import Foundation
import Library
import Testing
import TestSupport

/// docs/guide.md's "Importing" (how files become books), rule by rule, on libraries laid out as listeners keep them.
@Suite struct ImportGroupingTests {
    @Test func aFolderOfSingleFileM4BsIsABookEach() throws {
        // Given a folder of three M4Bs with chapters: one tagged with an album, one with a title only, one untagged
        let tree = try LibraryTree("grouping-m4bs")
        let chapters: [FixtureChapter] = [(0, "Opening"), (1.5, "Middle")]
        try tree.put(try Fixtures.aac(seconds: 3, tags: ["album": "Alpha Book", "title": "Alpha"], chapters: chapters), at: "a.m4b")
        try tree.put(try Fixtures.aac(seconds: 3, tags: ["title": "Beta Book"], chapters: chapters), at: "b.m4b")
        try tree.put(try Fixtures.aac(seconds: 3, chapters: chapters), at: "Gamma.m4b")

        // When the folder is imported
        let (report, books, _) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then each file is its own book, named by its album, else its title, else its name, with its chapters
        #expect(report.skipped.isEmpty)
        #expect(Set(books.map(\.title)) == ["Alpha Book", "Beta Book", "Gamma"])
        #expect(books.allSatisfy { $0.items.count == 1 })
        let library = try LibraryDatabase(path: tree.newLibraryPath())
        for book in books {
            let media = try library.books.items(ofBook: book.id)
            #expect(media.first?.chapterMarks.map(\.title) == ["Opening", "Middle"], "\(book.title)")
        }
    }

    @Test func aChapterlessM4AIsABookByItselfOnlyWhenLong() throws {
        // Given a folder of two untagged chapterless 3 s M4As
        let tree = try LibraryTree("grouping-long-m4a")
        try tree.put(try Fixtures.aac(seconds: 3, container: .m4a), at: "Two Parts/one.m4a")
        try tree.put(try Fixtures.aac(seconds: 3, container: .m4a, tags: ["comment": "second"]), at: "Two Parts/two.m4a")

        // When imported with the 20-minute rule they are shorter than, and then with a 2 s rule
        // (the threshold is an internal parameter, lowered here rather than encoding 20 minutes)
        let short = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())
        let long = try importAndReadBack([tree.root.path], library: tree.root.appending(path: "../long.sqlite").path,
                                         singleFileBookSeconds: 2)

        // Then short they are the folder's one book; long, a book each
        #expect(short.books.map(\.title) == ["Two Parts"])
        #expect(short.books.first?.items.count == 2)
        #expect(Set(long.books.map(\.title)) == ["one", "two"])
    }

    @Test func aLongMP3WithChaptersIsABookByItself() throws {
        // Given a folder of untagged MP3s, one 4 s long with chapters, two short tracks
        let tree = try LibraryTree("grouping-long-mp3")
        let plain = try Fixtures.mp3(seconds: 4, rate: 22050, channels: 1, vbr: true)
        try tree.put(try Fixtures.withChapters(plain, chapters: [(0, "First"), (2, "Second")], totalSeconds: 4), at: "Loose/long.mp3")
        try tree.put(try taggedMP3(track: "1", seconds: 1), at: "Loose/short 1.mp3")
        try tree.put(try taggedMP3(track: "2", seconds: 1), at: "Loose/short 2.mp3")

        // When imported with a 3 s threshold (standing for 20 minutes), and with the real one
        let long = try importAndReadBack([tree.root.path], library: tree.newLibraryPath(), singleFileBookSeconds: 3)
        let short = try importAndReadBack([tree.root.path], library: tree.root.appending(path: "../short.sqlite").path)

        // Then over the threshold the chaptered MP3 stands alone and the tracks are the folder's book;
        // under it, all three are the folder's book
        #expect(Set(long.books.map { "\($0.title):\($0.items.count)" }) == ["long:1", "Loose:2"])
        #expect(short.books.map { "\($0.title):\($0.items.count)" } == ["Loose:3"])
    }

    @Test func looseFilesBesideBookFoldersAreGroupedByTheirAlbums() throws {
        // Given a folder holding a book folder, loose MP3s of two albums, an untagged MP3 and an M4B with chapters
        let tree = try LibraryTree("grouping-mixed")
        try tree.put(try taggedMP3(title: "One", album: "Folder Book", track: "1"), at: "Folder Book/01.mp3")
        try tree.put(try taggedMP3(title: "Two", album: "Folder Book", track: "2"), at: "Folder Book/02.mp3")
        try tree.put(try taggedMP3(title: "A2", album: "Alpha", track: "2"), at: "alpha 2.mp3")
        try tree.put(try taggedMP3(title: "A1", album: "Alpha", track: "1"), at: "alpha 1.mp3")
        try tree.put(try taggedMP3(title: "B1", album: "Beta", track: "1"), at: "beta.mp3")
        try tree.put(try Fixtures.aac(seconds: 3, tags: ["album": "Single"], chapters: [(0, "One"), (1, "Two")]), at: "single.m4b")

        // When the folder is imported
        let (report, books, _) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then every album is its own book, in track order, and the M4B stands alone
        #expect(report.skipped.isEmpty)
        let byTitle = Dictionary(uniqueKeysWithValues: books.map { ($0.title, $0) })
        #expect(Set(byTitle.keys) == ["Folder Book", "Alpha", "Beta", "Single"])
        #expect(byTitle["Alpha"]?.fileNames == ["alpha 1.mp3", "alpha 2.mp3"])
        #expect(byTitle["Folder Book"]?.fileNames == ["01.mp3", "02.mp3"])
        #expect(byTitle["Beta"]?.items.count == 1 && byTitle["Single"]?.items.count == 1)
    }

    @Test func filesWithoutAnAlbumJoinTheFoldersOnlyAlbum() throws {
        // Given a book folder whose files mostly carry the album and one that carries none
        let tree = try LibraryTree("grouping-untagged-join")
        try tree.put(try taggedMP3(title: "One", album: "Joined", track: "1"), at: "Joined/01.mp3")
        try tree.put(try taggedMP3(title: "Two", album: "Joined", track: "2"), at: "Joined/02.mp3")
        try tree.put(try taggedMP3(seconds: 1), at: "Joined/03.mp3")

        // When imported
        let (_, books, _) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then they are one book
        #expect(books.map(\.title) == ["Joined"])
        #expect(books.first?.fileNames == ["01.mp3", "02.mp3", "03.mp3"])
    }

    @Test func discFoldersStayOneBookInDiscOrderWhateverTheirAlbumTags() throws {
        // Given a book in "Part 1", "Disc 2", "Disk 03" folders, each disc tagged as its own album
        let tree = try LibraryTree("grouping-discs")
        try tree.put(try taggedMP3(title: "3-1", album: "Saga (Disc 3)", track: "1"), at: "Saga/Disk 03/01.mp3")
        try tree.put(try taggedMP3(title: "1-2", album: "Saga (Disc 1)", track: "2"), at: "Saga/Part 1/02.mp3")
        try tree.put(try taggedMP3(title: "1-1", album: "Saga (Disc 1)", track: "1"), at: "Saga/Part 1/01.mp3")
        try tree.put(try taggedMP3(title: "2-1", album: "Saga (Disc 2)", track: "1"), at: "Saga/Disc 2/01.mp3")

        // When imported
        let (_, books, _) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then one book, named by its folder (its discs disagree), in disc then track order
        #expect(books.map(\.title) == ["Saga"])
        #expect(books.first?.items.map(\.title) == ["1-1", "1-2", "2-1", "3-1"])
    }

    @Test func anUnreadableFileNeverNamesTheBook() throws {
        // Given a folder whose first file is not audio and whose others carry no album
        let tree = try LibraryTree("grouping-unreadable-first")
        try tree.write("not audio\n", at: "Real Title/00 broken.mp3")
        try tree.put(try taggedMP3(title: "Chapter", seconds: 1), at: "Real Title/01.mp3")
        try tree.put(try taggedMP3(seconds: 2), at: "Real Title/02.mp3")

        // When imported
        let (report, books, _) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then the folder names the book and the broken file is skipped
        #expect(books.map(\.title) == ["Real Title"])
        #expect(report.skipped.map { ($0.path as NSString).lastPathComponent } == ["00 broken.mp3"])
    }
}

@Suite struct ImportWarningTests {
    @Test func aFileTruncatedAgainstItsHeaderIsReportedWithItsPath() throws {
        // Given a faststart M4B cut in half, beside a whole one
        let tree = try LibraryTree("import-truncated")
        try tree.put(try Fixtures.truncated(try Fixtures.aac(seconds: 20, faststart: true), keepingFraction: 0.5), at: "Cut/book.m4b")
        try tree.put(try Fixtures.aac(seconds: 3), at: "Whole/book.m4b")

        // When imported
        let (report, books, _) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then both are books, and the report has one warning, for the cut file, saying so
        #expect(Set(books.map(\.title)) == ["Cut", "Whole"])
        #expect(report.warnings.map(\.path) == [tree.root.appending(path: "Cut/book.m4b").path])
        #expect(report.warnings.first?.message.contains("truncated") == true, "\(report.warnings)")
        // and the cut book counts the audio it has (about 10 of the 20 s its header gives)
        let cut = try #require(books.first { $0.title == "Cut" })
        #expect(cut.durationSeconds > 8 && cut.durationSeconds < 12, "\(cut.durationSeconds) s")
    }
}
