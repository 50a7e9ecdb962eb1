import Foundation
import Library
import Listening
import Player
import PlayerCore

/// `chapter add/rename/rm`, `chapters reset` and `chapters detect`: the listener's own chapters.
/// The player controller stores them; detection runs on a thread of its own (beside the REPL when
/// typed at a terminal), and the REPL asks before storing what it found.
extension CommandRunner {
    func chapterLine(_ line: ChapterLine) throws {
        switch line {
        case let .add(seconds, title): try perform(.editChapters(.add(seconds: seconds, title: title)))
        case let .rename(number, title): try perform(.editChapters(.rename(number: number, title: title)))
        case let .remove(number): try perform(.editChapters(.remove(number: number)))
        case let .reset(reference): try perform(.editChapters(.reset(bookId: try reference.map { try resolveBook($0).id! })))
        case let .detect(minimum, confirmed, reference): try detectChapters(minimumSilence: minimum ?? 2, confirmed: confirmed, book: reference)
        }
    }

    private func detectChapters(minimumSilence: Double, confirmed: Bool, book reference: String?) throws {
        let book: Book
        if let reference {
            book = try resolveBook(reference)
        } else {
            guard let loaded = player.loadedBook?.book else { throw PlayerError("nothing is playing: 'chapters detect BOOK' names a book") }
            book = loaded
        }
        if let running = chapterDetection.running {
            throw PlayerError("still detecting the chapters of \(running.request.title) (\(running.percent)%); they are listed when it is done")
        }
        let media = try library.books.items(ofBook: book.id!)
        if !(try library.books.userChapters(ofBook: book.id!)).isEmpty {
            throw PlayerError("\(book.title) has chapters of yours: 'chapters reset' drops them before detecting")
        }
        if media.contains(where: { !$0.chapterMarks.isEmpty }) {
            throw PlayerError("\(book.title) has chapters in its files: 'chapter rename N TITLE' fixes one, 'chapter add' adds one")
        }
        if let missing = media.first(where: \.isMissing) {
            throw PlayerError("\(missing.path) is missing: 'rescan' finds moved files")
        }
        let detector = ChapterDetector(decoders: decoders, minimumSilence: minimumSilence)
        let request = ChapterDetectionRequest(bookId: book.id!, title: book.title, minimumSilence: minimumSilence, confirmed: confirmed)
        // Typed at a terminal, it runs beside the REPL: decoding a 20-hour book takes minutes, and
        // this task also saves the place every second, runs the sleep timer and answers other
        // front ends. What it found is listed (and asked about) when it ends. A script, a pipe or
        // a remote client waits for it: their next line may be the answer.
        if isInteractive && capture == nil && answersFollow {
            let inputs = self.inputs
            chapterDetection.running = ChapterDetection.start(detector, paths: media.map(\.path), request: request) { result in
                inputs.yield(.chaptersDetected(request, result))
            }
            say(TerminalText.visible("\(book.title): detecting chapters in its \(media.count == 1 ? "file" : "\(media.count) files"); "
                + "playing and the REPL go on, and what is found is listed when it is done"))
            return
        }
        try offer(try ChapterDetection.run(detector, paths: media.map(\.path), request: request), request)
    }

    /// A detection running beside the REPL ended: what it found is listed and asked about.
    func chaptersDetected(_ request: ChapterDetectionRequest, _ result: Result<ChapterDetector.Result, any Error>) {
        chapterDetection.running = nil
        do {
            try offer(try result.get(), request)
        } catch {
            complain(TerminalText.visible("chapters detect: \(request.title): \(error)"))
        }
    }

    /// Lists the chapters found and stores them when confirmed, or asks (when the next line can answer).
    private func offer(_ found: ChapterDetector.Result, _ request: ChapterDetectionRequest) throws {
        let proposals = found.chapters
        guard proposals.count > 1 else {
            say(TerminalText.visible("\(request.title): no silence of \(Timecode.compact(seconds: request.minimumSilence)) or more "
                + "between its sounds; nothing to store (a shorter one: 'chapters detect 1')"))
            return
        }
        say(TerminalText.visible("\(request.title): \(LibraryText.counted(proposals.count, "chapter")), each starting "
            + "\(Timecode.compact(seconds: ChapterDetector.leadSeconds)) before the sound after a silence:"))
        for (index, proposal) in proposals.enumerated() {
            let end = index + 1 < proposals.count ? proposals[index + 1].bookSeconds : found.bookSeconds
            let silence = proposal.silenceSeconds.map { String(format: "after %.1f s of silence", $0) } ?? "the start"
            say("\(index + 1)\t\(Timecode.format(seconds: proposal.bookSeconds))\t\(LibraryText.duration(end - proposal.bookSeconds))\t\(silence)")
        }
        let store = PlayerCommand.editChapters(.store(bookId: request.bookId, starts: proposals.map(\.place)))
        if request.confirmed { return try perform(store) }
        guard capture == nil, answersFollow else {
            say("not stored: 'chapters detect --yes' stores them")
            return
        }
        chapterDetection.question = PendingQuestion(command: store, refused: "not stored")
        say(proposals.count == 1 ? "store this chapter? [y/N]" : "store these \(proposals.count) chapters? [y/N]")
    }

    /// The line answering the question asked last, if one is waiting: y or yes does what it
    /// asked; anything else does not. Nil when the line is a command to run: no question waits,
    /// or the listener went on with a command instead of answering (the question is then dropped).
    func answer(_ line: String) -> Outcome? {
        guard capture == nil, let question = chapterDetection.question else { return nil }
        chapterDetection.question = nil
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
