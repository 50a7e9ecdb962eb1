import Foundation
import Library
import Listening
import Synchronization
import Testing
import TestSupport

/// `LibraryWatch` on a real library file and real folders: files copied, renamed, deleted and
/// folders made while it runs. Waits are deadlines on what the database says, never fixed sleeps.
@Suite struct LibraryWatchTests {
    /// A library with the book "Dune" (01, 02, 04.mp3) imported from `books/Dune` onto the
    /// shelf "Sci-Fi", and a watch on it that records every report.
    final class Setting: Sendable {
        let root: URL
        let books: URL
        let dune: URL
        let library: LibraryDatabase
        /// The database file itself (the library may be named through a link to it).
        let database: String
        let bookId: Int64
        let reports = Reports()
        let watch: LibraryWatch

        /// `libraryBesideBooks`: the database is `books/library.sqlite`, in the folder the watch
        /// looks at for new book folders (else beside `books`). `throughLink`: the library is
        /// named by `link.sqlite` beside `books`, a symbolic link to the database.
        init(_ name: String, quiet: Duration = .milliseconds(300), longest: Duration = .milliseconds(1500),
             libraryBesideBooks: Bool = false, throughLink: Bool = false) throws {
            root = try BuildProducts.temporaryDirectory("watch-\(name)")
            books = root.appending(path: "books")
            dune = books.appending(path: "Dune")
            try FileManager.default.createDirectory(at: dune, withIntermediateDirectories: true)
            for number in [1, 2, 4] { try writeMP3(number, to: dune.appending(path: String(format: "%02d.mp3", number))) }
            database = (libraryBesideBooks ? books : root).appending(path: "library.sqlite").path
            if throughLink {
                _ = try LibraryDatabase(path: database)   // made first: a link to no file is refused
                let link = root.appending(path: "link.sqlite").path
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
                library = try LibraryDatabase(path: link)
            } else {
                library = try LibraryDatabase(path: database)
            }
            let report = try importer(library).importPaths([dune.path], shelf: "Sci-Fi")
            bookId = try #require(report.books.first?.id)
            let reports = self.reports
            watch = try LibraryWatch(library: library, inspector: DecoderInspector(decoders: testRegistry),
                                     quiet: quiet, longest: longest) { changes in reports.list.withLock { $0.append(changes) } }
            try watch.start()
        }

        deinit { watch.stop() }

        var fileNames: [String] { (try? library.catalog.bookListing(id: bookId).fileNames) ?? [] }
        var duneReports: [LibraryChange] { reports.list.withLock { $0.flatMap { $0.filter { $0.bookId == bookId } } } }
    }

    /// Every call of the watch's `onChange`.
    final class Reports: Sendable {
        let list = Mutex<[[LibraryChange]]>([])
    }

    /// A short MP3 made unique by an ID3v1 tag at its end, so that every file has its own
    /// fingerprint (the fingerprint hashes the last 64 KiB).
    static func writeMP3(_ number: Int, to url: URL) throws {
        var data = try Data(contentsOf: try Fixtures.mp3(seconds: 2, vbr: false))
        var tag = Data("TAG".utf8)
        func field(_ text: String, _ length: Int) {
            tag.append(contentsOf: Array(text.utf8.prefix(length)) + [UInt8](repeating: 0, count: max(0, length - text.utf8.count)))
        }
        // A full comment field: a zero at its 29th byte would make it ID3v1.1 with a track number.
        field("Part \(number)", 30); field("", 30); field("", 30); field("", 4); field(String(repeating: "c", count: 30), 30)
        tag.append(255)
        data.append(tag)
        try data.write(to: url)
    }

