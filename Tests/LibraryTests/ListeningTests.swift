import Foundation
import Library
import Listening
import PlayerCore
import PluginHost
import Testing
import TestSupport

/// The recorder fed by the real engine playing real files (null output, unpaced).
@Suite struct ListeningTests {
    /// Plays `paths` from `start` to the end and returns the engine's events and last position.
    static func play(_ paths: [String], from start: PlaybackPosition) async throws -> ([PlaybackEvent], PlaybackPosition?) {
        let engine = PlaybackEngine(decoders: testRegistry, sinks: try testRegistry.sinkOpener(pluginID: "null", options: ["paced": "false"]))
        engine.load(paths, start: start)
        let events = await events(of: engine, within: 60)
        let position = engine.position
        engine.shutdown()
        return (events, position)
    }

    @Test func playingABookToTheEndRecordsPlaysSessionAndFinished() async throws {
        // Given an imported three-item book, never played
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().appending(path: "Мастер и Маргарита").path])
        let book = try library.books.book(matching: "Мастер")
        let media = try library.books.items(ofBook: book.id!)
        let start = try library.positions.startingPoint(ofBook: book.id!)
        #expect(start == (0, 0))

        // When the engine plays it through and the recorder gets every event
        let recorder = ListeningRecorder(library: library, bookId: book.id!, mediaIds: media.map { $0.id! },
                                         start: PlaybackPosition(item: 0, frame: 0))
        let (events, last) = try await Self.play(media.map(\.path), from: PlaybackPosition(item: 0, frame: 0))
        #expect(events.contains { if case .ended = $0 { true } else { false } })
        events.forEach(recorder.handle)
        recorder.finish(at: last)

        // Then each item was played once, one session spans the book, and the book is finished
        #expect(try library.history.itemPlays(ofBook: book.id!).map(\.playCount) == [1, 1, 1])
        let sessions = try library.history.sessions(ofBook: book.id!)
        #expect(sessions.count == 1)
        #expect(sessions.first?.fromMediaId == media[0].id && sessions.first?.toMediaId == media[2].id)
        let position = try #require(try library.positions.ofBook(book.id!))
        #expect(position.mediaId == media[2].id)
        #expect(abs(position.frame - 22050) < 2205)   // at the end of the last 1 s item, within 0.1 s
        #expect(try library.catalog.bookListing(id: book.id!).finished)
        #expect(try library.catalog.books(on: .finished).map(\.id) == [book.id])

        // When it is started again, it starts from the top, asking nothing, and is no longer finished
        #expect(try library.positions.startingPoint(ofBook: book.id!) == (0, 0))
        #expect(try library.catalog.bookListing(id: book.id!).finished == false)
    }

    @Test func aFinishedBookGoneBackIntoStartsWhereItWasLeft() async throws {
        // Given a finished three-item book whose listener then went back into its second item
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().appending(path: "Мастер и Маргарита").path])
        let book = try library.books.book(matching: "Мастер")
        let media = try library.books.items(ofBook: book.id!)
        try library.positions.savePosition(bookId: book.id!, mediaId: media[2].id!, frame: media[2].durationFrames!)
        try library.positions.markFinished(bookId: book.id!)
        #expect(try library.catalog.bookListing(id: book.id!).finished)
        try library.positions.savePosition(bookId: book.id!, mediaId: media[1].id!, frame: 4410)

        // When it is played again, it starts there, not at the top, and is no longer finished
        #expect(try library.positions.startingPoint(ofBook: book.id!) == (1, 4410))
        #expect(try library.catalog.bookListing(id: book.id!).finished == false)
    }

    @Test func aFileThatFailsToOpenNeverResetsThePosition() async throws {
        // Given a one-item book with a saved position, whose file has since been damaged
        let tree = try copyOfAudiobookTree("damaged")
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([tree.appending(path: "Untagged Book/Part 1.mp3").path])
        let book = try library.books.book(matching: "Part 1")
        let media = try library.books.items(ofBook: book.id!)
        try library.positions.savePosition(bookId: book.id!, mediaId: media[0].id!, frame: 11025)
        try Data("no longer audio".utf8).write(to: URL(fileURLWithPath: media[0].path))

        // When it is played from the saved position and fails
        let start = PlaybackPosition(item: 0, frame: 11025)
        let recorder = ListeningRecorder(library: library, bookId: book.id!, mediaIds: [media[0].id!], start: start)
        let (events, last) = try await Self.play([media[0].path], from: start)
        #expect(events.contains { if case .failed = $0 { true } else { false } })
        events.forEach(recorder.handle)
        recorder.finish(at: last)

        // Then the saved position is untouched, and the book is not finished
        #expect(try library.positions.ofBook(book.id!)?.frame == 11025)
        #expect(try library.catalog.bookListing(id: book.id!).finished == false)
    }
}

