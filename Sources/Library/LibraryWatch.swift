import Foundation
import Synchronization

/// Watches the folders books were imported from, with inotify, while a player runs: new files
/// join their book in play order, a new folder beside books becomes a book on their shelf, moved
/// files keep their identity, deleted files are marked missing. Events are coalesced: a pass
/// runs once no event came for `quiet`, or every `longest` during a long burst, and reports one
/// `LibraryChange` per book touched, in one call of `onChange`.
///
/// `@unchecked Sendable`: the inotify instance and the pending changes are used only by the
/// watching thread; other threads call `stop()`, which goes through the wake pipe
/// (`Inotify.wake`) and a `Mutex`.
public final class LibraryWatch: @unchecked Sendable {
    public let library: LibraryDatabase
    let inspector: any MediaInspector
    let quiet: Duration
    let longest: Duration
    let onChange: @Sendable ([LibraryChange]) -> Void
    /// Called with what went wrong in a pass (the pass is dropped; the next one looks again).
    let onError: @Sendable (String) -> Void
    /// Called with the files a pass could not read (left out, as an import skips them).
    let onSkipped: @Sendable ([SkippedFile]) -> Void
    private let inotify: Inotify
    private let state = Mutex(State.idle)
    private let finished = DispatchSemaphore(value: 0)

    private enum State { case idle, running, stopped }

    public init(library: LibraryDatabase, inspector: any MediaInspector,
                quiet: Duration = .milliseconds(300), longest: Duration = .milliseconds(1500),
                onError: @escaping @Sendable (String) -> Void = { _ in },
                onSkipped: @escaping @Sendable ([SkippedFile]) -> Void = { _ in },
                onChange: @escaping @Sendable ([LibraryChange]) -> Void) throws {
        self.library = library
        self.inspector = inspector
        self.quiet = quiet
        self.longest = longest
        self.onError = onError
        self.onSkipped = onSkipped
        self.onChange = onChange
        inotify = try Inotify()
    }

    deinit { stop() }

    /// Watches the library's folders as they are now and starts the watching thread. The
    /// watches are in place when this returns, so a file copied afterwards is seen.
    public func start() throws {
        let folders = try library.media.watchedFolders()
        guard state.withLock({ state in
            guard case .idle = state else { return false }
            state = .running
            return true
        }) else { return }
        for folder in folders.books.keys { watchTree(folder) }
        for parent in folders.parents { inotify.watch(parent) }
        // The thread keeps the watch alive while it runs, but by a reference it lets go of before
        // its block returns, never one the block captures. Foundation releases a Thread's block
        // in a thread-specific-data destructor as the thread ends, after libdispatch's, which
        // frees the thread's cache of dispatch continuations but leaves the cache's pointer
        // behind (swift-corelibs-libdispatch, `_libdispatch_tsd_cleanup`). Had that release run
        // the watch's deinit (the library's GRDB queues disposed, which takes continuations from
        // that cache), freed memory was handed out and freed again: `malloc_consolidate():
        // unaligned fastbin chunk`, double frees under ASan, in about one test run in three. The
        // cache is filled by `concurrentPerform` called on this thread (inspecting new files on
        // every core); a standalone Thread + concurrentPerform + deinit-in-teardown program
        // reproduces it.
        let retained = Unmanaged.passRetained(self)
        let thread = Thread {
            let watch = retained.takeUnretainedValue()
            // Background work: a burst of new files to inspect must not take the CPU from the
            // player's decoder and audio threads on a busy machine. Linux's nice is per thread.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            watch.run(folders: folders)
            watch.finished.signal()
            retained.release()
        }
        thread.name = "abplayer.library-watch"
        thread.start()
    }

    /// Stops watching; returns once the thread ended (after the pass it may be in).
    public func stop() {
        let wasRunning = state.withLock { state in
            defer { state = .stopped }
            if case .running = state { return true }
            return false
        }
        guard wasRunning else { return }
        inotify.wake()
        finished.wait()
    }

