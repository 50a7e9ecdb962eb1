import Foundation
import Library
import Testing
import TestSupport

/// Journals damaged field by field, as a careless tool or another device's bug could write them:
/// every one is read without stopping the player, every line is accounted for, and a folder's
/// reading (which keeps only what counts, and reads place lines its own way) merges to what the
/// whole file says.
@Suite struct SyncJournalMutationTests {
    /// xorshift64*: the same seed gives the same journals, so a failure can be made again (the
    /// standard library's generators cannot be seeded).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    static let books = (0..<4).map { number in
        SyncBookIdentity(items: (0..<3).map { "\(number)\($0)00:00000000000000a\($0)" }, title: "Book \(number)", author: "Author", seconds: 9000)
    }

    /// A journal of every kind of line, a few of each, for four books.
    static func seed() -> [String] {
        var lines = [SyncJournalFormat.header(device: DeviceID("SEED")!, name: "seed").dropLast().description]
        for (number, book) in books.enumerated() {
            let reference = SyncJournalFormat.reference(of: book)
            lines.append("B\t\(reference)\t\(book.title)\t\(book.author!)\t9000.000\t\(book.items.joined(separator: ","))")
            for day in 0..<3 {
                lines.append("P\t\(reference)\t\(1_764_000_000_000 + day * 86_400_000 + number)\t\(day % 3)\t\(day * 44100 + number)")
            }
            lines.append("F\t\(reference)\t1764000001000\t\(number % 2)")
            lines.append("M\t\(reference)\t1764000002000\tmark-\(number)\t1\t500\tuser\t1764000002000\ta note")
            lines.append("R\t\(reference)\t1764000003000\tmark-\(number)")
        }
        return lines
    }

    /// What a damaged field becomes: numbers too big or too small for a time, signs, escapes, nothing.
    static let strangeFields = [
        "", "-", "0", "-0", "18446744073709551616", "9999999999999999999", "-9999999999999999999", "999999999999999999",
        "1e3", " 7", "7 ", "0x10", "\\", "\\t", "\\q", "é", "\u{1B}[2J", "P", "B", "9223372036854775807", "-9223372036854775808",
    ]

    static func mutate(_ lines: [String], _ random: inout Generator) -> [String] {
        var lines = lines
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let index = Int.random(in: 1..<lines.count, using: &random)
            var fields = lines[index].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch Int.random(in: 0..<7, using: &random) {
            case 0, 1: fields[Int.random(in: 0..<fields.count, using: &random)] = strangeFields.randomElement(using: &random)!
            case 2: fields.remove(at: Int.random(in: 0..<fields.count, using: &random))
            case 3: fields.insert(strangeFields.randomElement(using: &random)!, at: Int.random(in: 0...fields.count, using: &random))
            case 4: lines.insert(lines[index], at: Int.random(in: 1...lines.count, using: &random))
            case 5: lines.swapAt(index, Int.random(in: 1..<lines.count, using: &random))
            default:
                let line = lines[index]
                lines[index] = String(line.prefix(Int.random(in: 0...line.count, using: &random)))
                continue
            }
            if fields.isEmpty { fields = [""] }
            lines[index] = fields.joined(separator: "\t")
        }
        return lines
    }

    @Test func aThousandDamagedJournalsAreReadLineByLineAndTheFolderMergesAsTheWholeFileDoes() throws {
        let directory = try BuildProducts.temporaryDirectory("sync-journal-mutations").path
        var random = Generator(state: 0x9E37_79B9_7F4A_7C15)
        let key: (SyncBookIdentity) -> Int64? = { Int64($0.title.dropFirst(5)) }
        for round in 0..<1000 {
            let lines = Self.mutate(Self.seed(), &random)
            let text = lines.joined(separator: "\n") + "\n"
            // Read whole: every line after the header is a book, a record, damaged or not understood.
            let whole = try #require(SyncJournal.parse(Array(text.utf8)), "round \(round)")
            let counted = lines.dropFirst().filter { !$0.isEmpty }.count
            #expect(whole.books.count + whole.recordCount + whole.damagedLines.count + whole.notUnderstood == counted,
                    "round \(round): \(lines)")
            // Read from a folder (every tenth: files are slower): the same merge.
            guard round % 10 == 0 else { continue }
            let path = directory + "/SEED.abplayer-journal"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let folder = try #require(SyncFolder.read(directory, excluding: nil)?.journals.first, "round \(round)")
            #expect(folder.damagedLines == whole.damagedLines && folder.notUnderstood == whole.notUnderstood, "round \(round): \(lines)")
            #expect(SyncMergeRules.merge([folder], key: key) == SyncMergeRules.merge([whole], key: key), "round \(round): \(lines)")
        }
    }
}
