import Foundation
import Library
import Testing
import TestSupport

/// A library kept beside its books (`--library ~/Audiobooks/library.sqlite`): its database, log
/// and shared memory are never opened but by SQLite. Opening and closing one of them anywhere in
/// the process drops SQLite's POSIX locks; the next process to open the library then deletes the
/// log the player still writes its place into, and those places are gone when it quits. Checked
/// as a listener would lose them: what the library saves, another process (sqlite3) must read.
@Suite struct LibraryOwnFilesTests {
    typealias Setting = LibraryWatchTests.Setting

    /// Saves two places one after the other, each read back by another process: the first read
    /// of a library that lost its locks still finds the log, and deletes it as it closes.
    static func expectSavedPlacesReachOtherProcesses(_ setting: Setting) throws {
        let database = setting.database
        let mediaId = try #require(try setting.library.books.items(ofBook: setting.bookId).first?.id)
        for frame: Int64 in [44_100, 88_200] {
            try setting.library.positions.savePosition(bookId: setting.bookId, mediaId: mediaId, frame: frame)
            let read = try Command.run("sqlite3", [database, "SELECT frame FROM position WHERE bookId = \(setting.bookId)"]).requireSuccess()
            #expect(read.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines) == "\(frame)")
        }
    }

    static func mediaPaths(_ setting: Setting) throws -> [String] {
        try setting.library.writer.read { db in try String.fetchAll(db, sql: "SELECT path FROM media") }
    }

    /// `throughLink`: the library named through a symbolic link from elsewhere; SQLite keeps the
    /// log and shared memory beside the real database, which is what the watch sees.
    @Test(arguments: [false, true])
    func theWatchNeverOpensTheLibrarysOwnFilesBesideItsBooks(throughLink: Bool) throws {
        // Given a watched library whose database is in the folder where new book folders are looked for
        let setting = try Setting("own-files", libraryBesideBooks: true, throughLink: throughLink)

        // When another process reads the library by its database's name (the watch sees it close
        // the log and the shared memory), and then a new book folder is made there (taken in by a later pass)
        _ = try Command.run("sqlite3", [setting.database, "SELECT count(*) FROM book"]).requireSuccess()
        let messiah = setting.books.appending(path: "Dune Messiah")
        try FileManager.default.createDirectory(at: messiah, withIntermediateDirectories: true)
        try LibraryWatchTests.writeMP3(11, to: messiah.appending(path: "1.mp3"))
        #expect(LibraryWatchTests.eventually { setting.reports.list.withLock { $0.flatMap { $0.filter(\.isNewBook) } }.count == 1 })

        // Then none of the library's files was taken for media, and its places still reach other processes
        #expect(try Self.mediaPaths(setting).allSatisfy { !$0.contains("library.sqlite") })
        try Self.expectSavedPlacesReachOtherProcesses(setting)
    }

    @Test func importingTheFolderThatHoldsTheLibraryLeavesItsOwnFilesAlone() throws {
        // Given a library in the folder of book folders, read by another process (so its log and
        // shared memory are there too)
        let setting = try Setting("own-import", libraryBesideBooks: true)
        setting.watch.stop()
        let database = try #require(setting.library.path)
        _ = try Command.run("sqlite3", [database, "SELECT count(*) FROM book"]).requireSuccess()

        // When that whole folder is imported, and the database named as a file to import
        let report = try importer(setting.library).importPaths([setting.books.path, database])

        // Then no file of the library is media, the one named is said to be the library's own,
        // and the library's places still reach other processes
        #expect(try Self.mediaPaths(setting).allSatisfy { !$0.contains("library.sqlite") })
        #expect(report.skipped.contains { $0.path == database && $0.reason.contains("library's own") })
        try Self.expectSavedPlacesReachOtherProcesses(setting)
    }

    @Test func exportNeverWritesOverTheLibraryNorImportReadsIt() throws {
        // Given a library with a book and a place
        let setting = try Setting("own-export")
        setting.watch.stop()
        let database = try #require(setting.library.path)
        let mediaId = try #require(try setting.library.books.items(ofBook: setting.bookId).first?.id)
        try setting.library.positions.savePosition(bookId: setting.bookId, mediaId: mediaId, frame: 44_100)

        // When the state is exported to the library's own file (or its log), and imported from it
        // Then each is refused with one line naming the file, and the library is as it was
        for path in [database, database + "-wal"] {
            let refusal = #expect(throws: LibraryError.self) { try setting.library.state.export(toFile: path) }
            #expect(refusal?.description.contains("own database file") == true, "\(String(describing: refusal))")
        }
        #expect(throws: LibraryError.self) { try setting.library.state.read(fromFile: database) }
        #expect(try setting.library.catalog.bookListings().count == 1)
        try Self.expectSavedPlacesReachOtherProcesses(setting)
        // and a file of its own is written as ever
        let json = setting.root.appending(path: "state.json").path
        #expect(try setting.library.state.export(toFile: json).books.count == 1)
        #expect(try setting.library.state.read(fromFile: json).books.count == 1)
    }
}
