/// Bookmarks as CSV (RFC 4180): a header row, then a record a bookmark, fields quoted when they
/// hold a comma, a quote, a line break or a space at an end, quotes doubled, records ended by
/// CRLF. A quoted note keeps every character, line breaks and terminal escapes included.
enum BookmarkCSV {
    static let header = ["number", "book_time", "book_seconds", "file", "file_time", "file_seconds",
                         "chapter", "kind", "note", "created"]

    static func write(_ entries: [BookmarkEntry]) -> String {
        let rows = entries.map { entry in
            [entry.number ?? "", entry.bookSeconds.map(ExportTime.text) ?? "", entry.bookSeconds.map(ExportTime.seconds) ?? "",
             entry.file ?? "", entry.fileSeconds.map(ExportTime.text) ?? "", entry.fileSeconds.map(ExportTime.seconds) ?? "",
             entry.chapter ?? "", entry.kind ?? "", entry.note ?? "", entry.createdAt.map(ExportDate.text) ?? ""]
        }
        return ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    private static func field(_ text: String) -> String {
        let needsQuotes = text.unicodeScalars.contains { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }
            || text.first?.isWhitespace == true || text.last?.isWhitespace == true
        return needsQuotes ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
    }

    /// The records of `text` by the columns its header names (in any order; unknown ones are
    /// passed over): the seconds columns win over the time ones, which are read when alone.
    static func read(_ text: String) -> ReadBookmarks {
        var result = ReadBookmarks()
        let records: [Record]
        switch Self.records(text) {
        case let .success(found): records = found
        case let .failure(unclosed):
            result.refuse(line: unclosed.line, "a quoted field is never closed: nothing from this line on was read")
            records = unclosed.before
        }
        guard let head = records.first else { return result }
        let columns = Dictionary(head.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces).lowercased(), $0) },
                                 uniquingKeysWith: { first, _ in first })
        for record in records.dropFirst() where !(record.fields.count == 1 && record.fields[0].isEmpty) {
            func value(_ name: String) -> String? {
                guard let index = columns[name], record.fields.indices.contains(index), !record.fields[index].isEmpty else { return nil }
                return record.fields[index]
            }
            func time(_ seconds: String, _ clock: String) throws(TimeError) -> Double? {
                for name in [seconds, clock] {
                    guard let text = value(name) else { continue }
                    guard let parsed = ExportTime.parse(text) else { throw TimeError(column: name, text: text) }
                    return parsed
                }
                return nil
            }
            do {
                let entry = BookmarkEntry(
                    number: value("number"), bookSeconds: try time("book_seconds", "book_time"), file: value("file"),
                    fileSeconds: try time("file_seconds", "file_time"), chapter: value("chapter"), kind: value("kind"),
                    note: value("note"), createdAt: value("created").flatMap(ExportDate.parse))
                guard entry.bookSeconds != nil || entry.fileSeconds != nil && entry.file != nil else {
                    result.refuse(line: record.line, "no time: a bookmark needs book_seconds (or book_time), or file and file_seconds")
                    continue
                }
                result.add(entry, line: record.line)
            } catch {
                result.refuse(line: record.line, "\(error.column) '\(error.text)' is not a time (seconds, or h:mm:ss)")
            }
        }
        return result
    }

    private struct TimeError: Error {
        let column: String
        let text: String
    }

    struct Record {
        /// The line it starts on, from 1.
        let line: Int
        let fields: [String]
    }

    struct Unclosed: Error {
        let line: Int
        let before: [Record]
    }

    /// Splits RFC 4180 text into records, quoted fields spanning lines. Bare LF ends a record as
    /// CRLF does (files edited on Linux); a CR inside a quoted field is kept.
    static func records(_ text: String) -> Result<[Record], Unclosed> {
        var records: [Record] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1, recordLine = 1
        var quoted = false, wasQuoted = false
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar?
        func endField() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
            wasQuoted = false
        }
        func endRecord() {
            endField()
            records.append(Record(line: recordLine, fields: fields))
            fields = []
            recordLine = line
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    let next = scalars.next()
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty && !wasQuoted: quoted = true; wasQuoted = true
            case ",": endField()
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next }
                line += 1
                endRecord()
            case "\n":
                line += 1
                endRecord()
            default: field.append(scalar)
            }
        }
        if quoted { return .failure(Unclosed(line: recordLine, before: records)) }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return .success(records)
    }
}
