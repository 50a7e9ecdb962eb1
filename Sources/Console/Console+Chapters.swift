import Foundation
import Library
import Listening
import Player
import PlayerCore
import Synchronization

/// `chapter add/rename/rm`, `chapters reset` and `chapters detect`: the listener's own chapters.
/// The player controller stores them; detection runs on a thread of its own while this task
/// waits (the engine plays on), and the REPL asks before storing what it found.
extension Console {
    func chapterLine(_ line: ChapterLine) throws {
        switch line {
        case let .add(seconds, title): try perform(.editChapters(.add(seconds: seconds, title: title)))
        case let .rename(number, title): try perform(.editChapters(.rename(number: number, title: title)))
        case let .remove(number): try perform(.editChapters(.remove(number: number)))
        case let .reset(reference): try perform(.editChapters(.reset(bookId: try reference.map { try library.book(matching: $0).id! })))
        case let .detect(minimum, confirmed, reference): try detectChapters(minimumSilence: minimum ?? 2, confirmed: confirmed, book: reference)
        }
    }

    private func detectChapters(minimumSilence: Double, confirmed: Bool, book reference: String?) throws {
        let book: Book
        if let reference {
            book = try library.book(matching: reference)
        } else {
            guard let loaded = player.loadedBook?.book else { throw PlayerError("nothing is playing: 'chapters detect BOOK' names a book") }
            book = loaded
        }
        let media = try library.items(ofBook: book.id!)
        if !(try library.userChapters(ofBook: book.id!)).isEmpty {
            throw PlayerError("\(book.title) has chapters of yours: 'chapters reset' drops them before detecting")
        }
        if media.contains(where: { !$0.chapterMarks.isEmpty }) {
            throw PlayerError("\(book.title) has chapters in its files: 'chapter rename N TITLE' fixes one, 'chapter add' adds one")
        }
        if let missing = media.first(where: \.isMissing) {
            throw PlayerError("\(missing.path) is missing: 'rescan' finds moved files")
        }
        let found = try ChapterDetection.run(ChapterDetector(decoders: decoders, minimumSilence: minimumSilence),
                                             paths: media.map(\.path), showsProgress: isInteractive && capture == nil)
        let proposals = found.chapters
        guard proposals.count > 1 else {
            say(TerminalText.visible("\(book.title): no silence of \(Timecode.compact(seconds: minimumSilence)) or more "
                + "between its sounds; nothing to store (a shorter one: 'chapters detect 1')"))
            return
        }
        say(TerminalText.visible("\(book.title): \(proposals.count) chapters, each starting "
            + "\(Timecode.compact(seconds: ChapterDetector.leadSeconds)) before the sound after a silence:"))
        for (index, proposal) in proposals.enumerated() {
            let end = index + 1 < proposals.count ? proposals[index + 1].bookSeconds : found.bookSeconds
            let silence = proposal.silenceSeconds.map { String(format: "after %.1f s of silence", $0) } ?? "the start"
            say("\(index + 1)\t\(Timecode.format(seconds: proposal.bookSeconds))\t\(LibraryText.duration(end - proposal.bookSeconds))\t\(silence)")
        }
        let store = PlayerCommand.editChapters(.store(bookId: book.id!, starts: proposals.map(\.place)))
        if confirmed { return try perform(store) }
        guard capture == nil, answersFollow else {
            say("not stored: 'chapters detect --yes' stores them")
            return
        }
        pendingQuestion = PendingQuestion(command: store, refused: "not stored")
        say("store these \(proposals.count) chapters? [y/N]")
    }

    /// The line answering the question asked last, if one is waiting: y or yes does what it
    /// asked; anything else does not. Nil when the line is a command to run: no question waits,
    /// or the listener went on with a command instead of answering (the question is then dropped).
    func answer(_ line: String) -> Outcome? {
        guard capture == nil, let question = pendingQuestion else { return nil }
        pendingQuestion = nil
        let answer = line.trimmingCharacters(in: .whitespaces).lowercased()
        guard ["y", "yes"].contains(answer) else {
            say(question.refused)
            return ["", "n", "no"].contains(answer) ? .succeeded : nil
        }
        do {
            try perform(question.command)
            return .succeeded
        } catch {
            complain(TerminalText.visible("\(error)"))
            return .failed
        }
    }
}

/// A yes/no question the REPL asked; the next line typed answers it.
struct PendingQuestion {
    let command: PlayerCommand
    /// What is said when the answer is no.
    let refused: String
}

/// Runs a detection on a thread of its own and waits for it; a terminal sees how far it got.
enum ChapterDetection {
    static func run(_ detector: ChapterDetector, paths: [String], showsProgress: Bool) throws -> ChapterDetector.Result {
        let progress = Progress()
        let thread = Thread {
            let result = Result { try detector.detect(paths: paths) { progress.percent.store(Int($0 * 100), ordering: .relaxed) } }
            progress.outcome.withLock { $0 = result }
            progress.done.signal()
        }
        thread.start()
        // Woken twice a second only to redraw the progress line; the thread's end wakes it at once.
        while progress.done.wait(timeout: .now() + .milliseconds(500)) == .timedOut {
            if showsProgress { FileHandle.standardError.write(Data("\rdetecting chapters: \(progress.percent.load(ordering: .relaxed))%".utf8)) }
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        return try progress.outcome.withLock { $0! }.get()
    }

    /// What the detecting thread shares with the one waiting for it.
    private final class Progress: Sendable {
        let done = DispatchSemaphore(value: 0)
        let percent = Atomic<Int>(0)
        let outcome = Mutex<Result<ChapterDetector.Result, any Error>?>(nil)
    }
}
