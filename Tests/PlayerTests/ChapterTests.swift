import Foundation
import Library
@testable import Player
import PlayerCore
import Testing

/// Chapters as the listener uses them: files of a many-file book standing as chapters, `chapters`
/// listing them, `chapter NAME`, and the place every move answers with.
@Suite struct ChapterTests {
    @Test func aBookOfFilesIsListedAndNavigatedByChapterAndEveryMoveSaysWhereItLanded() async throws {
        // Given a book of three 4-second files with no chapter marks, loaded and paused
        let player = try ControllerHarness(clocked: "chapters")
        let book = try player.book("Walk", itemSeconds: [4, 4, 4])
        try player.perform(.play(bookId: book))
        try player.perform(.pause)
        let titles = try #require(player.controller.loadedBook?.itemTitles)

        // When the chapters are listed: one per file, with its start and length, the first marked
        guard case let .chapters(title, chapters, current) = try player.perform(.chapters(bookId: nil)) else {
            Issue.record("no chapters"); return
        }
        #expect(title == "Walk" && current == 0)
        #expect(chapters.map(\.title) == titles && chapters.allSatisfy { $0.isWholeItem })
        #expect(chapters.map(\.start) == [0, 4, 8] && chapters.map(\.length) == [4, 4, 4])

        // When a chapter is named by a unique part of its title: it plays from its start, and
        // the answer is the place, in the book and in the chapter
        guard case let .moved(place) = try player.perform(.chapter(.named(String(titles[2].suffix(2))))) else {
            Issue.record("no place"); return
        }
        #expect(player.status.itemNumber == 3 && player.status.itemPosition == 0)
        #expect(place.bookSeconds == 8 && place.bookLength == 12)
        #expect(place.chapter?.number == 3 && place.chapter?.count == 3 && place.chapter?.seconds == 0)
        #expect(place.text == "0:08 / 0:12 (66%) · chapter 3/3: \(titles[2]), 0:00 / 0:04")
        // and the status shows the chapter as a track of its own (what MPRIS reads)
        #expect(player.status.chapterNumber == 3 && player.status.chapterIsWholeItem == true)
        #expect(player.status.chapterStart == 0 && player.status.chapterDuration == 4)

        // When a seek lands inside chapter 2: the answer says so
        guard case let .moved(seeked) = try player.perform(.seek(.absolute(seconds: 7.5))) else {
            Issue.record("no place"); return
        }
        #expect(seeked.chapter?.number == 2 && seeked.chapter?.seconds == 3.5)
        // and prev-chapter 3.5 s in goes to this chapter's start, then (within 3 s) the one before
        try player.perform(.chapter(.previous))
        #expect(player.status.itemNumber == 2 && player.status.itemPosition == 0)
        try player.perform(.chapter(.previous))
        #expect(player.status.itemNumber == 1)

        // Then errors name the choices: a number out of range, a name in no title, a name in many
        #expect(throws: PlayerError("there is no chapter 9; use next, prev, a name, or 1–3")) {
            try player.perform(.chapter(.number(9)))
        }
        #expect(throws: PlayerError("no chapter title contains 'zebra'; use next, prev, a name, or 1–3 ('chapters' lists them)")) {
            try player.perform(.chapter(.named("zebra")))
        }
        #expect(throws: PlayerError.self) { try player.perform(.chapter(.named(""))) }
        // and speed and volume changes answer with the place too
        guard case let .settings(_, _, here) = try player.perform(.speed(1.25)) else { Issue.record("no settings"); return }
        #expect(here.chapter?.number == 1)
    }

    @Test func anotherBooksChaptersAreListedWithWhereItWasLeft() async throws {
        // Given two books; the second was left in its second file, and the first is loaded
        let player = try ControllerHarness(clocked: "chapters-other")
        let walk = try player.book("Walk", itemSeconds: [3, 3])
        let run = try player.book("Run", itemSeconds: [2, 2, 2])
        let runItems = try player.library.books.items(ofBook: run)
        try player.library.positions.savePosition(bookId: run, mediaId: runItems[1].id!, frame: 22050)
        try player.perform(.play(bookId: walk))
        try player.perform(.pause)
        // When the other book's chapters are asked for: they are its files, the second marked
        guard case let .chapters(title, chapters, current) = try player.perform(.chapters(bookId: run)) else {
            Issue.record("no chapters"); return
        }
        #expect(title == "Run" && chapters.count == 3 && current == 1)
        // and nothing changed in the book playing
        #expect(player.status.book == "Walk")
    }
}
