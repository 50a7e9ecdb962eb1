public import Foundation

/// Appends this library's records to its own journal in the sync folder, the only file there it
/// ever writes, and compacts it when it grows. Each append is one `write` of whole lines on a
/// file opened with O_APPEND, so a reader (or the sync tool copying the file) sees whole lines,
/// or a last line cut short, which readers skip. The file is opened and made by
/// `SyncJournalFile`, which never writes through a link.
public final class SyncJournalWriter {
    public let device: DeviceID
    /// Written in the journal's header: what other devices show for this one.
    public let deviceName: String?
    public let path: String
    /// The books this file has defined (their `B` lines), by reference.
    private var definedBooks: Set<String> = []
    /// The journal as it was when this writer was made (nil: no file yet), and how many of its
    /// entries compaction would keep: an append never needs to read the file again to know that
    /// most of it still counts (it cannot count less after an append).
    private var keptAtOpen: (kept: Int, entries: Int)?
    /// A journal past this size is rewritten with only what still counts, once at least half of
    /// its records no longer do.
    let compactionBytes: Int

    public convenience init(folder: String, device: DeviceID, name: String? = nil, compactionBytes: Int = 1 << 20) throws {
        let path = SyncJournalFormat.path(of: device, in: folder)
        // lstat, not fileExists: a link planted under this name is not "no journal yet" (its
        // target would be created), it is refused when the journal is read or written.
        var info = stat()
        let present = lstat(path, &info) == 0
        try self.init(folder: folder, device: device, name: name, compactionBytes: compactionBytes,
                      journal: present ? SyncJournal.read(path: path) : nil)
    }

    /// `journal`: what the file holds now, already read (nil: there is no file yet).
    init(folder: String, device: DeviceID, name: String? = nil, compactionBytes: Int = 1 << 20, journal: SyncJournal?) throws {
        self.device = device
        deviceName = name
        self.compactionBytes = compactionBytes
        path = SyncJournalFormat.path(of: device, in: folder)
        if let journal {
            definedBooks = Set(journal.bookReferences)
            keptAtOpen = (journal.keptEntryIndices().count, journal.recordCount)
        }
    }

    /// Writes `records` at the journal's end (the header first, in a new file; a book's `B` line
    /// before its first record), then compacts the file if it has grown past the limit. A record
    /// naming an item its book does not have is left out. `renamed`: an `N` line first, saying
    /// the writer's name (`deviceName`) changed then.
    public func append(_ records: [SyncRecord], renamed: Date? = nil) throws {
        let rename = deviceName.flatMap { name in renamed.map { SyncJournalFormat.nameLine(name, at: $0) } }
        guard !records.isEmpty || rename != nil else { return }
        var text = rename ?? ""
        var defined = definedBooks
        for record in records {
            let reference = SyncJournalFormat.reference(of: record.book)
            if defined.insert(reference).inserted { text += SyncJournalFormat.bookLine(record.book, reference: reference) }
            text += SyncJournalFormat.recordLine(record, reference: reference) ?? ""
        }
        let size = try appendText(text)
        definedBooks = defined
        guard size > compactionBytes else { return }
        // What it kept before, it keeps after: each record appended supersedes at most one kept
        // record and is kept itself. So when that is most of it, it stays as it is, unread (a
        // journal of 10,000 books is past the limit even compacted, and was read again at every append).
        if let before = keptAtOpen {
            keptAtOpen = (before.kept, before.entries + records.count)
            if 2 * before.kept > before.entries + records.count { return }
        }
        try compact(unlessMostStillCounts: true)
    }

    /// Rewrites the journal with only what still counts (`SyncJournal.keptEntryIndices`): written
    /// beside it and renamed over it, so a reader sees the old file or the new one, never half of one.
    /// `unlessMostStillCounts`: not when more than half of its records would be kept. A large
    /// library's journal is past the limit even compacted (10,000 books' lines are megabytes), and
    /// rewriting it whole at every append would copy it for nothing; it waits until half is stale.
    public func compact(unlessMostStillCounts: Bool = false) throws {
        let journal = try SyncJournal.read(path: path)
        let keptIndices = journal.keptEntryIndices()
        keptAtOpen = (keptIndices.count, journal.recordCount)
        if unlessMostStillCounts && 2 * keptIndices.count > journal.recordCount { return }
        let kept = keptIndices.map { SyncRecord(book: journal.books[journal.entries[$0].book], at: journal.entries[$0].at,
                                                change: journal.change(of: journal.entries[$0])) }
        // The name as it stands now, in the header: the `N` lines that said it are not kept.
        var text = SyncJournalFormat.header(device: device, name: deviceName ?? journal.deviceName)
        var defined: Set<String> = []
        for record in kept {
            let reference = SyncJournalFormat.reference(of: record.book)
            if defined.insert(reference).inserted { text += SyncJournalFormat.bookLine(record.book, reference: reference) }
            text += SyncJournalFormat.recordLine(record, reference: reference) ?? ""
        }
        // A dot name: not a journal to any reader while it is written (readers take only names
        // ending in the journal suffix).
        let temporary = (path as NSString).deletingLastPathComponent + "/." + device.text + ".compacting"
        try SyncJournalFile.writeNew(temporary, Array(text.utf8))
        // rename replaces the name, never what a link there points to.
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SyncJournalWriteError.cannotWrite(path: path, reason: "cannot replace it: \(reason)")
        }
        definedBooks = defined
        keptAtOpen = (kept.count, kept.count)
    }

    /// `text` written at the end in one go (the header first if the file is new or empty); the
    /// size after. All or nothing: a write cut short (a full disk) is truncated back, and text
    /// after a line left cut short all the same (the truncation failed too) starts on a line of
    /// its own, so no record is ever glued to a fragment and lost with it.
    private func appendText(_ text: String) throws -> Int {
        let file = try SyncJournalFile.openForAppending(path)
        defer { close(file.descriptor) }
        var bytes = Array(((file.size == 0 ? SyncJournalFormat.header(device: device, name: deviceName) : "") + text).utf8)
        if file.endsWithCutLine { bytes.insert(0x0A, at: 0) }
        try SyncJournalFile.append(bytes, to: file, path: path)
        return file.size + bytes.count
    }
}