    /// True once `condition` holds, false if it still does not after `seconds`.
    static func eventually(_ seconds: Int = 20, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    @Test func aFileCopiedIntoABookFolderJoinsTheBookInOrder() throws {
        // Given a watched library with Dune: 01, 02, 04
        let setting = try Setting("add")

        // When 03.mp3 is written into Dune's folder
        try Self.writeMP3(3, to: setting.dune.appending(path: "03.mp3"))

        // Then the book has it, in its place, and one report says so
        #expect(Self.eventually { setting.fileNames == ["01.mp3", "02.mp3", "03.mp3", "04.mp3"] })
        #expect(Self.eventually { setting.duneReports.map(\.filesAdded) == [1] })
        #expect(setting.duneReports.first?.title == "Dune")
    }

    @Test func filesLinkedIntoABookFolderJoinTheBook() throws {
        // Given a watched library with Dune: 01, 02, 04, and two files outside it
        let setting = try Setting("link")
        let outside = setting.root.appending(path: "outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Self.writeMP3(3, to: outside.appending(path: "03.mp3"))
        try Self.writeMP3(5, to: outside.appending(path: "05.mp3"))

        // When one is hard-linked and the other symlinked into Dune's folder (no write follows)
        #expect(link(outside.appending(path: "03.mp3").path, setting.dune.appending(path: "03.mp3").path) == 0)
        try FileManager.default.createSymbolicLink(atPath: setting.dune.appending(path: "05.mp3").path,
                                                   withDestinationPath: outside.appending(path: "05.mp3").path)

        // Then both join the book in their places
        #expect(Self.eventually { setting.fileNames == ["01.mp3", "02.mp3", "03.mp3", "04.mp3", "05.mp3"] })
        #expect(Self.eventually { setting.duneReports.map(\.filesAdded).reduce(0, +) == 2 })
    }

    @Test func aRenamedFileKeepsItsIdentityPositionAndBookmarks() throws {
        // Given a watched library with a position and a bookmark in Dune's second file
        let setting = try Setting("rename")
        let second = try setting.library.books.items(ofBook: setting.bookId)[1]
        try setting.library.positions.savePosition(bookId: setting.bookId, mediaId: second.id!, frame: 4321)
        try setting.library.bookmarks.add(bookId: setting.bookId, mediaId: second.id!, frame: 99, kind: .user, note: "spice")

        // When the file is renamed
        let renamed = setting.dune.appending(path: "02 The Spice.mp3").path
        try FileManager.default.moveItem(atPath: second.path, toPath: renamed)

        // Then the same media has the new path, and the position and bookmark still point at it
        #expect(Self.eventually { (try? setting.library.books.items(ofBook: setting.bookId).first { $0.id == second.id }?.path) == renamed })
        let items = try setting.library.books.items(ofBook: setting.bookId)
        #expect(items.count == 3 && items.allSatisfy { !$0.isMissing })
        #expect(try setting.library.positions.ofBook(setting.bookId)?.mediaId == second.id)
        #expect(try setting.library.positions.ofBook(setting.bookId)?.frame == 4321)
        #expect(try setting.library.bookmarks.all(ofBook: setting.bookId).map(\.mediaId) == [second.id!])
        #expect(Self.eventually { setting.duneReports.map(\.filesMoved) == [1] })
        #expect(setting.duneReports.first?.filesAdded == 0)
    }

    @Test func aDeletedFileIsMarkedMissingAndStaysInTheBook() throws {
        // Given a watched library with Dune
        let setting = try Setting("delete")
        let last = try setting.library.books.items(ofBook: setting.bookId)[2]

        // When its last file is deleted
        try FileManager.default.removeItem(atPath: last.path)

        // Then it is marked missing, still listed in its place
        #expect(Self.eventually { (try? setting.library.books.items(ofBook: setting.bookId).map(\.isMissing)) == [false, false, true] })
        #expect(setting.fileNames == ["01.mp3", "02.mp3", "04.mp3"])
        #expect(Self.eventually { setting.duneReports.map(\.filesMissing) == [1] })
    }

    @Test func aRenamedBookFolderKeepsItsBookAndTakesNewFilesIntoIt() throws {
        // Given a watched library with Dune
        let setting = try Setting("rename-folder")
        let first = try setting.library.books.items(ofBook: setting.bookId)[0]

        // When Dune's folder is renamed
        let renamed = setting.books.appending(path: "Dune (1965)")
        try FileManager.default.moveItem(at: setting.dune, to: renamed)

        // Then its files are found there, the same media
        #expect(Self.eventually {
            (try? setting.library.books.items(ofBook: setting.bookId).map(\.path)) == ["01.mp3", "02.mp3", "04.mp3"].map { renamed.appending(path: $0).path }
        })
        #expect(try setting.library.books.items(ofBook: setting.bookId)[0].id == first.id)

        // When a file is then copied into the renamed folder
        try Self.writeMP3(3, to: renamed.appending(path: "03.mp3"))

        // Then it joins the same book (no new book), and the library still has one book
        #expect(Self.eventually { setting.fileNames.contains("03.mp3") })
        #expect(try setting.library.catalog.bookListings().count == 1)
        #expect(setting.duneReports.allSatisfy { !$0.isNewBook })
    }

