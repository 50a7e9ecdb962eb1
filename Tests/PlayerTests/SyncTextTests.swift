import Foundation
@testable import Library
import Player
import Testing

/// What an exchange says it took from other devices, in the words `sync now`, the REPL and a
/// player's notices share.
@Suite struct SyncTextTests {
    @Test func anExchangeSaysHowManyBooksTookSettingsAndChaptersFromAnotherDevice() {
        var report = SyncExchangeReport()
        report.settingsChanged = 2
        report.chaptersChanged = 1
        #expect(SyncText.reportLines(report) == [
            "2 books set as on another device (speed, skips, sleep timer, repeat, shuffle; the volume stays this device's)",
            "1 book with chapters as on another device",
        ])
        // and nothing taken is nothing said
        #expect(SyncText.reportLines(SyncExchangeReport()).isEmpty)
    }
}
