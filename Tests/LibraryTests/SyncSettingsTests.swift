import Foundation
import GRDB
@testable import Library
import Testing
import TestSupport

/// The device a library syncs as is made once and kept in the file; the folder is set and cleared;
/// a bookmark's sync id, once given, stays.
@Suite struct SyncSettingsTests {
    @Test func theDeviceIsMadeOnceAndKeptInTheLibraryFile() throws {
        // Given a library file that never synced
        let directory = try BuildProducts.temporaryDirectory("sync-settings")
        let path = directory.appending(path: "library.sqlite").path
        let first = try LibraryDatabase(path: path).sync.settings()

        // When it is opened again and given a folder that is not there, then one that is, then the folder is cleared
        let library = try LibraryDatabase(path: path)
        #expect(throws: LibraryError.self) { try library.sync.setFolder(directory.path + "/not-made-yet") }
        try library.sync.setFolder(directory.path)
        let syncing = try library.sync.settings()
        try library.sync.setFolder(nil)

        // Then the device never changed, and the folder is what was said last
        #expect(syncing.device == first.device && syncing.folder == directory.path)
        let reopened = try LibraryDatabase(path: path).sync.settings()
        #expect(reopened.device == first.device && reopened.deviceName == first.deviceName && reopened.folder == nil)
        #expect(!first.deviceName.isEmpty)
        // and another library is another device
        #expect(try LibraryDatabase().sync.settings().device != first.device)
    }

    @Test func aBookmarksSyncIdIsGivenOnceAndKept() throws {
        let library = try LibraryDatabase()
        _ = try importer(library).importPaths([try Fixtures.audiobookTree().path])
        let war = try library.books.book(matching: "War")
        let item = try library.books.items(ofBook: war.id!)[0]
        let bookmark = try library.bookmarks.add(bookId: war.id!, mediaId: item.id!, frame: 100, kind: .user, note: "x")
        let id = try library.sync.syncId(ofBookmark: bookmark.id!)
        #expect(UUID(uuidString: id) != nil)
        #expect(try library.sync.syncId(ofBookmark: bookmark.id!) == id)
        #expect(throws: LibraryError.self) { try library.sync.syncId(ofBookmark: 999_999) }
    }
}

/// Migration v11 on a real file made by the schema before it: bookmarks kept with their ids, kinds
/// and notes, a removed bookmark's number never given again, and the sync jump's kind accepted.
@Suite struct SyncMigrationTests {
    @Test func bookmarksKeepTheirIdsAndARemovedNumberNeverComesBack() throws {
        // Given a v7 library whose newest bookmark (3) was removed
        let path = try BuildProducts.temporaryDirectory("sync-migration").appending(path: "library.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try LibrarySchema.migrator.migrate(queue, upTo: LibrarySchema.listenerDefaultsVersion)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO book (id, title, addedAt) VALUES (1, 'Dune', '2025-01-01');
                INSERT INTO media (id, path, size, fingerprint, sampleRate, durationFrames) VALUES (10, '/b/1.mp3', 1, '1:a', 44100, 441000);
                INSERT INTO bookItem (bookId, mediaId, position) VALUES (1, 10, 0);
                INSERT INTO bookmark (bookId, mediaId, frame, kind, note, createdAt) VALUES
                    (1, 10, 100, 'user', 'one', '2025-01-02'), (1, 10, 200, 'beforeBookmarkJump', NULL, '2025-01-03'),
                    (1, 10, 300, 'user', 'three', '2025-01-04');
                DELETE FROM bookmark WHERE id = 3;
                """)
        }
        try queue.close()

        // When it is opened (migrated) and bookmarks are added
        let library = try LibraryDatabase(path: path)
        let added = try library.bookmarks.add(bookId: 1, mediaId: 10, frame: 400, kind: .user, note: "four")
        let jump = try library.bookmarks.add(bookId: 1, mediaId: 10, frame: 500, kind: .beforeSyncJump)

        // Then the old ones are as they were, and the new ones take numbers never used
        let kept = try library.bookmarks.all(ofBook: 1).filter { $0.id! < 3 }.sorted { $0.id! < $1.id! }
        #expect(kept.map(\.id) == [1, 2] && kept.map(\.note) == ["one", nil] && kept.map(\.kind) == [.user, .beforeBookmarkJump])
        #expect(added.id == 4 && jump.id == 5 && jump.kind == .beforeSyncJump)
    }
}
