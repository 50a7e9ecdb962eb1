import GRDB

/// The time intro and outro skipping left out: kept per listening session
/// (`listeningSession.introOutroSkippedSeconds`), summed per book and in total for `stats`.
extension HistoryStore {
    /// Sets the source seconds of intros and outros left out during a session (its running total).
    public func saveIntroOutroSkipped(session: Int64, seconds: Double) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE listeningSession SET introOutroSkippedSeconds = ? WHERE id = ?",
                           arguments: [max(0, seconds), session])
        }
    }

    /// Seconds of intros and outros left out in a book's sessions, or in all books' when `bookId` is nil.
    public func introOutroSkippedSeconds(ofBook bookId: Int64? = nil) throws -> Double {
        try writer.read { db in
            try Double.fetchOne(db, sql: """
                SELECT total(introOutroSkippedSeconds) FROM listeningSession WHERE ?1 IS NULL OR bookId = ?1
                """, arguments: [bookId]) ?? 0
        }
    }
}
