import GRDB

/// The time skip silence saved: kept per listening session (`listeningSession.silenceSkippedSeconds`),
/// summed per book and in total for `stats`.
extension HistoryStore {
    /// Sets the source seconds cut out of silences during a session (the session's running total).
    public func saveSilenceSkipped(session: Int64, seconds: Double) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE listeningSession SET silenceSkippedSeconds = ? WHERE id = ?",
                           arguments: [max(0, seconds), session])
        }
    }

    /// Seconds of silence skipped in a book's sessions, or in all books' when `bookId` is nil.
    public func silenceSkippedSeconds(ofBook bookId: Int64? = nil) throws -> Double {
        try writer.read { db in
            try Double.fetchOne(db, sql: """
                SELECT total(silenceSkippedSeconds) FROM listeningSession WHERE ?1 IS NULL OR bookId = ?1
                """, arguments: [bookId]) ?? 0
        }
    }
}
