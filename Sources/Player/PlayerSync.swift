import Foundation
public import Library
import PlayerCore
import Synchronization

/// What `sync` asks of the player.
public enum SyncRequest: Sendable, Equatable {
    /// Where each book stands here and on the other devices.
    case status
    /// An exchange now, waited for.
    case now
    /// Sync through this folder from now on; nil: stop syncing.
    case folder(String?)
    /// Whether the book loaded goes to another device's later place when it is started again.
    case jumpOnStart(Bool)
    /// Go to the place another device offers for the book loaded.
    case jump
    /// Call this computer so in the sync folder (nil: say what it is called).
    case name(String?)
}

/// What `sync` did.
public enum SyncOutcome: Sendable {
    case status(SyncSettings, [SyncBookStatus], problems: [String])
    case exchanged(SyncExchangeReport)
    case folder(SyncSettings)
    case jumpOnStart(SyncSettings)
    /// What this computer is called (renamed, or asked).
    case name(SyncSettings)
}

/// Sync for a running player: the folder watched with inotify, exchanges run on a queue of their
/// own (never on the player's task or the audio threads) and reported back through `wake`, and
/// the place another device offers for the book loaded, which is never moved under the listener.
/// Used from the controller's task, as the controller is.
final class PlayerSync {
    let library: LibraryDatabase
    private(set) var settings: SyncSettings?
    private var watch: SyncFolderWatch?
    private let queue = DispatchQueue(label: "abplayer.sync", qos: .utility)
    private let wake: @Sendable (PlayerInput) -> Void
    /// Another device's later place in the book loaded, until it is taken or another book loads.
    var offer: SyncExchangeReport.Move? {
        didSet { if offer != oldValue { offerSaid = false } }
    }
    /// Whether the listener has been told of `offer` (it is told once, when not playing).
    var offerSaid = false
    /// The place last gone to: never offered again (a clock ahead of ours keeps dating it later
    /// than the listening done here since).
    var taken: PositionClaim?
    /// Where the other devices are in each book, as the last exchange found.
    var elsewhere = SyncElsewhere()
    /// The last problem told (a folder that went missing is said once, not at every exchange).
    var lastProblem: String?
    /// Left when the exchange the player starts with has ended: the first book loaded waits for
    /// it (briefly), so it starts where another device listened last, not from an older place.
    private let firstExchange = DispatchGroup()
    /// The exchange waiting on the queue, not started yet.
    private let waiting = WaitingExchange()

    init(library: LibraryDatabase, wake: @escaping @Sendable (PlayerInput) -> Void) {
        self.library = library
        self.wake = wake
        settings = try? library.sync.settings()
        startWatching()
    }

    var isOn: Bool { settings?.folder != nil }

    /// Watches the folder, and exchanges once to start with, when there is one.
    private func startWatching() {
        watch?.stop()
        watch = nil
        watchFolder()
        exchangeInBackground(playing: nil, first: true)
    }

    /// Watches the folder, if it is there and not watched already. A folder that is missing at
    /// the start, or went away (unmounted, removed), is watched again after the first exchange
    /// that finds it back (at a pause or a stop, or `sync now`).
    func watchFolder() {
        guard let settings, let folder = settings.folder, watch == nil || watch?.isLost == true else { return }
        watch?.stop()
        let wake = self.wake
        watch = try? SyncFolderWatch(folder: folder, device: settings.device) { wake(.syncFolderChanged) }
    }

    deinit { watch?.stop() }

    /// Waits for the exchange the player started with, at most `timeout` (a slow folder, a
    /// network mount, must not hold the first book back for long).
    func waitForFirstExchange(timeout: Duration = .seconds(2)) {
        _ = firstExchange.wait(timeout: .now() + timeout.seconds)
    }

