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

    @Test func syncStatusShowsUnderEachBookTheDevicesThatListenedLastAndCountsTheRest() throws {
        // Given a book seven other devices have places in, newest first, and this device's own
        let now = Date(timeIntervalSince1970: 1_764_000_000)
        let elsewhere = (1...7).map { number in
            SyncBookStatus.Place(device: DeviceID("D\(number)")!, deviceName: "device \(number)", seconds: Double(number * 60),
                                 listenedAt: now.addingTimeInterval(Double(-number * 60)))
        }
        let here = SyncBookStatus.Place(device: DeviceID("HERE")!, deviceName: nil, seconds: 30, listenedAt: now.addingTimeInterval(-3600))
        let book = SyncBookStatus(bookId: 1, title: "Dune", here: here, elsewhere: elsewhere)

        // Then the book's lines are here, the five that listened last, and how many more
        let lines = SyncText.statusLines([book], now: now)
        #expect(lines.count == 1 + 1 + 5 + 1, "\(lines)")
        #expect(lines[0] == "Dune" && lines[1].hasPrefix("  here ") && lines[2].hasPrefix("  device 1 ") && lines[6].hasPrefix("  device 5 "))
        #expect(lines.last == "  and 2 other devices ('abplayer sync status --all' lists every one)")
        // and --all lists every one, with no count
        let all = SyncText.statusLines([book], now: now, devicesPerBook: nil)
        #expect(all.count == 1 + 1 + 7 && all.last?.hasPrefix("  device 7 ") == true, "\(all)")
    }
}
