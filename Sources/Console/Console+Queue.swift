import Foundation
import Library
import PlayerCore

/// The play queue, repeat, shuffle and auto-rewind.
extension Console {
    func queue(_ command: QueueCommand) throws {
        do {
            switch command {
            case .list:
                let books = try library.queue()
                if books.isEmpty { say("the queue is empty") }
                for (index, book) in books.enumerated() { say("\(index + 1)\t#\(book.id!)\t\(book.title)") }
            case let .add(reference):
                let book = try library.book(matching: reference)
                if session?.book.id == book.id {
                    throw CommandError("\(book.title) is playing now")
                }
                if try library.enqueue(bookId: book.id!) {
                    say("queued #\(book.id!) \(book.title) (\(try library.queue().count) in the queue)")
                } else {
                    say("#\(book.id!) \(book.title) is already queued")
                }
            case let .move(from, to):
                try library.moveQueued(from: from - 1, to: to - 1)
                say("moved \(from) to \(to)")
            case let .remove(index):
                let id = try library.removeQueued(at: index - 1)
                say("removed #\(id) from the queue")
            case .clear:
                try library.clearQueue()
                say("the queue is empty")
            }
        } catch let error as QueueIndexError {
            throw CommandError(error.description)
        }
    }

    func playbackMode(_ command: PlaybackModeCommand) throws {
        switch command {
        case let .repeatMode(text):
            let session = try playing()
            if let text, let mode = RepeatMode(rawValue: text) {
                session.settings.repeatMode = mode
                try library.saveSettings(session.settings)
                applyOrder(session)
            }
            say("repeat \(session.settings.repeatMode.rawValue)")
        case let .shuffle(on):
            let session = try playing()
            if let on {
                session.settings.shuffle = on
                try library.saveSettings(session.settings)
                applyOrder(session)
            }
            say("shuffle \(session.settings.shuffle ? "on" : "off")")
        case let .rewind(setting):
            var preferences = try library.playerPreferences()
            switch setting {
            case nil: break
            case .auto:
                preferences.autoRewind = true
                preferences.autoRewindMaxSeconds = AutoRewind.defaultMaxSeconds
            case .off: preferences.autoRewind = false
            case let .max(seconds):
                preferences.autoRewind = true
                preferences.autoRewindMaxSeconds = seconds
            }
            if setting != nil { try library.savePlayerPreferences(preferences) }
            session?.rewindMaxSeconds = preferences.autoRewind ? preferences.autoRewindMaxSeconds : nil
            say(preferences.autoRewind ? "rewind auto, at most \(Int(preferences.autoRewindMaxSeconds)) s" : "rewind off")
        }
    }

    /// Tells the engine which item follows the one that ends, from the book's settings.
    func applyOrder(_ session: PlayerSession) {
        let order: ItemOrder = switch (session.settings.repeatMode, session.settings.shuffle) {
        case (.item, _): .repeatItem
        case (.book, true): .shuffled(repeating: true)
        case (.book, false): .repeatList
        case (.off, true): .shuffled(repeating: false)
        case (.off, false): .inOrder
        }
        session.engine.setOrder(order)
    }

    /// Sets up a new session's playback modes: item order, auto-rewind, notices.
    func preparePlayback(_ session: PlayerSession) {
        applyOrder(session)
        // Unreadable preferences are not worth refusing to play: the defaults then.
        let preferences = (try? library.playerPreferences()) ?? PlayerPreferences()
        session.rewindMaxSeconds = preferences.autoRewind ? preferences.autoRewindMaxSeconds : nil
        session.onNotice = { [weak self] in self?.say($0) }
    }

    /// The engine's events for the sleep timer and the queue (after the session has seen them).
    func playbackHandle(_ event: PlaybackEvent, of session: PlayerSession) {
        sleepTimerHandle(event, of: session)
        guard case .ended = event else { return }
        // The book ended (marked finished by the recorder): the next queued book starts from
        // its saved place. Not when a sleep timer was set to stop at this end.
        if session.sleepTimer.mode != .off {
            session.sleepTimer.set(.off, playing: false)
            say("sleep timer off")
            return
        }
        do {
            guard let next = try library.dequeue() else { return }
            say("queue: next up #\(next.id!) \(next.title)")
            try play("#\(next.id!)")
        } catch {
            complain("queue: \(error)")
        }
    }
}
