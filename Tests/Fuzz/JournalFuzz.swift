// The libFuzzer entry point for the sync journal's parser and merge, built by
// scripts/fuzz-journal.sh (`make fuzz`) with `swiftc -sanitize=fuzzer,address -parse-as-library`
// together with the sources of Sources/Library, as one module (hence no import; GRDB and PathNames
// come from the debug build). The input is a journal as another device could leave it in the
// sync folder. Every input must parse or be refused (nil); what parses must merge, and what it
// says must be written and read back as the same records. libFuzzer reports a crash (a trap on a
// conversion, an overflow, a failed check here), a hang (-timeout) or a single allocation over
// -malloc_limit_mb as a finding.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Read alone (every record kept), and twice as a folder's readers read (the second time
    // taking the book lines seen in the first).
    guard let whole = SyncJournal.parse(bytes) else { return 0 }
    var seen: SeenBookLines? = SeenBookLines()
    let first = bytes.withUnsafeBufferPointer { SyncJournal.parse($0, seen: &seen) }
    let second = bytes.withUnsafeBufferPointer { SyncJournal.parse($0, seen: &seen) }
    guard let first, let second else { fatalError("a journal read alone was refused when read from a folder") }
    precondition(first.damagedLines == whole.damagedLines && second.damagedLines == whole.damagedLines)

    // Merged as an exchange merges: books keyed to a few local books (so that journals' books
    // collide, as other rips of one book do), this device's and another's.
    let key: (SyncBookIdentity) -> Int64? = { book in book.items.isEmpty ? nil : Int64(book.items.count % 3) }
    var merge = SyncJournalMerge(journals: 2)
    merge.add(first, key: key)
    merge.add(second, key: key)
    let rules = SyncMergeRules(local: whole.device, now: Date(timeIntervalSince1970: 1_764_000_000))
    for (_, book) in merge.books {
        _ = book.winningPosition(rules, and: nil)
        _ = book.positions
    }
    _ = SyncMergeRules.merge(whole.records.map { DeviceRecord(device: whole.device, record: $0) }, key: key)
    _ = whole.keptEntryIndices()

    // Written again as a writer writes it, every record reads back, none damaged.
    var text = SyncJournalFormat.header(device: whole.device, name: whole.deviceName)
    var written = 0
    for book in whole.books {
        let reference = SyncJournalFormat.reference(of: book)
        text += SyncJournalFormat.bookLine(book, reference: reference)
        for record in whole.records where record.book == book {
            guard let line = SyncJournalFormat.recordLine(record, reference: reference) else { fatalError("a record read cannot be written") }
            text += line
            written += 1
        }
    }
    guard let again = SyncJournal.parse(Array(text.utf8)) else { fatalError("a journal written from one read is refused") }
    precondition(again.damagedLines.isEmpty, "a journal written from one read has damaged lines \(again.damagedLines)")
    precondition(again.records.count == written, "written \(written) records, read back \(again.records.count)")
    return 0
}
