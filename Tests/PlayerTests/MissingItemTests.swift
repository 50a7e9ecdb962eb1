import Foundation
import Library
@testable import Player
import PlayerCore
import Testing
import TestSupport

/// A book with a file gone plays what it has, as cmus and mpv play on past a file they cannot
/// open: the missing file is said once (by the load, not again by the engine that skips it nor
/// at the next play), and the places of the files around it stay theirs.
@Suite struct MissingItemTests {
    @Test func aBookWithAMissingFilePlaysTheRestAndSaysSoOnce() async throws {
        // Given a book of three files whose second was deleted, and found missing by a rescan
        let harness = try ControllerHarness("missing-middle", paced: false)
        let bookId = try harness.book("Gaps", itemSeconds: [2, 3, 4])
        let missing = harness.folder.appending(path: "Gaps/02.mp3").path
        try FileManager.default.removeItem(atPath: missing)
        #expect(try harness.library.media.rescan().missing == [missing])

        // When it plays through to its end
        try harness.perform(.play(bookId: bookId))
        let ended = await harness.run(until: {
            harness.events.contains { if case .ended = $0 { true } else { false } }
        }, seconds: 60)

        // Then it played items 1 and 3, heard to the end of the last one (its own frames, not
        // moved by the gap), and said the missing file once, naming it
        #expect(ended, "\(harness.notices)")
        #expect(harness.itemsOpened() == [0, 2], "\(harness.events)")
        let lastHeard = harness.events.compactMap { if case let .position(heard) = $0 { heard } else { nil } }.last
        #expect(lastHeard?.item == 2 && (lastHeard?.frame ?? 0) > 3 * 22050, "\(String(describing: lastHeard))")
        let said = harness.notices.filter { $0.isProblem || { if case .itemFailed = $0 { true } else { false } }($0) }
        #expect(said == [.fileMissing(book: "Gaps", path: missing)], "\(harness.notices)")

        // and playing it again in the same run says nothing more about that file
        let before = harness.notices.count
        try harness.perform(.play(bookId: bookId))
        _ = await harness.run(until: { harness.events.filter { if case .ended = $0 { true } else { false } }.count >= 2 }, seconds: 60)
        #expect(!harness.notices.dropFirst(before).contains { $0.text.contains(missing) }, "\(harness.notices)")
    }

    @Test func aBookWhoseSavedPlaceIsInAMissingFileIsRefusedAndThePlaceKept() async throws {
        // Given a book of three files listened to into the second, which then goes missing
        let harness = try ControllerHarness("missing-here", paced: false)
        let bookId = try harness.book("Here", itemSeconds: [2, 3, 4])
        let second = try harness.library.books.items(ofBook: bookId)[1]
        try harness.library.positions.savePosition(bookId: bookId, mediaId: second.id!, frame: 22050)
        let saved = try harness.saved(bookId)
        #expect(saved == (1, 22050), "\(saved)")
        let missing = harness.folder.appending(path: "Here/02.mp3").path
        try FileManager.default.removeItem(atPath: missing)
        #expect(try harness.library.media.rescan().missing == [missing])
        // When it is played, then it is refused, naming the file and how to find it, and the
        // place is where it was (not moved on to the next file)
        #expect {
            try harness.perform(.play(bookId: bookId))
        } throws: { error in
            "\(error)".contains("02.mp3 is missing") && "\(error)".contains("the saved position is kept")
        }
        #expect(try harness.saved(bookId) == saved)
    }

    @Test func aBookWhoseFilesAreAllMissingIsRefusedWithTheWayToFindThem() throws {
        // Given a book of two files, both deleted and found missing
        let harness = try ControllerHarness("missing-all", paced: false)
        let bookId = try harness.book("Gone", itemSeconds: [2, 3])
        try FileManager.default.removeItem(at: harness.folder.appending(path: "Gone"))
        #expect(try harness.library.media.rescan().missing.count == 2)
        // When it is played, then it is refused with one error that says how to find them
        #expect {
            try harness.perform(.play(bookId: bookId))
        } throws: { error in
            "\(error)".contains("01.mp3 is missing") && "\(error)".contains("rescan FOLDER")
        }
    }
}
