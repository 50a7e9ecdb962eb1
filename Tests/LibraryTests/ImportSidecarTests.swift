import Foundation
import Library
import Testing
import TestSupport

/// Audiobookshelf's folder layout and the sidecar files beside books.
@Suite struct ImportSidecarTests {
    /// Author/Series/Vol N - Title trees, with metadata.json, desc.txt, reader.txt and covers.
    static func audiobookshelfTree(_ name: String) throws -> LibraryTree {
        let tree = try LibraryTree(name)
        let pratchett = "Terry Pratchett/Discworld"
        try tree.put(try taggedMP3(title: "Wyrd 1", track: "1"), at: "\(pratchett)/Book 1 - Wyrd Start/01.mp3")
        try tree.put(try taggedMP3(title: "Wyrd 2", track: "2", seconds: 3), at: "\(pratchett)/Book 1 - Wyrd Start/02.mp3")
        try tree.write("""
            {"title": "Wyrd Start", "subtitle": "A Discworld Novel", "authors": ["Terry Pratchett"],
             "narrators": ["Nigel Planer", "Tony Robinson"], "series": ["Discworld #1"], "publishedYear": "1983",
             "description": "The first one.", "genres": ["Fantasy"],
             "chapters": [{"start": 0, "end": 1, "title": "Rincewind"}, {"start": 1, "end": 2.5, "title": "Twoflower"},
                          {"start": 2.5, "end": 5, "title": "The Luggage"}]}
            """, at: "\(pratchett)/Book 1 - Wyrd Start/metadata.json")
        try tree.put(try Fixtures.coverJPEG(), at: "\(pratchett)/Book 1 - Wyrd Start/cover.jpg")
        try tree.put(try taggedMP3(title: "Light", seconds: 1), at: "\(pratchett)/Vol 2 - 1986 - Another Light {Nigel Planer}/01.mp3")
        try tree.put(try taggedMP3(title: "Omens", seconds: 3), at: "Terry Pratchett/(1990) Good Omens/01.mp3")
        try tree.write("An angel and a demon.\n", at: "Terry Pratchett/(1990) Good Omens/desc.txt")
        try tree.write("Martin Jarvis\n", at: "Terry Pratchett/(1990) Good Omens/reader.txt")
        try tree.put(try Fixtures.coverJPEG(), at: "Terry Pratchett/(1990) Good Omens/folder.jpg")
        try tree.put(try taggedMP3(title: "Earthsea", seconds: 4), at: "Ursula K. Le Guin/Earthsea/#3 - The Farthest Shore/01.mp3")
        // Single-file books in an author's and a series' folder, not in folders of their own
        let chapters: [FixtureChapter] = [(0, "Start"), (1, "End")]
        try tree.put(try Fixtures.aac(seconds: 2, tags: ["comment": "lone"], chapters: chapters), at: "Ursula K. Le Guin/Lone Book.m4b")
        try tree.put(try Fixtures.aac(seconds: 2, tags: ["comment": "third"], chapters: chapters), at: "\(pratchett)/Book 3 - Third Tale.m4b")
        return tree
    }

    @Test func anAudiobookshelfTreeBecomesAuthorAndSeriesShelvesInSeriesOrder() throws {
        // Given an Author/Series/Title tree
        let tree = try Self.audiobookshelfTree("abs-layout")

        // When imported with --layout author-series onto a shelf
        let (report, books, library) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath(),
                                                             shelf: "Fantasy", layout: .authorSeries)

        // Then authors and series are shelves under it, a series shelf lists its books by number
        #expect(report.skipped.isEmpty)
        let discworld = books.filter { $0.shelf == "Fantasy/Terry Pratchett/Discworld" }
        #expect(discworld.map(\.title) == ["Wyrd Start", "Another Light", "Third Tale"])
        #expect(discworld.map(\.seriesNumber) == [1, 2, 3])
        #expect(discworld.allSatisfy { $0.series == "Discworld" })
        let shelves = try library.shelves.shelfTree().map(\.path)
        #expect(shelves.contains("Fantasy/Ursula K. Le Guin/Earthsea"))

        // And the folder names give the year, narrator and series number, the folders the author
        let light = try #require(discworld.first { $0.title == "Another Light" })
        #expect(light.year == 1986 && light.narrator == "Nigel Planer" && light.author == "Terry Pratchett")
        let shore = try #require(books.first { $0.title == "The Farthest Shore" })
        #expect(shore.seriesNumber == 3 && shore.series == "Earthsea" && shore.author == "Ursula K. Le Guin")
        let omens = try #require(books.first { $0.title == "Good Omens" })
        #expect(omens.shelf == "Fantasy/Terry Pratchett" && omens.year == 1990 && omens.series == nil)

