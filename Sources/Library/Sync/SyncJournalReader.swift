import Foundation

/// Reads journals one after another on one thread, keeping what the next can use again: the book
/// lines seen (`SeenBookLines`) and the buffer files are read into (600 MB of new memory, faulted
/// in and zeroed, for 100 journals was a tenth of reading them).
struct SyncJournalReader {
    private var seen: SeenBookLines?
    private var buffer: [UInt8] = []

    /// `keepingEveryRecord`: every record of each journal is kept (`SyncJournal.keepsEveryRecord`),
    /// as for a journal read alone; else only what counts, the book lines seen taken again.
    init(keepingEveryRecord: Bool = false) { seen = keepingEveryRecord ? nil : SeenBookLines() }

    /// The journal at `path`, read as `SyncJournalFile` reads (a regular file, never through a
    /// link, at most its byte limit).
    mutating func read(path: String) throws -> SyncJournal {
        let (count, cut) = try SyncJournalFile.read(path: path, into: &buffer)
        let journal = buffer.withUnsafeBufferPointer { SyncJournal.parse(UnsafeBufferPointer(rebasing: $0[..<count]), seen: &seen) }
        guard var journal else { throw SyncJournalError.notAJournal(path: path) }
        journal.readLimitReached = cut
        return journal
    }
}

/// The `B` lines seen in the journals read so far, with the book each defines: every device's
/// journal names the same books in the same bytes, so a line seen before is compared, not read
/// again (100 devices' journals of 10,000 books of 20 items are 20 million fingerprints, of which
/// 200,000 differ). A struct of arrays, every line's bytes in one: an object or an array per line
/// was a retain and a release of it, a cache miss each, at every look-up.
struct SeenBookLines {
    private struct Line {
        /// Where its bytes are in `bytes`.
        var range: Range<Int>
        var book: SyncBookIdentity
        /// As the line gives it, and `SyncJournalFormat.reference(of: book)`.
        var reference: String
        var computed: String
        /// The book line that came after this one in the journal read last, by index in `lines`.
        var next: Int?
    }

    private var bytes: [UInt8] = []
    private var lines: [Line] = []
    private var byReference: [String: Int] = [:]
    /// The line matched or remembered last in the journal being read, by index in `lines`:
    /// journals name their books in much the same order (a compaction keeps it), so the line
    /// that followed it last time is tried first, before a look-up by reference.
    private var previous: Int?
    /// How many books the journal read last defined (nil: none read yet).
    var booksInLastJournal: Int?

    /// A new journal begins.
    mutating func startJournal() { previous = nil }

    /// The book of a line seen before, byte for byte, and its reference; nil for any other line.
    /// `reference`: as the line gives it; `computed`: `SyncJournalFormat.reference(of: book)`.
    mutating func book(line: UnsafeBufferPointer<UInt8>) -> (book: SyncBookIdentity, reference: String, computed: String)? {
        // "B", a tab, then the reference the file gives (the key), up to the next tab.
        guard line.count > 2, line[0] == UInt8(ascii: "B"), line[1] == 0x09, let base = line.baseAddress else { return nil }
        if let expected = previous.flatMap({ lines[$0].next }), isLine(expected, line) {
            return found(expected)
        }
        guard let tab = memchr(base + 2, 0x09, line.count - 2) else { return nil }
        let key = String(decoding: UnsafeBufferPointer(start: base + 2, count: UnsafeRawPointer(base + 2).distance(to: UnsafeRawPointer(tab))),
                         as: UTF8.self)
        guard let index = byReference[key], isLine(index, line) else { return nil }
        return found(index)
    }

    mutating func remember(line: UnsafeBufferPointer<UInt8>, reference: String, book: SyncBookIdentity, computed: String) {
        byReference[reference] = lines.count
        lines.append(Line(range: bytes.count..<bytes.count + line.count, book: book, reference: reference, computed: computed))
        bytes.append(contentsOf: line)
        _ = found(lines.count - 1)
    }

    private func isLine(_ index: Int, _ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = lines[index].range
        return range.count == line.count && bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + range.lowerBound, line.baseAddress!, line.count) == 0 }
    }

    /// The line `index`, as the one after `previous`.
    private mutating func found(_ index: Int) -> (book: SyncBookIdentity, reference: String, computed: String) {
        if let previous { lines[previous].next = index }
        previous = index
        return (lines[index].book, lines[index].reference, lines[index].computed)
    }
}
