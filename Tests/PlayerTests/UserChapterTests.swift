import Foundation
import GRDB
import Library
import Listening
@testable import Player
import PlayerCore
import Testing
import TestSupport

/// The listener's own chapters: detected in narration, made, renamed, removed and dropped, and
/// what the player does with them. Stored chapters are read back from SQLite.
@Suite struct UserChapterTests {
    private func stored(_ player: ControllerHarness, bookId: Int64) throws -> [(frame: Int64, title: String)] {
        try player.library.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT frame, title FROM userChapter WHERE bookId = ? ORDER BY mediaId, frame",
                             arguments: [bookId]).map { ($0[0], $0[1]) }
        }
    }

    @Test func chaptersDetectedInNarrationStartAtItsLongSilencesAndBecomeTheBooksChapters() async throws {
        // Given a book of five narrated chapters 3 s apart, with 0.4 s pauses inside each
        let narration = try Fixtures.narration(chapters: 5, gapSeconds: 3, pauseSeconds: 0.4)
        let player = try ControllerHarness("detect-chapters", paced: false)
        let folder = player.folder.appending(path: "Told")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: narration.url, to: folder.appending(path: "told.mp3"))
        _ = try Importer(library: player.library, inspector: DecoderInspector(decoders: ControllerHarness.registry))
            .importPaths([folder.path])
        let book = try player.library.books.book(matching: "Told")
        let media = try player.library.books.items(ofBook: book.id!)

        // When its chapters are detected with the real decoders
        let found = try ChapterDetector(decoders: ControllerHarness.registry, minimumSilence: 2).detect(paths: media.map(\.path))

        // Then there is one at the start and one at the end of each long silence (less the lead),
        // none at the short pauses
        #expect(found.chapters.count == 5)
        #expect(found.chapters.first?.bookSeconds == 0)
        for (proposal, gap) in zip(found.chapters.dropFirst(), narration.breaks) {
            #expect(abs(proposal.bookSeconds - (gap.end - ChapterDetector.leadSeconds)) < 0.5,
                    "chapter at \(proposal.bookSeconds) s, silence \(gap.start)-\(gap.end) s")
            #expect(abs((proposal.silenceSeconds ?? 0) - 3) < 0.5)
        }
        for pause in narration.pauses {
            #expect(!found.chapters.contains { abs($0.bookSeconds - pause.end) < 1 })
        }

        // When they are stored while the book plays
        try player.perform(.play(bookId: book.id!))
        try player.perform(.pause)
        guard case let .chapterEdited(change) = try player.perform(.editChapters(.store(bookId: nil, starts: found.chapters.map(\.place)))) else {
            Issue.record("not stored"); return
        }
        #expect(change == .stored(book: "Told", count: 5))

        // Then SQLite holds them, titled Chapter 1-5 at the places found
        let rows = try stored(player, bookId: book.id!)
        #expect(rows.map(\.title) == (1...5).map { "Chapter \($0)" })
        #expect(rows.map(\.frame) == found.chapters.map(\.place.frame))
        // and they are the book's chapters, said to be the listener's
        guard case let .chapters(_, listings, current) = try player.perform(.chapters(bookId: nil)) else { Issue.record("no list"); return }
        #expect(listings.count == 5 && listings.allSatisfy { $0.isUsers } && current == 0)
        // and `chapter next` lands at the second one
        try player.perform(.chapter(.next))
        #expect(player.status.chapterNumber == 2)
        #expect(abs((player.status.bookPosition ?? -1) - found.chapters[1].bookSeconds) < 0.01)
    }

    @Test func aSilenceAcrossTwoFilesIsOneBreakWithItsChapterWhereTheSoundComesBack() throws {
        // Given the narration cut in two in the middle of its second long silence, each half
        // encoded again by lame (1.5 s of silence ends the first file, 1.5 s opens the second)
        let narration = try Fixtures.narration(chapters: 5, gapSeconds: 3, pauseSeconds: 0.4)
        let folder = try BuildProducts.temporaryDirectory("detect-across-files")
        let cut = (narration.breaks[1].start + narration.breaks[1].end) / 2
        for (index, range) in [["-t", "\(cut)"], ["-ss", "\(cut)"]].enumerated() {
            let wav = folder.appending(path: "\(index).wav")
            try Command.run("ffmpeg", ["-v", "error", "-y", "-i", narration.url.path] + range + [wav.path]).requireSuccess()
            try Command.run("lame", ["--quiet", "-b", "64", wav.path, folder.appending(path: "part \(index + 1).mp3").path]).requireSuccess()
        }
        let paths = ["part 1.mp3", "part 2.mp3"].map { folder.appending(path: $0).path }

        // When its chapters are detected
        let found = try ChapterDetector(decoders: ControllerHarness.registry, minimumSilence: 2).detect(paths: paths)

        // Then the cut silence is one break of 3 s, its chapter in the second file, 0.5 s before the sound
        #expect(found.chapters.count == 5)
        let across = try #require(found.chapters.dropFirst(2).first)
        #expect(across.place.item == 1)
        #expect(abs((across.silenceSeconds ?? 0) - 3) < 0.5)
        #expect(abs(across.bookSeconds - (narration.breaks[1].end - ChapterDetector.leadSeconds)) < 0.5, "\(across)")
        #expect(abs(Double(across.place.frame) / 22050 - (narration.breaks[1].end - cut - ChapterDetector.leadSeconds)) < 0.5)
    }

    @Test func chaptersAreAddedRenamedRemovedAndDroppedAndStoredEachTime() async throws {
        // Given a book of three 4-second files (a chapter per file), loaded and paused
        let player = try ControllerHarness(clocked: "edit-chapters")
        let book = try player.book("Edits", itemSeconds: [4, 4, 4])
        try player.perform(.play(bookId: book))
        try player.perform(.pause)
        let titles = try #require(player.controller.loadedBook?.itemTitles)

        // When a chapter is added 6 s into the book
        guard case let .chapterEdited(added) = try player.perform(.editChapters(.add(seconds: 6, title: "Middle"))) else {
            Issue.record("not added"); return
        }

        // Then the files' chapters became the listener's, with the new one among them
        #expect(added == .added(number: 3, start: 6, title: "Middle", count: 4))
        #expect(try stored(player, bookId: book).map(\.title) == [titles[0], titles[1], "Middle", titles[2]])
        #expect(try stored(player, bookId: book)[2].frame == 2 * 22050)

        // When one is renamed and another removed
        try player.perform(.editChapters(.rename(number: 1, title: "Opening")))
        guard case let .chapterEdited(removed) = try player.perform(.editChapters(.remove(number: 2))) else {
            Issue.record("not removed"); return
        }
        #expect(removed == .removed(number: 2, start: 4, title: titles[1], count: 3))
        #expect(try stored(player, bookId: book).map(\.title) == ["Opening", "Middle", titles[2]])
        // and `chapter next` from the start goes to the added one
        try player.perform(.chapter(.next))
        #expect(player.status.chapter == "Middle" && player.status.bookPosition == 6)

        // Then bad numbers, a time past the end and a second chapter at one place are refused in words
        #expect(throws: PlayerError("there is no chapter 99 in Edits: use 1–3 ('chapters' lists them)")) {
            try player.perform(.editChapters(.remove(number: 99)))
        }
        #expect(throws: PlayerError("99:00:00 is past the end of Edits (0:12): give a time in the book")) {
            try player.perform(.editChapters(.add(seconds: 99 * 3600, title: "Late")))
        }
        #expect(throws: PlayerError("there is already a chapter at 0:06: 'chapter rename N TITLE' renames it")) {
            try player.perform(.editChapters(.add(seconds: 6, title: "Again")))
        }
        #expect(try stored(player, bookId: book).count == 3)

        // When they are dropped, the files' chapters come back
        guard case let .chapterEdited(reset) = try player.perform(.editChapters(.reset(bookId: nil))) else { Issue.record("no reset"); return }
        #expect(reset == .reset(book: "Edits", count: 3))
        #expect(try stored(player, bookId: book).isEmpty)
        guard case let .chapters(_, listings, _) = try player.perform(.chapters(bookId: nil)) else { Issue.record("no list"); return }
        #expect(listings.map(\.title) == titles && listings.allSatisfy { !$0.isUsers })
    }

    @Test func aBookLoadedLaterReadsItsStoredChapters() throws {
        // Given a book with a chapter of the listener's stored while another book played
        let player = try ControllerHarness(clocked: "stored-chapters")
        let book = try player.book("Later", itemSeconds: [6])
        let media = try player.library.books.items(ofBook: book)
        try player.library.books.addUserChapter(UserChapterStart(mediaId: media[0].id!, frame: 3 * 22050, title: "Second half"), toBook: book)

        // When it is loaded, its chapter list is that chapter (and before it, none)
        try player.perform(.play(bookId: book))
        try player.perform(.pause)
        guard case let .chapters(_, listings, current) = try player.perform(.chapters(bookId: nil)) else { Issue.record("no list"); return }
        #expect(listings.map(\.title) == ["Second half"] && listings.first?.start == 3 && current == nil)
        try player.perform(.chapter(.next))
        #expect(player.status.chapter == "Second half" && player.status.bookPosition == 3)
    }
}
