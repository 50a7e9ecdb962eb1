import Foundation
import TestSupport
import Testing

/// Counts of one read as one: "1 session", "1 file", "1 shelf" (a listener stops trusting a
/// player that says "1 sessions").
@Suite struct PluralTests {
    @Test func countsOfOneAreSingular() throws {
        // Given Ender's Game on the shelf Science Fiction, listened to once (played on until a
        // place past 0:02 is saved, so that one listening session is recorded)
        let (abplayer, library) = try ReplTests.library("plurals")
        _ = try ReplTests.runHoldingInput(abplayer, library: library, typing: "play Ender", then: "status") {
            (try ListenTests.savedSeconds(abplayer, library: library) ?? 0) >= 2
        }.requireSuccess()

        // When `stats` lists the time per book
        let stats = try abplayer.run(["stats", "--library", library]).requireSuccess().stdoutString
        // Then the book has 1 session, not "1 sessions"
        let bookLine = stats.split(separator: "\n").first { $0.hasSuffix("Ender's Game") }
        #expect(bookLine?.contains(" 1 session ") == true, "\(stats)")

        // When one file is added to the book
        let extra = abplayer.home.appending(path: "Extra")
        try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 2, vbr: false), to: extra.appending(path: "Epilogue.mp3"))
        let added = try abplayer.run(["book", "add", "--library", library, "Ender", extra.appending(path: "Epilogue.mp3").path])
        // Then it says 1 file
        #expect(added.stdoutString == "added 1 file to #1 Ender's Game\n", "\(added.stdoutString) \(added.stderr)")

        // When the one shelf with its one book is deleted, at the prompt and from the command line
        let refused = try abplayer.run(["-c", "shelf new '/Science Fiction/Space'; shelf rm '/Science Fiction'", "--library", library])
        #expect(refused.stderr.contains("(1 shelf, 1 book inside)"), "\(refused.stderr)")
        let deleted = try abplayer.run(["shelf", "rm", "--force", "--library", library, "Science Fiction"]).requireSuccess()
        // Then the counts are singular where they are one
        #expect(deleted.stdoutString == "deleted 2 shelves and 1 book (their media stay in the library)\n", "\(deleted.stdoutString)")
    }
}
