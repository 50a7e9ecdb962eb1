import Foundation
import Synchronization

/// Watches the sync folder with inotify and calls `onChange` (on its own thread) when another
/// device's journal there was written or replaced: no polling, so a player that syncs costs
/// nothing while nothing changes. This library's own journal is not reported.
///
/// `@unchecked Sendable`: the inotify instance is used only by the watching thread; `stop()` goes
/// through its wake pipe and a `Mutex`, as `LibraryWatch` does.
public final class SyncFolderWatch: @unchecked Sendable {
    public let folder: String
    let ownJournal: String
    let onChange: @Sendable () -> Void
    private let inotify: Inotify
    private let running = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)
    private let lost = Mutex(false)

    /// The folder went away (removed, moved, unmounted): nothing more is reported. Whoever made
    /// the watch makes a new one once the folder is back.
    public var isLost: Bool { lost.withLock { $0 } }

    /// Watches `folder` from now on; throws when it cannot be watched (missing, no inotify).
    public init(folder: String, device: DeviceID, onChange: @escaping @Sendable () -> Void) throws {
        self.folder = folder
        ownJournal = device.text + SyncJournalFormat.fileSuffix
        self.onChange = onChange
        inotify = try Inotify()
        guard inotify.watch(folder) else { throw LibraryError.invalid("cannot watch the sync folder \(folder): is it there?") }
        running.withLock { $0 = true }
        // Retained by the thread as LibraryWatch's is (see there why not by capture).
        let retained = Unmanaged.passRetained(self)
        let thread = Thread {
            let watch = retained.takeUnretainedValue()
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            watch.run()
            watch.finished.signal()
            retained.release()
        }
        thread.name = "abplayer.sync-watch"
        thread.start()
    }

    deinit { stop() }

    /// Stops watching; returns once the thread ended.
    public func stop() {
        let wasRunning = running.withLock { running in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        inotify.wake()
        finished.wait()
    }

    private func run() {
        while running.withLock({ $0 }) {
            switch inotify.next(timeout: nil) {
            case .woken, .timedOut: continue
            case .overflow:
                onChange() // events were lost: look anyway
            case let .events(events) where events.contains(where: { $0.path == folder && ($0.has(IN_DELETE_SELF) || $0.has(IN_MOVE_SELF)) }):
                // The folder itself is gone or moved: said through one last change (the exchange
                // it asks for finds the folder missing, and says so once).
                lost.withLock { $0 = true }
                running.withLock { $0 = false }
                onChange()
            case let .events(events):
                // A journal written in place (closed after writing) or renamed into place (a sync
                // tool's temporary file, a compaction); the sync tool's own temporary files and
                // this library's journal are not news.
                let news = events.contains { event in
                    let name = (event.path as NSString).lastPathComponent
                    return name.hasSuffix(SyncJournalFormat.fileSuffix) && !name.hasPrefix(".") && name != ownJournal
                        && (event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO))
                }
                if news { onChange() }
            }
        }
    }
}