    /// An exchange on the sync queue; its report (or why it failed) comes back as `.syncExchanged`.
    /// One asked for while another waits is that one, as the latest asked (it reads the library
    /// when it starts): a burst of deliveries, or of seeks while paused, is one exchange.
    func exchangeInBackground(playing: Int64?, first: Bool = false) {
        guard let settings, settings.folder != nil else { return }
        guard waiting.ask(WaitingExchange.Request(settings: settings, playing: playing)) else { return }
        let (library, wake, waiting) = (self.library, self.wake, self.waiting)
        queue.async(group: first ? firstExchange : nil) {
            guard let request = waiting.take(), let folder = request.settings.folder else { return }
            let (settings, playing) = (Self.current(request.settings, of: library), request.playing)
            do {
                let report = try library.sync.exchange(folder: folder, device: settings.device, deviceName: settings.deviceName, playing: playing)
                wake(.syncExchanged(.success(report)))
            } catch {
                wake(.syncExchanged(.failure(SyncProblem(text: "sync: \(error)"))))
            }
        }
    }

    /// An exchange waited for (after any under way on the queue).
    func exchangeNow(playing: Int64?) throws -> SyncExchangeReport {
        guard let settings, let folder = settings.folder else { throw PlayerError(Self.notSyncing) }
        return try queue.sync {
            let settings = Self.current(settings, of: library)
            return try library.sync.exchange(folder: folder, device: settings.device, deviceName: settings.deviceName, playing: playing)
        }
    }

    /// This device's changes written to its journal, without the other devices' read, waited
    /// for (after any exchange under way on the queue).
    func writeJournalNow() throws {
        guard let settings, let folder = settings.folder else { return }
        _ = try queue.sync {
            let settings = Self.current(settings, of: library)
            return try library.sync.writeJournal(folder: folder, device: settings.device, deviceName: settings.deviceName)
        }
    }

    /// The device and name `library` has now, read on the sync queue as an exchange starts (the
    /// folder stays `settings`'). An exchange before it may have made the library a new device
    /// (another copy wrote its journal) after `settings` was read, and a player quitting before
    /// it heard wrote its last place as the old device: into the journal that was the copy's
    /// now, which made the copy take a new device too, and left the old journal behind as a
    /// third computer of the same name (`sync status` listed one computer twice).
    private static func current(_ settings: SyncSettings, of library: LibraryDatabase) -> SyncSettings {
        guard let now = try? library.sync.settings() else { return settings }
        var current = settings
        (current.device, current.deviceName) = (now.device, now.deviceName)
        return current
    }

    func setFolder(_ folder: String?) throws -> SyncSettings {
        try library.sync.setFolder(folder)
        let settings = try library.sync.settings()
        self.settings = settings
        offer = nil
        lastProblem = nil
        startWatching()
        return settings
    }

    /// This library became another device in an exchange (another copy of it wrote its
    /// journal): the exchanges go on as the new one, and the watch ignores its journal instead.
    func deviceChanged() {
        settings = try? library.sync.settings()
        watch?.stop()
        watch = nil
        watchFolder()
    }

    func stop() {
        watch?.stop()
        watch = nil
    }

    /// Renames this computer; the next exchange, asked for now when syncing, tells the others.
    func setName(_ name: String, playing: Int64?) throws -> SyncSettings {
        let settings = try library.sync.setDeviceName(name)
        self.settings = settings
        exchangeInBackground(playing: playing)
        return settings
    }

    func setJumpOnStart(_ jump: Bool) throws -> SyncSettings {
        try library.sync.setJumpOnStart(jump)
        let settings = try library.sync.settings()
        self.settings = settings
        return settings
    }

    static let notSyncing = "not syncing: 'sync dir FOLDER' names a folder that Syncthing (or the like) keeps the same on each computer"
}

/// Why an exchange failed, said once.
public struct SyncProblem: Error, Sendable, Equatable {
    public let text: String
}

/// The exchange asked for and not started yet: the settings and the book loaded as the latest
/// request said. Shared with the sync queue, which takes it when the exchange starts.
private final class WaitingExchange: Sendable {
    struct Request: Sendable {
        var settings: SyncSettings
        var playing: Int64?
    }

    private let request = Mutex<Request?>(nil)

    /// Keeps `new` as the request; true when none was waiting (an exchange is to be queued).
    func ask(_ new: Request) -> Bool {
        request.withLock { request in
            defer { request = new }
            return request == nil
        }
    }

    /// The request, no longer waiting.
    func take() -> Request? { request.withLock { request in defer { request = nil }; return request } }
}
