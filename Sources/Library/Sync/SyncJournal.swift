public import Foundation

/// What a journal held: its books and its entries in the order written, and what could not be used.
public struct SyncJournal: Sendable {
    /// A record whose book is one of the journal's `books`, by index: a merge works out which
    /// local book that is once per book, not once per record.
    public struct Entry: Equatable, Sendable {
        public var book: Int
        public var at: Date
        /// The change, a place's item by its index in the book's items: a fingerprint string
        /// per place, retained as it was read and released as the journal went, was a third of
        /// reading 100 devices' journals of 10,000 books (`SyncJournal.change(of:)` names it).
        var stored: StoredChange
    }

    /// A change as a journal keeps it: places and finished marks (nearly every line) hold no
    /// reference to count, the rest is rare.
    enum StoredChange: Equatable, Sendable {
        case position(item: Int, frame: Int64)
        case finished(Bool)
        case other(SyncChange)
    }

    public var device: DeviceID
    /// What the device calls itself (its host's name, or the name given it with `sync name`):
    /// its newest `N` line's, else its header's, when either says.
    public var deviceName: String?
    /// When the newest `N` line named it (nil: the header's name stands).
    public private(set) var namedAt: Date?
    /// The version its header states (a newer one is read as far as it is understood).
    public var version: Int
    public private(set) var books: [SyncBookIdentity] = []
    /// Each of `books`' `SyncJournalFormat.reference`, worked out once as it is read (a merge
    /// looks books up by it, and hashing each book's items in every journal cost more than the merge).
    var bookReferences: [String] = []
    /// The entries, in the order written; of a journal read from a sync folder (by a
    /// `SyncJournalReader`), only what counts (`keepsEveryRecord`).
    public private(set) var entries: [Entry] = []
    /// False for a journal read from a sync folder: of each book's places and finished marks only
    /// the newest is kept, where the first was (a merge and a compaction use nothing else, and
    /// the ten places a day of 10,000 books on a device not compacted yet were a million entries).
    public private(set) var keepsEveryRecord = true
    /// How many records were read, superseded ones too.
    public private(set) var recordCount = 0
    /// Each book's newest place and finished mark, by index in `entries` (nil: none), and every
    /// other entry's index: kept as the lines are read, so a merge looks at 10,000 books of a
    /// journal, not at its every line once for each core that merges.
    private var newestPosition: [Int?] = []
    private var newestFinished: [Int?] = []
    private(set) var otherEntries: [Int] = []

    /// The newest place of the book `book` (by index in `books`), as an index in `entries`.
    func newestPosition(ofBook book: Int) -> Int? { book < newestPosition.count ? newestPosition[book] : nil }
    func newestFinished(ofBook book: Int) -> Int? { book < newestFinished.count ? newestFinished[book] : nil }
    /// Lines that should have been records but were not (cut short, damaged, or naming a book
    /// the file never defined), by line number from 1. Skipped; the rest is read.
    public var damagedLines: [Int]
    /// Lines of a tag this version does not know (a newer writer's): skipped without a warning.
    public var notUnderstood: Int
    /// The file was larger than `SyncJournalFile.byteLimit`: only that much of it was read.
    public internal(set) var readLimitReached = false
}

public enum SyncJournalError: Error, Equatable, CustomStringConvertible {
    /// The file does not start with a journal's header: nothing in it is read.
    case notAJournal(path: String)
    case unreadable(path: String, reason: String)
    /// A named pipe, a device, a socket, a folder or a symbolic link under a journal's name: never
    /// opened (a link) or never read.
    case notARegularFile(path: String, kind: SyncFileKind)
    /// Past `SyncJournalFile.byteLimit`: only the first `limit` was read (a problem reported, not thrown).
    case tooLarge(path: String, limit: String)

    public var description: String {
        switch self {
        case let .notAJournal(path): return "\(path): not an abplayer journal (its first line is not '\(SyncJournalFormat.magic)'); skipped"
        case let .unreadable(path, reason): return "\(path): cannot read (\(reason)); skipped"
        case let .notARegularFile(path, kind): return "\(path): \(kind.rawValue), not a journal file; skipped"
        case let .tooLarge(path, limit): return "\(path): larger than \(limit); read its first \(limit)"
        }
    }
}

