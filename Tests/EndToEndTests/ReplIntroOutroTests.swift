import Foundation
import TestSupport
import Testing

/// `intro`, `outro` and `set outro` through the real binary: a `-c` script against a library
/// file (a book of two 20 s MP3s), read back with `status --json` and `book settings`.
@Suite struct ReplIntroOutroTests {
    struct StatusJSON: Decodable {
        let itemNumber: Int
        let itemPosition: Double
        let bookPosition: Double?
        let timeLeft: Double?
        let introOutro: String?
    }

    @Test func aScriptSetsTheIntroAndSeeksLandOutsideWhatIsLeftOut() throws {
        // Given a book of two 20 s files, and a script that sets a default outro of 3 s, the
        // book's own intro of 5 s, and seeks into the first file's intro and into its outro
        let (abplayer, library) = try ReplTests.library("repl-intro-outro")
        let result = try abplayer.run(["-c", "set outro 3s; play \"Ender's Game\"; pause; intro 5s; intro; seek 0:02; status --json; seek 0:18; status --json",
                                       "--output", "null", "--library", library])

        // Then every command succeeded and says what applies, whose setting it is
        #expect(result.status == 0, "\(result.stderr)")
        let said = result.stdoutString.split(separator: "\n").filter { $0.hasPrefix("intro ") }
        #expect(said.count == 2 && said.allSatisfy { $0.hasPrefix("intro 5s (this book), outro 3s (default)") }, "\(result.stdoutString)")
        // and the seek into the intro landed at its end, 5 s into the first file
        let statuses = try result.stdoutString.split(separator: "\n").filter { $0.hasPrefix("{") }.map {
            try JSONDecoder().decode(StatusJSON.self, from: Data($0.utf8))
        }
        #expect(statuses.count == 2)
        #expect(statuses.first?.itemNumber == 1 && statuses.first?.itemPosition == 5, "\(statuses)")
        #expect(statuses.first?.introOutro == "intro 5s, outro 3s")
        // and the one into its outro went on to the second file, 5 s in; 12 s are left to hear
        #expect(statuses.last?.itemNumber == 2 && statuses.last?.itemPosition == 5 && statuses.last?.bookPosition == 25, "\(statuses)")
        #expect(abs((statuses.last?.timeLeft ?? 0) - 12) < 0.01, "\(statuses)")
        // and the book's own intro is stored, the outro its default
        let settings = try abplayer.run(["book", "settings", "--library", library, "Ender's Game"]).requireSuccess().stdoutString
        #expect(settings.hasSuffix(", skip intro 5s, skip outro 3s (default)\n"), "\(settings)")
    }
}