    @Test func aNewFolderBesideABookBecomesABookOnTheSameShelf() throws {
        // Given a watched library with Dune on the shelf Sci-Fi
        let setting = try Setting("folder")

        // When a folder with two MP3s is made beside Dune's
        let messiah = setting.books.appending(path: "Dune Messiah")
        try FileManager.default.createDirectory(at: messiah, withIntermediateDirectories: true)
        try Self.writeMP3(11, to: messiah.appending(path: "1.mp3"))
        try Self.writeMP3(12, to: messiah.appending(path: "2.mp3"))

        // Then it is a book of its own, with both files, on Dune's shelf
        func messiahListing() -> BookListing? {
            try? setting.library.catalog.bookListings().first { $0.id != setting.bookId }
        }
        #expect(Self.eventually { messiahListing()?.fileNames == ["1.mp3", "2.mp3"] })
        #expect(messiahListing()?.title == "Dune Messiah")
        #expect(messiahListing()?.shelf == "Sci-Fi")
        // The report comes after the pass has written the book: waited for too.
        func newBooks() -> [String] { setting.reports.list.withLock { $0.flatMap { $0.filter(\.isNewBook) } }.map(\.title) }
        #expect(Self.eventually { newBooks() == ["Dune Messiah"] })
    }

    @Test func anM4BSavedBesideBookFoldersBecomesABookAndAStrayChapterDoesNot() throws {
        // Given a watched library with Dune's folder on the shelf Sci-Fi
        let setting = try Setting("loose")

        // When an M4B with chapters and a 2 s MP3 are saved beside Dune's folder (the MP3 first)
        try Self.writeMP3(20, to: setting.books.appending(path: "stray.mp3"))
        let m4b = try Fixtures.aac(seconds: 6, container: .m4b, tags: ["album": "Children of Dune"],
                                   chapters: [(0, "One"), (3, "Two")])
        try FileManager.default.copyItem(at: m4b, to: setting.books.appending(path: "Children of Dune.m4b"))

        // Then the M4B is a book on Dune's shelf, and the MP3 is no book
        func newListings() -> [BookListing] { ((try? setting.library.catalog.bookListings()) ?? []).filter { $0.id != setting.bookId } }
        #expect(Self.eventually { newListings().map(\.fileNames) == [["Children of Dune.m4b"]] })
        #expect(newListings().first?.shelf == "Sci-Fi")
        // (the report comes once the pass has written the book: waited for too)
        #expect(Self.eventually { setting.reports.list.withLock { $0.flatMap { $0.filter(\.isNewBook) } }.count == 1 })
        #expect(try setting.library.catalog.bookListings().count == 2)
    }

    @Test func aBurstOf200FilesIsOneReportForTheBook() throws {
        // Given a watched library with Dune, and 200 new files ready beside it (the quiet time
        // is longer than the default so that a loaded machine cannot split the burst)
        let setting = try Setting("burst", quiet: .seconds(1), longest: .seconds(10))
        let staging = setting.root.appending(path: "staging")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let names = (1...200).map { String(format: "05-%03d.mp3", $0) }
        for (index, name) in names.enumerated() { try Self.writeMP3(100 + index, to: staging.appending(path: name)) }

        // When they are all moved into Dune's folder at once
        for name in names {
            try FileManager.default.moveItem(at: staging.appending(path: name), to: setting.dune.appending(path: name))
        }

        // Then the book has them all, in order, reported in one change
        #expect(Self.eventually(60) { setting.duneReports.reduce(0) { $0 + $1.filesAdded } >= 200 })
        #expect(setting.duneReports.count == 1)
        #expect(setting.duneReports.first?.filesAdded == 200)
        #expect(setting.fileNames == ["01.mp3", "02.mp3", "04.mp3"] + names)
    }
}