extension SyncJournal {
    /// The journal at `path`, every record kept; read as the folder's journals are (a regular
    /// file only, never through a link, bounded): the writer reads its own journal so too.
    public static func read(path: String) throws -> SyncJournal {
        var reader = SyncJournalReader(keepingEveryRecord: true)
        return try reader.read(path: path)
    }

    /// The records of a journal's bytes; nil when the first line is not a journal's header.
    /// A last line without its newline is being written (or was cut short): damaged, skipped.
    public static func parse(_ bytes: [UInt8]) -> SyncJournal? {
        var none: SeenBookLines?
        return bytes.withUnsafeBufferPointer { parse($0, seen: &none) }
    }

    /// `seen`: the book lines of the journals read before, taken again; nil: every record is
    /// kept (`keepsEveryRecord`), not only what counts, as when a folder is read.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, seen: inout SeenBookLines?) -> SyncJournal? {
        var lines = LineScanner(buffer)
        guard let header = lines.next(), header.isComplete else { return nil }
        var fields = FieldScanner()
        fields.split(header.range, of: buffer)
        guard fields.count >= 3, fields.string(0, buffer) == SyncJournalFormat.magic,
              let version = fields.number(1, buffer), version >= 1,
              let device = fields.string(2, buffer).flatMap(DeviceID.init)
        else { return nil }
        let name = fields.string(3, buffer).flatMap(DeviceName.read)
        var journal = SyncJournal(device: device, deviceName: name, version: Int(version), damagedLines: [], notUnderstood: 0)
        journal.keepsEveryRecord = seen == nil
        seen?.startJournal()
        // Room for as many entries as the shortest lines (a place's, some 40 bytes) could make:
        // growing a million entries by doubling copied and faulted in twice their memory.
        journal.entries.reserveCapacity(buffer.count / 40)
        // Each book's reference as the file gives it, by index in `journal.books`, and a table of
        // them made only when a record does not follow its book's line (one never does in a
        // compacted journal: hashing 10,000 references into it was a tenth of reading one).
        var references: [String] = []
        var books: [String: Int] = [:]
        var indexed = 0
        // Room for as many books as the journal read before had (every device names much the same
        // books): growing five arrays of 10,000 by doubling copied each into new memory a dozen times.
        if let expected = seen?.booksInLastJournal {
            references.reserveCapacity(expected)
            journal.reserveBooks(expected)
        }
        defer { seen?.booksInLastJournal = journal.books.count }
        // The book line read last, its reference where the buffer has it: a journal writes a book's
        // records just after its line, so they are found without a look-up by reference.
        var lastBook: (reference: UnsafeBufferPointer<UInt8>, index: Int)?
        func bookIndex(_ reference: UnsafeBufferPointer<UInt8>?) -> Int? {
            guard let reference else { return nil }
            if let lastBook, lastBook.reference.count == reference.count,
               memcmp(lastBook.reference.baseAddress!, reference.baseAddress!, reference.count) == 0 {
                return lastBook.index
            }
            guard let reference = SyncJournalFormat.unescaped(reference) else { return nil }
            // Of two lines with one reference, the later is the book.
            while indexed < references.count {
                books[references[indexed]] = indexed
                indexed += 1
            }
            return books[reference]
        }
        var number = 1
        while let line = lines.next() {
            number += 1
            if line.range.isEmpty { continue }
            guard line.isComplete else { journal.damagedLines.append(number); continue }
            let bytes = UnsafeBufferPointer(rebasing: buffer[line.range])
            if let known = seen?.book(line: bytes) {
                let end = memchr(bytes.baseAddress! + 2, 0x09, bytes.count - 2)!
                lastBook = (UnsafeBufferPointer(start: bytes.baseAddress! + 2, count: UnsafeRawPointer(bytes.baseAddress! + 2).distance(to: end)),
                            journal.books.count)
                references.append(known.reference)
                journal.add(known.book, reference: known.computed)
                continue
            }
            // A place, nearly every other line, read in one pass; anything unusual in it is left to the
            // reading of any line below, which says what is wrong.
            if bytes[0] == UInt8(ascii: "P"), let place = LineParser.place(bytes), let at = SyncJournalFormat.date(milliseconds: place.at),
               let book = bookIndex(place.reference), place.item < journal.books[book].items.count {
                journal.append(SyncJournal.Entry(book: book, at: at, stored: .position(item: place.item, frame: place.frame)))
                continue
            }
            fields.split(line.range, of: buffer)
            switch LineParser.parse(fields, buffer, book: { bookIndex($0.bytes(1, buffer)) }, journal: journal) {
            case .entry(let entry): journal.append(entry)
            case let .book(reference, book):
                lastBook = (fields.bytes(1, buffer)!, journal.books.count)
                references.append(reference)
                let computed = SyncJournalFormat.reference(of: book)
                journal.add(book, reference: computed)
                seen?.remember(line: bytes, reference: reference, book: book, computed: computed)
            case let .name(name, at):
                // Of two, the later: a clock set back must not bring an old name back.
                if journal.namedAt.map({ $0 <= at }) ?? true { (journal.deviceName, journal.namedAt) = (name, at) }
            case .unknownTag: journal.notUnderstood += 1
            case .damaged: journal.damagedLines.append(number)
            }
        }
        return journal
    }

    mutating func reserveBooks(_ count: Int) {
        books.reserveCapacity(count)
        bookReferences.reserveCapacity(count)
        newestPosition.reserveCapacity(count)
        newestFinished.reserveCapacity(count)
    }

    /// A book the journal defines, with its `SyncJournalFormat.reference`.
    mutating func add(_ book: SyncBookIdentity, reference: String) {
        books.append(book)
        bookReferences.append(reference)
        newestPosition.append(nil)
        newestFinished.append(nil)
    }

    mutating func append(_ entry: Entry) {
        recordCount += 1
        let newest: Int?
        switch entry.stored {
        case .position: newest = newestPosition[entry.book]
        case .finished: newest = newestFinished[entry.book]
        case .other:
            otherEntries.append(entries.count)
            entries.append(entry)
            return
        }
        // The later of two at the same time, as it was written last.
        let isNewer = newest.map { entries[$0].at <= entry.at } ?? true
        if !keepsEveryRecord, let newest {
            if isNewer { entries[newest] = entry }
            return
        }
        if isNewer {
            if case .position = entry.stored { newestPosition[entry.book] = entries.count } else { newestFinished[entry.book] = entries.count }
        }
        entries.append(entry)
    }

    /// The indexes in `entries` of what compaction keeps, in the order written: each book's
    /// newest place, finished mark, settings and chapter list, each bookmark's newest record
    /// unless it was removed, and each removal (the first of an id). Everything else was
    /// superseded by what is kept. Of the same time, the one written later is the newer. Worked
    /// out on the journal's own book numbers: grouping records by their books' identities hashed
    /// every fingerprint of every record, a fifth of a second for a journal of 10,000 books.
    func keptEntryIndices() -> [Int] {
        var kept = Set(newestPosition.compactMap { $0 }).union(newestFinished.compactMap { $0 })
        var newestSettings: [Int: Int] = [:], newestChapters: [Int: Int] = [:]
        var newestBookmark: [String: Int] = [:], removal: [String: Int] = [:]
        func newer(_ index: Int, than other: Int?) -> Bool { other.map { entries[$0].at <= entries[index].at } ?? true }
        for index in otherEntries {
            guard case let .other(change) = entries[index].stored else { continue }
            let book = entries[index].book
            switch change {
            case .settings: if newer(index, than: newestSettings[book]) { newestSettings[book] = index }
            case .chapters: if newer(index, than: newestChapters[book]) { newestChapters[book] = index }
            case let .bookmark(bookmark): if newer(index, than: newestBookmark[bookmark.id]) { newestBookmark[bookmark.id] = index }
            case let .bookmarkRemoved(id): if removal[id] == nil { removal[id] = index }
            case .position, .finished: break
            }
        }
        kept.formUnion(newestSettings.values)
        kept.formUnion(newestChapters.values)
        kept.formUnion(newestBookmark.filter { removal[$0.key] == nil }.values)
        kept.formUnion(removal.values)
        return kept.sorted()
    }

    /// The entries with their books, in the order written.
    public var records: [SyncRecord] { entries.map { SyncRecord(book: books[$0.book], at: $0.at, change: change(of: $0)) } }

    /// An entry's change, its item named by fingerprint.
    func change(of entry: Entry) -> SyncChange {
        switch entry.stored {
        case let .position(item, frame): .position(item: books[entry.book].items[item], frame: frame)
        case let .finished(value): .finished(value)
        case let .other(change): change
        }
    }
}

