import Foundation

/// Reads journals one after another on one thread, keeping what the next can use again: the `B`
/// lines seen, with the book each defines (every device's journal names the same books in the
/// same bytes, so a line seen before is compared, not read again: 100 devices' journals of 10,000
/// books of 20 items are 20 million fingerprints, of which 200,000 differ), and the buffer files
/// are read into (600 MB of new memory, faulted in and zeroed, for 100 journals was a tenth of it).
final class SyncJournalReader {
    /// A class, so that looking a line up retains one object, not each of its arrays and strings.
    private final class Line {
        let bytes: [UInt8]
        let book: SyncBookIdentity
        let reference: String
        let computed: String
        /// The book line that came after this one in the journal read last, by index in `known`.
        var next: Int?

        init(bytes: [UInt8], book: SyncBookIdentity, reference: String, computed: String) {
            self.bytes = bytes
            self.book = book
            self.reference = reference
            self.computed = computed
        }

        func isLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
            bytes.count == line.count && bytes.withUnsafeBufferPointer { memcmp($0.baseAddress!, line.baseAddress!, line.count) == 0 }
        }
    }

    private var known: [Line] = []
    private var lines: [String: Int] = [:]
    /// The book line matched or remembered last in the journal being read, by index in `known`:
    /// journals name their books in much the same order (a compaction keeps it), so the line
    /// that followed it last time is tried first, before a look-up by reference.
    private var previous: Int?
    /// How many books the journal read last defined (nil: none read yet).
    var booksInLastJournal: Int?
    private var buffer: [UInt8] = []

    func read(path: String) throws -> SyncJournal {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SyncJournalError.unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var info = stat()
        if fstat(descriptor, &info) == 0, buffer.count <= Int(info.st_size) { buffer = [UInt8](repeating: 0, count: Int(info.st_size) + 65536) }
        var count = 0
        while true {
            // A journal being appended to is read to where it ends now (its last line may be cut short).
            if count == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count + 65536) }
            let got = buffer.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw SyncJournalError.unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            count += got
        }
        previous = nil
        let journal = buffer.withUnsafeBufferPointer { SyncJournal.parse(UnsafeBufferPointer(rebasing: $0[..<count]), reader: self) }
        guard let journal else { throw SyncJournalError.notAJournal(path: path) }
        return journal
    }

    /// The book of a line seen before, byte for byte, and its reference; nil for any other line.
    /// `reference`: as the line gives it; `computed`: `SyncJournalFormat.reference(of: book)`.
    func book(line: UnsafeBufferPointer<UInt8>) -> (book: SyncBookIdentity, reference: String, computed: String)? {
        // "B", a tab, then the reference the file gives (the key), up to the next tab.
        guard line.count > 2, line[0] == UInt8(ascii: "B"), line[1] == 0x09, let base = line.baseAddress else { return nil }
        if let expected = previous.flatMap({ known[$0].next }), known[expected].isLine(line) {
            return found(expected)
        }
        guard let tab = memchr(base + 2, 0x09, line.count - 2) else { return nil }
        let key = String(decoding: UnsafeBufferPointer(start: base + 2, count: UnsafeRawPointer(base + 2).distance(to: UnsafeRawPointer(tab))),
                         as: UTF8.self)
        guard let index = lines[key], known[index].isLine(line) else { return nil }
        return found(index)
    }

    /// The known line `index`, as the one after `previous`.
    private func found(_ index: Int) -> (book: SyncBookIdentity, reference: String, computed: String) {
        if let previous { known[previous].next = index }
        previous = index
        return (known[index].book, known[index].reference, known[index].computed)
    }

    func remember(line: UnsafeBufferPointer<UInt8>, reference: String, book: SyncBookIdentity, computed: String) {
        lines[reference] = known.count
        known.append(Line(bytes: Array(line), book: book, reference: reference, computed: computed))
        _ = found(known.count - 1)
    }
}