        // And single-file books in an author's or a series' folder are on those shelves, named by their files
        let lone = try #require(books.first { $0.title == "Lone Book" })
        #expect(lone.shelf == "Fantasy/Ursula K. Le Guin" && lone.author == "Ursula K. Le Guin")
        let third = try #require(books.first { $0.title == "Third Tale" })
        #expect(third.shelf == "Fantasy/Terry Pratchett/Discworld" && third.seriesNumber == 3 && third.series == "Discworld")
    }

    @Test func sidecarsGiveTheBooksFieldsChaptersAndCover() throws {
        // Given the same tree: metadata.json and cover.jpg in one book, desc.txt, reader.txt, folder.jpg in another
        let tree = try Self.audiobookshelfTree("abs-sidecars")

        // When imported (the folders layout: sidecars are read whatever the layout)
        let (_, books, library) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then metadata.json names the book and gives its fields, and its chapters land in the files they fall in
        let wyrd = try #require(books.first { $0.title == "Wyrd Start" })
        #expect(wyrd.subtitle == "A Discworld Novel" && wyrd.author == "Terry Pratchett")
        #expect(wyrd.narrator == "Nigel Planer, Tony Robinson" && wyrd.year == 1983)
        #expect(wyrd.series == "Discworld" && wyrd.seriesNumber == 1 && wyrd.description == "The first one.")
        #expect(wyrd.coverPath?.hasSuffix("Book 1 - Wyrd Start/cover.jpg") == true)
        let media = try library.books.items(ofBook: wyrd.id)
        #expect(media.map { $0.chapterMarks.map(\.title) } == [["Rincewind", "Twoflower"], ["The Luggage"]])
        // 2.5 s into the book is 0.5 s into the second (2 s) file, at 22.05 kHz
        #expect(media.last?.chapterMarks.first?.startFrame == 11025)

        // And desc.txt, reader.txt and folder.jpg describe the other
        let omens = try #require(books.first { $0.title == "(1990) Good Omens" })
        #expect(omens.description == "An angel and a demon." && omens.narrator == "Martin Jarvis")
        #expect(omens.coverPath?.hasSuffix("folder.jpg") == true)

        // And a single-file book beside book folders is named by its file, not the folder it lies in
        #expect(books.contains { $0.title == "Lone Book" } && !books.contains { $0.title == "Ursula K. Le Guin" })
    }

    @Test func aCueSheetGivesASingleFileItsChaptersAndASplitRipItsTitles() throws {
        // Given a one-MP3 book with a cue sheet, and a split rip of untitled tracks with one cue sheet
        let tree = try LibraryTree("cue-sheets")
        try tree.put(try Fixtures.mp3(seconds: 6, rate: 22050, channels: 1, vbr: true), at: "Cue Book/book.mp3")
        try tree.write("""
            PERFORMER "Someone"
            TITLE "Cue Book"
            FILE "book.mp3" MP3
              TRACK 01 AUDIO
                TITLE "Prologue"
                INDEX 01 00:00:00
              TRACK 02 AUDIO
                TITLE "The Middle"
                INDEX 01 00:02:00
              TRACK 03 AUDIO
                TITLE "Epilogue"
                INDEX 01 00:04:37
            """, at: "Cue Book/book.cue")
        try tree.put(try Fixtures.mp3(seconds: 2, rate: 22050, channels: 1, vbr: true), at: "Split/01.mp3")
        try tree.put(try Fixtures.mp3(seconds: 3, rate: 22050, channels: 1, vbr: true), at: "Split/02.mp3")
        try tree.write("""
            FILE "01.wav" WAVE
              TRACK 01 AUDIO
                TITLE "Opening"
                INDEX 01 00:00:00
            FILE "02.wav" WAVE
              TRACK 02 AUDIO
                TITLE "Closing"
                INDEX 01 00:00:00
            """, at: "Split/rip.cue")

        // When imported
        let (_, books, library) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then the single file has the sheet's chapters (75 cue frames a second) and the split rip's files its titles
        let cue = try #require(books.first { $0.title == "Cue Book" })
        let marks = try library.books.items(ofBook: cue.id).first?.chapterMarks ?? []
        #expect(marks.map(\.title) == ["Prologue", "The Middle", "Epilogue"])
        #expect(marks.map(\.startFrame) == [0, 2 * 22050, Int64((4 + 37.0 / 75) * 22050)])
        let split = try #require(books.first { $0.title == "Split" })
        #expect(split.items.map(\.title) == ["Opening", "Closing"])
    }

    @Test func aChaptersListGivesChaptersButEmbeddedChaptersWin() throws {
        // Given an MP3 with NAME.chapters.txt, and an M4B with chapters of its own and a chapters.txt
        let tree = try LibraryTree("chapter-lists")
        try tree.put(try Fixtures.mp3(seconds: 5, rate: 22050, channels: 1, vbr: true), at: "Listed/book.mp3")
        try tree.write("00:00:00.000 Start\n00:00:01.500 Second Part\n0:03.25 Last\n", at: "Listed/book.chapters.txt")
        try tree.put(try Fixtures.aac(seconds: 3, tags: ["album": "Embedded"], chapters: [(0, "Own One"), (1, "Own Two")]),
                     at: "Embedded/book.m4b")
        try tree.write("00:00:00.000 Sidecar\n", at: "Embedded/chapters.txt")

        // When imported
        let (_, books, library) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then the list's chapters are the MP3's; the M4B keeps its own
        let listed = try #require(books.first { $0.title == "Listed" })
        let marks = try library.books.items(ofBook: listed.id).first?.chapterMarks ?? []
        #expect(marks.map(\.title) == ["Start", "Second Part", "Last"])
        #expect(marks.map(\.startFrame) == [0, 33075, 71663])
        let embedded = try #require(books.first { $0.title == "Embedded" })
        #expect(try library.books.items(ofBook: embedded.id).first?.chapterMarks.map(\.title) == ["Own One", "Own Two"])
    }

    @Test func anOlderMetadataAbsFileIsReadToo() throws {
        // Given a book folder with Audiobookshelf's older metadata.abs
        let tree = try LibraryTree("metadata-abs")
        try tree.put(try Fixtures.mp3(seconds: 4, rate: 22050, channels: 1, vbr: true), at: "abs book/01.mp3")
        try tree.write("""
            ;ABMETADATA1
            #audiobookshelf v2.2.0

            title=Old Format
            authors=First Author, Second Author
            narrators=A Reader
            series=Sagas #4.5
            publishedYear=2001

            [DESCRIPTION]
            Two lines
            of description.

            [CHAPTER]
            start=0
            end=2
            title=Begin

            [CHAPTER]
            start=2
            end=4
            title=End
            """, at: "abs book/metadata.abs")

        // When imported
        let (report, books, library) = try importAndReadBack([tree.root.path], library: tree.newLibraryPath())

        // Then its fields and chapters are the book's (and it is not reported as a file that failed)
        #expect(report.skipped.isEmpty, "\(report.skipped)")
        let book = try #require(books.first)
        #expect(book.title == "Old Format" && book.author == "First Author, Second Author" && book.narrator == "A Reader")
        #expect(book.series == "Sagas" && book.seriesNumber == 4.5 && book.year == 2001)
        #expect(book.description == "Two lines\nof description.")
        #expect(try library.books.items(ofBook: book.id).first?.chapterMarks.map(\.title) == ["Begin", "End"])
    }
}

@Suite struct BookDetailsExportTests {
    @Test func seriesNumberYearAndNarratorTravelInTheStateFile() throws {
        // Given an Audiobookshelf tree imported with its layout, and the same files imported without it
        let tree = try ImportSidecarTests.audiobookshelfTree("abs-export")
        let laidOut = try importAndReadBack([tree.root.path], library: tree.newLibraryPath(), layout: .authorSeries).library
        let plainPath = tree.root.appending(path: "../plain.sqlite").path
        let plain = try importAndReadBack([tree.root.path], library: plainPath).library

        // When the first library's state is exported (through JSON) and imported into the second
        let json = try StateExport.encoder.encode(try laidOut.state.export())
        _ = try plain.state.apply(try StateExport.decoder.decode(StateExport.self, from: json))

        // Then the second library's books have the series, number, year and narrator the folders gave
        let light = try #require(try LibraryDatabase(path: plainPath).catalog.bookListings().first { $0.items.first?.path.contains("Another Light") == true })
        #expect(light.series == "Discworld" && light.seriesNumber == 2 && light.year == 1986 && light.narrator == "Nigel Planer")
    }
}