/// The lines of a buffer, one at a time, without copying them.
private struct LineScanner {
    let buffer: UnsafeBufferPointer<UInt8>
    var start = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func next() -> (range: Range<Int>, isComplete: Bool)? {
        guard start < buffer.count, let base = buffer.baseAddress else { return nil }
        // memchr, not a loop over the bytes: it looks at many at once, and a folder of journals is hundreds of MB.
        let end = memchr(base + start, 0x0A, buffer.count - start).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) }
            ?? buffer.count
        defer { start = end + 1 }
        return (start..<end, end < buffer.count)
    }
}

/// A line's tab-separated fields as ranges of the buffer: the array is kept from line to line,
/// so reading a million lines allocates for none of them.
private struct FieldScanner {
    private var ranges: [Range<Int>] = []
    var count: Int { ranges.count }

    mutating func split(_ line: Range<Int>, of buffer: UnsafeBufferPointer<UInt8>) {
        ranges.removeAll(keepingCapacity: true)
        var start = line.lowerBound
        for index in line where buffer[index] == 0x09 {
            ranges.append(start..<index)
            start = index + 1
        }
        ranges.append(start..<line.upperBound)
    }

    func bytes(_ index: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        index < ranges.count ? UnsafeBufferPointer(rebasing: buffer[ranges[index]]) : nil
    }

