import Foundation
import Library
import PlayerCore

/// The queue, the play order (repeat, shuffle), auto-rewind, and the book's speed, volume and output.
extension PlayerController {
    func queue(_ command: QueueCommand) throws -> PlayerOutcome {
        do {
            switch command {
            case .list:
                return .queue(try library.queue())
            case let .add(bookId):
                let book = try library.book(matching: "#\(bookId)")
                if session?.book.id == book.id { throw PlayerError("\(book.title) is playing now") }
                guard try library.enqueue(bookId: bookId) else { return .alreadyQueued(book) }
                return .queued(book, count: try library.queue().count)
            case let .move(from, to):
                try library.moveQueued(from: from - 1, to: to - 1)
                return .queueMoved(from: from, to: to)
            case let .remove(index):
                return .unqueued(bookId: try library.removeQueued(at: index - 1))
            case .clear:
                try library.clearQueue()
                return .queueCleared
            }
        } catch let error as QueueIndexError {
            throw PlayerError(error.description)
        }
    }

    func setRepeat(_ mode: RepeatMode?) throws -> PlayerOutcome {
        .repeatMode(try changeOrderSetting(\.repeatMode, to: mode, replanning: false).repeatMode)
    }

    func setShuffle(_ on: Bool?) throws -> PlayerOutcome {
        .shuffle(try changeOrderSetting(\.shuffle, to: on, replanning: true).shuffle)
    }

    /// Sets (when given) a per-book setting that decides the item order, saves it and gives the
    /// engine the new order (a new shuffle plan when `replanning`); returns the settings.
    private func changeOrderSetting<Value>(_ setting: WritableKeyPath<BookSettings, Value>, to value: Value?,
                                           replanning: Bool) throws -> BookSettings {
        let session = try playing()
        if let value {
            session.settings[keyPath: setting] = value
            try library.saveSettings(session.settings)
            applyOrder(session, replanning: replanning)
        }
        return session.settings
    }

    func setRewind(_ setting: RewindSetting?) throws -> PlayerOutcome {
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
        let maxSeconds = preferences.autoRewind ? preferences.autoRewindMaxSeconds : nil
        session?.rewind.maxSeconds = maxSeconds
        return .rewind(maxSeconds: maxSeconds)
    }

    /// Tells the engine which item follows the one that ends. `replanning`: shuffle draws a new
    /// order for the pass, starting from the item playing (the one shuffle of the player).
    func applyOrder(_ session: PlayerSession, replanning: Bool) {
        let count = session.timeline.items.count
        if session.settings.shuffle && count > 1 {
            if replanning || session.shufflePlan == nil {
                let here = session.position.item
                session.shufflePlan = [here] + (0..<count).filter { $0 != here }.shuffled()
            }
        } else {
            session.shufflePlan = nil
        }
        session.recorder.lastItemInOrder = session.shufflePlan?.last ?? count - 1
        session.engine.setOrder(session.order)
    }

    func setSpeed(_ speed: Double) throws -> PlayerOutcome {
        do {
            try SettingText.check(speed: speed)
        } catch {
            throw PlayerError(error.description)
        }
        return try changeSettings { $0.speed = speed }
    }

    func setVolume(percent: Double) throws -> PlayerOutcome {
        do {
            try SettingText.check(volume: percent)
        } catch {
            throw PlayerError(error.description)
        }
        return try changeSettings { $0.volume = percent }
    }

    func stepSpeed(by step: Double) throws -> PlayerOutcome {
        let stepped = ((try playing().settings.speed + step) * 10).rounded() / 10
        return try setSpeed(min(SettingText.speedRange.upperBound, max(SettingText.speedRange.lowerBound, stepped)))
    }

    func stepVolume(by step: Double) throws -> PlayerOutcome {
        let stepped = try playing().settings.volume + step
        return try setVolume(percent: min(SettingText.volumeRange.upperBound, max(SettingText.volumeRange.lowerBound, stepped)))
    }

    private func changeSettings(_ change: (inout BookSettings) -> Void) throws -> PlayerOutcome {
        let session = try playing()
        change(&session.settings)
        try library.saveSettings(session.settings)
        session.engine.setSpeed(session.settings.speed)
        session.engine.setVolume(session.settings.volume)
        return .settings(speed: session.settings.speed, volumePercent: session.settings.volume, place: Place(session))
    }

    func switchOutput(to name: String) throws -> PlayerOutcome {
        let sinks = try openOutput(name)
        chosenOutput = name
        guard let session else { return .output(name, playing: false) }
        session.outputName = name
        session.engine.setOutput(sinks)
        return .output(name, playing: true)
    }
}
