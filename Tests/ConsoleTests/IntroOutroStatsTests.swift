import Foundation
import GRDB
@testable import Console
import Library
import Testing
import TestSupport

/// `stats` counts the time intro and outro skipping left out, as it counts the silence skipped:
/// per book and in total.
@Suite struct IntroOutroStatsTests {
    @Test func statsSayHowMuchWasLeftOutPerBookAndInTotal() throws {
        // Given a library with a book listened to in two sessions that left out 60 s and 30 s
        let folder = try BuildProducts.temporaryDirectory("intro-outro-stats")
        let library = try LibraryDatabase(path: folder.appending(path: "library.sqlite").path)
        try library.writer.write { db in
            try db.execute(sql: """
                INSERT INTO book (id, title, addedAt) VALUES (1, 'Lectures', '2025-01-01 10:00:00');
                INSERT INTO media (id, path, size, fingerprint, sampleRate, durationFrames) VALUES (1, '/b/1.mp3', 10, '10:01', 44100, 441000);
                INSERT INTO bookItem (bookId, mediaId, position) VALUES (1, 1, 0);
                INSERT INTO listeningSession (bookId, fromMediaId, fromFrame, toMediaId, toFrame, startedAt, endedAt, wallSeconds, speed,
                                              introOutroSkippedSeconds)
                    VALUES (1, 1, 0, 1, 44100, '2025-01-01 10:00:00', '2025-01-01 10:10:00', 600, 1, 60),
                           (1, 1, 0, 1, 44100, '2025-01-02 10:00:00', '2025-01-02 10:10:00', 600, 1, 30);
                """)
        }

        // When stats are asked for, for every book and for the one book
        let all = try LibraryText.statsLines(library, book: nil, days: 14)
        let one = try LibraryText.statsLines(library, book: 1, days: 14)

        // Then the 90 s are said beside the book, in total, and for the book
        #expect(all.contains { $0.contains("intros/outros skipped: 1:30") && $0.hasSuffix("Lectures") }, "\(all)")
        #expect(all.last == "intros/outros skipped: 1:30 in total", "\(all)")
        #expect(one.last == "intros/outros skipped: 1:30", "\(one)")
    }
}