    /// The field's text, unescaped; nil when it is missing or badly escaped.
    func string(_ index: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> String? {
        bytes(index, buffer).flatMap { SyncJournalFormat.unescaped($0) }
    }

    /// A decimal integer (`decimal`); nil for anything else.
    func number(_ index: Int, _ buffer: UnsafeBufferPointer<UInt8>) -> Int64? {
        bytes(index, buffer).flatMap(decimal)
    }
}

/// A decimal integer of at most 18 digits (which an Int64 always holds: 19 nines, from another
/// device's journal, overflowed and stopped the player), an optional minus first; nil for anything else.
private func decimal(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard !digits.isEmpty else { return nil }
    let negative = digits[0] == UInt8(ascii: "-")
    let count = digits.count - (negative ? 1 : 0)
    guard count >= 1, count <= 18 else { return nil }
    var value: Int64 = 0
    for byte in digits.dropFirst(negative ? 1 : 0) {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - 48)
    }
    return negative ? -value : value
}

/// One line's meaning, by its tag and its fields' positions.
private enum LineParser {
    enum Outcome {
        case entry(SyncJournal.Entry)
        case book(reference: String, SyncBookIdentity)
        /// The writer's name from `at` on.
        case name(String, at: Date)
        case unknownTag
        case damaged
    }

