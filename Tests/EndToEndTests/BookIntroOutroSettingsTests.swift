import Foundation
import TestSupport
import Testing

/// `abplayer book settings --skip-intro/--skip-outro`: typed in the REPL's units, shown, read
/// back from the library, refused out of range, and dropped for the default.
@Suite struct BookIntroOutroSettingsTests {
    @Test func introAndOutroAreSetShownAndDroppedForTheDefault() throws {
        // Given a library of made-up books (no audio is needed to edit settings)
        let abplayer = try AbplayerProcess("book-intro-outro")
        let library = try BookSettingsTests.library("intro-outro", in: abplayer)

        // When a book is given an intro of 30 s and an outro of 45 s
        let set = try BookSettingsTests.settings(abplayer, library, "Book 1", ["--skip-intro", "30s", "--skip-outro", "45"])

        // Then it says so, and says the same when asked again (read back from the library)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdoutString.hasSuffix(", skip intro 30s, skip outro 45s\n"), "\(set.stdoutString)")
        #expect(try BookSettingsTests.settings(abplayer, library, "Book 1").stdoutString == set.stdoutString)
        // and the other book, not set, says nothing of them
        #expect(!(try BookSettingsTests.settings(abplayer, library, "Book 0").stdoutString.contains("intro")))

        // When the outro is turned off for the book and the intro follows the default again
        let changed = try BookSettingsTests.settings(abplayer, library, "Book 1", ["--skip-outro", "off", "--skip-intro", "default"])
        #expect(changed.stdoutString.hasSuffix(", skip outro off\n"), "\(changed.stdoutString)")
    }

    @Test func anIntroOutOfRangeIsRefusedInOneLineAndChangesNothing() throws {
        let abplayer = try AbplayerProcess("book-intro-outro-refused")
        let library = try BookSettingsTests.library("intro-outro-refused", in: abplayer)
        let before = try BookSettingsTests.settings(abplayer, library, "Book 1", ["--skip-intro", "20"]).stdoutString

        let result = try BookSettingsTests.settings(abplayer, library, "Book 1", ["--speed", "1.5", "--skip-intro", "11m"])

        #expect(result.status == 64)
        #expect(result.stderr == "abplayer: --skip-intro: '11m' is out of range: use a time from 0 to 10m (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m)\n")
        #expect(try BookSettingsTests.settings(abplayer, library, "Book 1").stdoutString == before)
    }
}
