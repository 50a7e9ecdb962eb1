import Foundation

/// The journals in a sync folder: every file named `DEVICE.abplayer-journal`. Anything else is
/// not ours to read (the sync tool's temporary files, a compaction in progress, other files).
public enum SyncFolder {
    public struct Contents: Sendable {
        public var journals: [SyncJournal] = []
        /// One line for each journal that could not be read, or had damaged lines.
        public var problems: [String] = []
    }

    /// Every other device's journal in `folder` (not `device`'s own), read; nil when the folder
    /// cannot be listed (missing, or not a folder).
    public static func read(_ folder: String, excluding device: DeviceID?) -> Contents? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var contents = Contents()
        for name in names.sorted() where name.hasSuffix(SyncJournalFormat.fileSuffix) && !name.hasPrefix(".") {
            let path = folder + "/" + name
            guard DeviceID(String(name.dropLast(SyncJournalFormat.fileSuffix.count))) != nil else { continue }
            do {
                let journal = try SyncJournal.read(path: path)
                if journal.device == device { continue }
                if let first = journal.damagedLines.first {
                    let count = journal.damagedLines.count
                    contents.problems.append("\(path): \(count) damaged line\(count == 1 ? "" : "s") skipped (the first is line \(first))")
                }
                contents.journals.append(journal)
            } catch {
                contents.problems.append("\(error)")
            }
        }
        return contents
    }
}

extension SyncFolder.Contents {
    /// What each device calls itself, as its journal says; a name two devices share (two
    /// computers both called "debian", or this one's own) is told apart by the device id after it.
    public func deviceNames(besides ownName: String?) -> [DeviceID: String] {
        let named = journals.compactMap { journal in journal.deviceName.map { (journal.device, $0) } }
        var uses: [String: Int] = [:]
        for name in named.map(\.1) + [ownName].compactMap({ $0 }) { uses[name, default: 0] += 1 }
        return Dictionary(named.map { device, name in (device, uses[name, default: 0] > 1 ? "\(name) (\(device))" : name) },
                          uniquingKeysWith: { a, _ in a })
    }
}
