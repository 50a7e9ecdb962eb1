import Foundation
import Synchronization

/// The journals in a sync folder: every file named `DEVICE.abplayer-journal`. Anything else is
/// not ours to read (the sync tool's temporary files, a compaction in progress, other files).
public enum SyncFolder {
    public struct Contents: Sendable {
        public var journals: [SyncJournal] = []
        /// One line for each journal that could not be read, or had damaged lines.
        public var problems: [String] = []
        /// The excluded device's own journal, when the folder holds it: read with the others (an
        /// exchange needs it too), not among them.
        public var own: SyncJournal?
    }

    /// Every other device's journal in `folder` (not `device`'s own), read; nil when the folder
    /// cannot be listed (missing, or not a folder).
    public static func read(_ folder: String, excluding device: DeviceID?) -> Contents? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var contents = Contents()
        // A name that is not a regular file (a named pipe, a device, a link: the share carries
        // links) is turned away before it is opened, with a line saying what it is. Only a cheap
        // first look: the file may be swapped before it is opened, where the reader checks again.
        let paths = names.sorted().filter { name in
            name.hasSuffix(SyncJournalFormat.fileSuffix) && !name.hasPrefix(".")
                && DeviceID(String(name.dropLast(SyncJournalFormat.fileSuffix.count))) != nil
        }.map { folder + "/" + $0 }.filter { path in
            guard let kind = SyncFileKind.of(path) else { return true }
            contents.problems.append(SyncJournalError.notARegularFile(path: path, kind: kind).description)
            return false
        }
        let ownPath = device.map { SyncJournalFormat.path(of: $0, in: folder) }
        for (path, read) in zip(paths, readAll(paths)) {
            if path == ownPath { contents.own = try? read.get() }
            do {
                let journal = try read.get()
                if journal.device == device { continue }
                if let first = journal.damagedLines.first {
                    let count = journal.damagedLines.count
                    contents.problems.append("\(path): \(count) damaged line\(count == 1 ? "" : "s") skipped (the first is line \(first))")
                }
                if journal.readLimitReached {
                    contents.problems.append(SyncJournalError.tooLarge(path: path, limit: SyncJournalFile.byteLimitText).description)
                }
                contents.journals.append(journal)
            } catch {
                contents.problems.append("\(error)")
            }
        }
        return contents
    }

    /// Every journal read, on every core (100 devices' journals of 10,000 books are 600 MB), each
    /// reader (a `SyncJournalReader` of its own: the book lines it has seen, its buffer) taking
    /// the next file as it is done.
    private static func readAll(_ paths: [String]) -> [Result<SyncJournal, any Error>] {
        let next = Atomic(0)
        let results = Mutex([Result<SyncJournal, any Error>](repeating: .failure(CancellationError()), count: paths.count))
        DispatchQueue.concurrentPerform(iterations: min(paths.count, ProcessInfo.processInfo.activeProcessorCount)) { _ in
            var reader = SyncJournalReader()
            while case let index = next.add(1, ordering: .relaxed).oldValue, index < paths.count {
                let read = Result { try reader.read(path: paths[index]) }
                results.withLock { $0[index] = read }
            }
        }
        return results.withLock { $0 }
    }
}

extension SyncFolder.Contents {
    /// What each device calls itself, as its journal says; a name two devices share (two
    /// computers both called "debian", or this one's own) is told apart by a short id after it:
    /// the first characters of the device id, as many as tell it from the others of that name
    /// (at least four: "vm (TMEX)").
    public func deviceNames(besides ownName: String?) -> [DeviceID: String] {
        let named = journals.compactMap { journal in journal.deviceName.map { (journal.device, $0) } }
        var sharing: [String: [DeviceID]] = [:]
        for (device, name) in named { sharing[name, default: []].append(device) }
        return Dictionary(named.map { device, name in
            let others = (sharing[name] ?? []).filter { $0 != device }
            guard !others.isEmpty || name == ownName else { return (device, name) }
            return (device, "\(name) (\(device.shortText(among: others)))")
        }, uniquingKeysWith: { a, _ in a })
    }
}

extension DeviceID {
    /// The shortest beginning of the id, four characters or more, that none of `others` begins with.
    func shortText(among others: [DeviceID]) -> String {
        var length = min(4, text.count)
        while length < text.count, others.contains(where: { $0.text.hasPrefix(text.prefix(length)) }) { length += 1 }
        return String(text.prefix(length))
    }
}