@Suite struct HistoryTests {
    @Test func automaticBookmarksAreBoundedAndUndoGoesBackOneJumpAtATime() throws {
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().appending(path: "Untagged Book").path])
        let book = try library.books.book(matching: "Untagged")
        let mediaId = try library.books.items(ofBook: book.id!)[0].id!
        try library.bookmarks.add(bookId: book.id!, mediaId: mediaId, frame: 1, kind: .user, note: "mine")
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for jump in 0..<(BookmarkStore.automaticBookmarkLimit + 10) {
            try library.bookmarks.add(bookId: book.id!, mediaId: mediaId, frame: Int64(100 + jump), kind: .beforeSeek,
                                      at: start.addingTimeInterval(Double(jump)))
        }
        let all = try library.bookmarks.all(ofBook: book.id!)
        // The user's bookmark stays; automatic ones keep only the newest `limit`
        #expect(all.filter { $0.kind == .user }.count == 1)
        #expect(all.filter(\.kind.isAutomatic).count == BookmarkStore.automaticBookmarkLimit)
        #expect(all.filter(\.kind.isAutomatic).first?.frame == 110)
        // Undo pops the newest jumps, newest first
        #expect(try library.bookmarks.popLastJump(bookId: book.id!)?.frame == 159)
        #expect(try library.bookmarks.popLastJump(bookId: book.id!)?.frame == 158)
        #expect(try library.bookmarks.all(ofBook: book.id!, includeAutomatic: false).map(\.note) == ["mine"])
    }

    @Test func sessionsGiveTimePerDayPerBookAndSmartShelves() throws {
        // Given four books: one listened to for 30 min, one for 10 min, one finished, one untouched
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        func first(_ title: String) throws -> (Int64, Int64) {
            let book = try library.books.book(matching: title)
            return (book.id!, try library.books.items(ofBook: book.id!)[0].id!)
        }
        let (war, warItem) = try first("War")
        let (master, masterItem) = try first("Мастер")
        let (cat, _) = try first("猫")
        let now = Date()
        let s1 = try library.positions.startSession(bookId: war, mediaId: warItem, frame: 0, speed: 1, at: now.addingTimeInterval(-3600))
        try library.positions.saveProgress(bookId: war, mediaId: warItem, frame: 5000, session: s1, wallSeconds: 1800, at: now.addingTimeInterval(-1800))
        let s2 = try library.positions.startSession(bookId: master, mediaId: masterItem, frame: 0, speed: 1.5, at: now.addingTimeInterval(-700))
        try library.positions.saveProgress(bookId: master, mediaId: masterItem, frame: 100, session: s2, wallSeconds: 600, at: now.addingTimeInterval(-100))
        try library.positions.markFinished(bookId: cat)

        // Then the figures and the smart shelves read back as listened
        let perBook = try library.history.listeningPerBook()
        #expect(perBook.map(\.bookId) == [war, master])
        #expect(perBook.map(\.wallSeconds) == [1800, 600])
        #expect(try library.history.listeningPerDay(days: 2).reduce(0) { $0 + $1.wallSeconds } == 2400)
        #expect(try library.catalog.books(on: .recentlyPlayed).map(\.id) == [master, war])
        #expect(try library.catalog.books(on: .mostPlayed).map(\.id) == [war, master])
        #expect(Set(try library.catalog.books(on: .inProgress).map(\.id)) == [war, master])
        #expect(try library.catalog.books(on: .finished).map(\.id) == [cat])
        #expect(try library.catalog.books(on: .notStarted).map(\.title) == ["Untagged Book"])
    }

    @Test func browsingByTagFindsMediaAndAddsThemToABook() throws {
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        #expect(try library.catalog.browse(.artist).map(\.value) == ["Лев Толстой", "Михаил Булгаков", "夏目漱石"])
        #expect(try library.catalog.browse(.artist).map(\.mediaCount) == [4, 3, 3])
        #expect(try library.catalog.browse(.albumArtist).map(\.value) == ["Leo Tolstoy"])
        #expect(try library.catalog.browse(.composer, search: "曲").map(\.value) == ["作曲家"])
        #expect(try library.catalog.browse(.narrator, search: "nobody's").map(\.value) == ["Nobody's Voice"])
        #expect(try library.catalog.browse(.album, search: "100%").isEmpty)   // LIKE wildcards are literal

        // When the cat book's media are picked by artist and added to the Untagged book
        let picked = try library.catalog.media(where: .artist, equals: "夏目漱石")
        let untagged = try library.books.book(matching: "Untagged")
        try library.books.addItems(toBook: untagged.id!, mediaIds: picked.map { $0.id! })
        #expect(try library.books.items(ofBook: untagged.id!).count == 6)
        // and a free-text search finds media by any tag or path
        #expect(try library.catalog.media(where: nil, equals: nil, search: "глава").count == 3)
    }
}