    private func watchTree(_ folder: String) {
        guard inotify.watch(folder), let walker = FileManager.default.enumerator(atPath: folder) else { return }
        while let relative = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { inotify.watch(folder + "/" + relative) }
        }
    }

    private func run(folders initial: WatchedFolders) {
        var folders = initial
        var pending = Pending()
        let clock = ContinuousClock()
        while state.withLock({ if case .running = $0 { true } else { false } }) {
            let timeout = pending.deadline(quiet: quiet, longest: longest).map { clock.now.duration(to: $0) }
            switch inotify.next(timeout: timeout.map { max($0, .zero) }) {
            case .woken: continue
            case .timedOut: break
            case let .events(events): note(events, into: &pending, at: clock.now)
            case let .overflow(events):
                note(events, into: &pending, at: clock.now)
                pending.changes.overflowed = true
                pending.mark(at: clock.now)
            }
            guard let due = pending.deadline(quiet: quiet, longest: longest), clock.now >= due else { continue }
            var changes = pending.changes
            changes.writing = pending.writing
            pending.taken()
            do {
                let (all, postponed, skipped) = try library.media.applyWatched(changes, folders: folders, inspector: inspector)
                // Taken again with the pass the writer's IN_CLOSE_WRITE brings.
                pending.changes.appeared.formUnion(postponed)
                let reported = all.filter { !$0.isEmpty }
                folders = try library.media.watchedFolders()
                if changes.overflowed {
                    for folder in folders.books.keys { watchTree(folder) }
                    for parent in folders.parents { inotify.watch(parent) }
                }
                if !reported.isEmpty { onChange(reported) }
                if !skipped.isEmpty { onSkipped(skipped) }
            } catch {
                onError("library watch: \(error)")
            }
        }
    }

    private func note(_ events: [Inotify.Event], into pending: inout Pending, at now: ContinuousClock.Instant) {
        for event in events {
            let path = event.path
            if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) {
                inotify.forget(below: path)
                pending.changes.vanished.insert(path)
            } else if event.has(IN_MOVED_FROM) || event.has(IN_DELETE) {
                if event.isDirectory { inotify.forget(below: path) }
                pending.writing.remove(path)
                pending.changes.appeared.remove(path)
                pending.changes.vanished.insert(path)
            } else if event.isDirectory, event.has(IN_CREATE) || event.has(IN_MOVED_TO) {
                // Files copied into a new folder before its watch exists are found by walking it.
                watchTree(path)
                pending.changes.appeared.insert(path)
            } else if event.has(IN_CREATE) && !Self.isWholeAtCreation(path) {
                // Still being written: acted on at IN_CLOSE_WRITE.
                pending.writing.insert(path)
                continue
            } else if event.has(IN_CREATE) || event.has(IN_CLOSE_WRITE) || event.has(IN_MOVED_TO) {
                pending.writing.remove(path)
                pending.changes.appeared.insert(path)
            } else {
                continue
            }
            pending.mark(at: now)
        }
    }
}

extension LibraryWatch {
    /// Whether a file is whole when it appears, so no IN_CLOSE_WRITE will follow: a symbolic
    /// link, or a hard link to a file that already existed (`ln`, `cp -l`, a torrent client's
    /// hard-linked library). A file being written has one link.
    static func isWholeAtCreation(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return status.st_mode & S_IFMT == S_IFLNK || (status.st_mode & S_IFMT == S_IFREG && status.st_nlink > 1)
    }
}

/// Changes not yet applied and when they came.
private struct Pending {
    var changes = WatchedChanges()
    /// Files created and not yet closed by their writer.
    var writing: Set<String> = []
    var first: ContinuousClock.Instant?
    var last: ContinuousClock.Instant?

    mutating func mark(at now: ContinuousClock.Instant) {
        if first == nil { first = now }
        last = now
    }

    /// When the next pass is due: `quiet` after the last event, but no later than `longest`
    /// after the first, so a long copy shows progress.
    func deadline(quiet: Duration, longest: Duration) -> ContinuousClock.Instant? {
        guard let first, let last else { return nil }
        return min(last + quiet, first + longest)
    }

    mutating func taken() {
        changes = WatchedChanges()
        first = nil
        last = nil
    }
}
