import Foundation
public import Library

/// What `sync` asks of the player.
public enum SyncRequest: Sendable, Equatable {
    /// Where each book stands here and on the other devices.
    case status
    /// An exchange now, waited for.
    case now
    /// Sync through this folder from now on; nil: stop syncing.
    case folder(String?)
    /// Go to the place another device offers for the book loaded.
    case jump
}

/// What `sync` did.
public enum SyncOutcome: Sendable {
    case status(SyncSettings, [SyncBookStatus], problems: [String])
    case exchanged(SyncExchangeReport)
    case folder(SyncSettings)
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
    var offer: SyncExchangeReport.Move?
    /// The last problem told (a folder that went missing is said once, not at every exchange).
    var lastProblem: String?

    init(library: LibraryDatabase, wake: @escaping @Sendable (PlayerInput) -> Void) {
        self.library = library
        self.wake = wake
        settings = try? library.syncSettings()
        startWatching()
    }

    var isOn: Bool { settings?.folder != nil }

    /// Watches the folder, and exchanges once to start with, when there is one.
    private func startWatching() {
        watch?.stop()
        watch = nil
        guard let settings, let folder = settings.folder else { return }
        let wake = self.wake
        watch = try? SyncFolderWatch(folder: folder, device: settings.device) { wake(.syncFolderChanged) }
        exchangeInBackground(playing: nil)
    }

    /// An exchange on the sync queue; its report (or why it failed) comes back as `.syncExchanged`.
    func exchangeInBackground(playing: Int64?) {
        guard let settings, let folder = settings.folder else { return }
        let (library, wake) = (self.library, self.wake)
        queue.async {
            do {
                let report = try library.exchangeSync(folder: folder, device: settings.device, deviceName: settings.deviceName, playing: playing)
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
            try library.exchangeSync(folder: folder, device: settings.device, deviceName: settings.deviceName, playing: playing)
        }
    }

    func setFolder(_ folder: String?) throws -> SyncSettings {
        try library.setSyncFolder(folder)
        let settings = try library.syncSettings()
        self.settings = settings
        offer = nil
        lastProblem = nil
        startWatching()
        return settings
    }

    func stop() {
        watch?.stop()
        watch = nil
    }

    static let notSyncing = "not syncing: 'sync dir FOLDER' names a folder that Syncthing (or the like) keeps the same on each computer"
}

/// Why an exchange failed, said once.
public struct SyncProblem: Error, Sendable, Equatable {
    public let text: String
}
