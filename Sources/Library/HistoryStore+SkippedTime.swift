import GRDB

/// Time the player left out of what it played, kept per listening session and summed per book
/// and in total for `stats`.
public enum SkippedTime: Sendable, CaseIterable {
    /// Silences skip silence shortened (`listeningSession.silenceSkippedSeconds`).
    case silence
    /// Intros and outros left out (`listeningSession.introOutroSkippedSeconds`).
    case introOutro

    var column: String {
        switch self {
        case .silence: "silenceSkippedSeconds"
        case .introOutro: "introOutroSkippedSeconds"
        }
    }
}

extension HistoryStore {
    /// Sets the source seconds of `kind` left out during a session (the session's running total).
    public func saveSkipped(_ kind: SkippedTime, session: Int64, seconds: Double) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE listeningSession SET \(kind.column) = ? WHERE id = ?", arguments: [max(0, seconds), session])
        }
    }

    /// Seconds of `kind` left out in a book's sessions, or in all books' when `bookId` is nil.
    public func skippedSeconds(_ kind: SkippedTime, ofBook bookId: Int64? = nil) throws -> Double {
        try writer.read { db in
            try Double.fetchOne(db, sql: "SELECT total(\(kind.column)) FROM listeningSession WHERE ?1 IS NULL OR bookId = ?1",
                                arguments: [bookId]) ?? 0
        }
    }
}
