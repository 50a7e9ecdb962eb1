import Foundation
import Player
@testable import Console
import Testing

/// The player screen's times with skip silence on: as they will be heard.
@Suite struct SkipSilenceScreenTests {
    @Test func theTimesLeftAreAsHeardAndTheScreenSaysSilencesAreSkipped() throws {
        // Given a book at 1.5x skipping silence, a fifth of it cut so far, 2250 s of source
        // left (the status's time left as heard: 2250 * 0.8 / 1.5 = 1200 s)
        var status = try PlayerScreenLayoutTests.status()
        status.skipSilenceMs = 600
        status.silenceSkippedFraction = 0.2
        status.timeLeft = 1200
        // When the screen is drawn
        let lines = PlayerScreenLayout(status: status, message: nil)
            .lines(size: ScreenSize(columns: 80, rows: 24), style: PlayerScreenLayoutTests.monochrome)
        let text = lines.map(PlayerScreenLayoutTests.visible).joined(separator: "\n")
        // Then the chapter's 210 s of source left are 210 * 0.8 / 1.5 = 112 s heard, the book's
        // 20 min, and it says why
        #expect(text.contains("1:52 left in chapter, 20:00 in book at 1.5x, silences skipped"), "\(text)")
    }

    @Test func theScreenSaysWhenIntrosAndOutrosAreSkipped() throws {
        // Given a book leaving out 30 s at the start and 45 s at the end of every file
        var status = try PlayerScreenLayoutTests.status()
        status.introOutro = "intro 30s, outro 45s"
        // When the screen is drawn, then its time left line says so
        let lines = PlayerScreenLayout(status: status, message: nil)
            .lines(size: ScreenSize(columns: 100, rows: 24), style: PlayerScreenLayoutTests.monochrome)
        let text = lines.map(PlayerScreenLayoutTests.visible).joined(separator: "\n")
        #expect(text.contains("in book at 1.5x, intro 30s, outro 45s skipped"), "\(text)")
        // and the status's text says it beside the book's time left
        #expect(status.text.contains(" skipping intro 30s, outro 45s"), "\(status.text)")
    }
}