    /// A place line's fields ("P", the book's reference, when, the item's index, the frame), read
    /// in one pass; nil for a line that is not one, or not as a writer makes it.
    static func place(_ line: UnsafeBufferPointer<UInt8>) -> (reference: UnsafeBufferPointer<UInt8>, at: Int64, item: Int, frame: Int64)? {
        guard line.count > 2, line[0] == UInt8(ascii: "P"), line[1] == 0x09, let base = line.baseAddress else { return nil }
        var start = 2
        /// The next field, up to a tab or the end of the line.
        func field() -> UnsafeBufferPointer<UInt8>? {
            guard start <= line.count else { return nil }
            let end = memchr(base + start, 0x09, line.count - start).map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) } ?? line.count
            defer { start = end + 1 }
            return UnsafeBufferPointer(start: base + start, count: end - start)
        }
        guard let reference = field(), let at = field().flatMap(decimal), let item = field().flatMap(decimal), item >= 0,
              let frame = field().flatMap(decimal), frame >= 0
        else { return nil }
        return (reference, at, Int(item), frame)
    }

    /// `book`: the index in the journal's books of the book a record's fields name.
    static func parse(_ fields: FieldScanner, _ buffer: UnsafeBufferPointer<UInt8>, book bookIndex: (FieldScanner) -> Int?,
                      journal: SyncJournal) -> Outcome {
        guard let tagField = fields.bytes(0, buffer), tagField.count == 1 else { return .unknownTag }
        let tag = tagField[0]
        if tag == UInt8(ascii: "B") {
            guard fields.count >= 6, let reference = fields.string(1, buffer), let title = fields.string(2, buffer),
                  let author = fields.string(3, buffer), let secondsText = fields.string(4, buffer), let list = fields.bytes(5, buffer)
            else { return .damaged }
            let seconds = secondsText.isEmpty ? nil : Double(secondsText)
            // A length the player shows and sums: infinite, negative or beyond any book, it is damage.
            if !secondsText.isEmpty && !(seconds.map(SyncJournalFormat.bookSecondsRange.contains) ?? false) { return .damaged }
            var items: [String] = []
            for item in list.split(separator: 0x2C) {
                guard let fingerprint = SyncJournalFormat.unescaped(UnsafeBufferPointer(rebasing: item)) else { return .damaged }
                items.append(fingerprint)
            }
            return .book(reference: reference, SyncBookIdentity(items: items, title: title, author: author.isEmpty ? nil : author, seconds: seconds))
        }
        if tag == UInt8(ascii: "N") {
            guard fields.count >= 3, let at = fields.number(1, buffer).flatMap(SyncJournalFormat.date(milliseconds:)),
                  let name = fields.string(2, buffer).flatMap(DeviceName.read) // a writer never writes an empty one
            else { return .damaged }
            return .name(name, at: at)
        }
        switch tag {
        case UInt8(ascii: "P"), UInt8(ascii: "F"), UInt8(ascii: "M"), UInt8(ascii: "R"), UInt8(ascii: "S"), UInt8(ascii: "C"): break
        default: return .unknownTag
        }
        guard let book = bookIndex(fields), let at = fields.number(2, buffer).flatMap(SyncJournalFormat.date(milliseconds:))
        else { return .damaged }
        /// An item of the book, by its index in the book's line (read in place: a copy of the book's
        /// items, retained and released for each of a million lines, was most of reading them).
        func itemIndex(_ index: Int) -> Int? {
            guard let number = fields.number(index, buffer), number >= 0, number < journal.books[book].items.count else { return nil }
            return Int(number)
        }
        func item(_ index: Int) -> String? { itemIndex(index).map { journal.books[book].items[$0] } }
        let change: SyncJournal.StoredChange
        switch tag {
        case UInt8(ascii: "P"):
            guard let item = itemIndex(3), let frame = fields.number(4, buffer), frame >= 0 else { return .damaged }
            change = .position(item: item, frame: frame)
        case UInt8(ascii: "F"):
            guard let flag = fields.number(3, buffer), flag == 0 || flag == 1 else { return .damaged }
            change = .finished(flag == 1)
        case UInt8(ascii: "M"):
            guard let id = fields.string(3, buffer), let item = item(4), let frame = fields.number(5, buffer), frame >= 0,
                  let kind = fields.string(6, buffer).flatMap(BookmarkKind.init(rawValue:)),
                  let created = fields.number(7, buffer).flatMap(SyncJournalFormat.date(milliseconds:)), let note = fields.string(8, buffer)
            else { return .damaged }
            change = .other(.bookmark(SyncBookmark(id: id, item: item, frame: frame, kind: kind, note: note.isEmpty ? nil : note,
                                                   createdAt: created)))
        case UInt8(ascii: "S"):
            guard let settings = SyncJournalFormat.settings((3..<max(3, fields.count)).compactMap { fields.bytes($0, buffer) })
            else { return .damaged }
            change = .other(.settings(settings))
        case UInt8(ascii: "C"):
            guard let list = fields.bytes(3, buffer), let chapters = SyncJournalFormat.chapters(list, items: journal.books[book].items) else { return .damaged }
            change = .other(.chapters(chapters))
        default:
            guard let id = fields.string(3, buffer) else { return .damaged }
            change = .other(.bookmarkRemoved(id: id))
        }
        return .entry(SyncJournal.Entry(book: book, at: at, stored: change))
    }
}
