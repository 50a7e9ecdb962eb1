import Foundation
import TestSupport
import Testing

/// Broken MP4 files: one line each naming the file and the box at fault, no crash, no hang, the
/// good files in the same command still reported.
@Suite struct AACBadInputTests {
    /// `file` edited by `edit`, then with raw bytes patched by `patch` (for lies the editor's
    /// size bookkeeping would otherwise correct).
    static func broken(_ label: String, chapters: Bool = false, edit: (inout MP4BoxEditor) throws -> Void = { _ in },
                       patch: (inout [UInt8]) throws -> Void = { _ in }) throws -> URL {
        let source = try Fixtures.aac(seconds: 5, chapters: chapters ? [(0, "One"), (2, "Two")] : [])
        return try Fixtures.editedMP4(source, label: "broken-\(label)") { editor in
            try edit(&editor)
            var bytes = try editor.edited()
            try patch(&bytes)
            editor = MP4BoxEditor(bytes: bytes)
        }
    }

    /// Overwrites the 32-bit size of the last box of `type` in `bytes` (moov is at the end).
    static func setSize(of type: String, to size: UInt32, in bytes: inout [UInt8]) throws {
        let range = try #require(bytes.lastRange(ofBytes: Array(type.unicodeScalars.map { UInt8($0.value) })))
        bytes.replaceSubrange(range.lowerBound - 4..<range.lowerBound, with: MP4BoxEditor.be32(size))
    }

    @Test func everyBrokenFileGetsOneLineNamingTheBox() throws {
        let good = try Fixtures.aac(seconds: 5)
        let stszPath = "moov/trak[0]/mdia/minf/stbl/stsz"
        var nest = MP4BoxEditor.Node("udta", children: [])
        for _ in 0..<1000 { nest = MP4BoxEditor.Node("udta", children: [nest]) }
        let deepNest = nest
        let truncatedMoov = try Fixtures.truncated(good, keepingFraction: 0.97)
        let bad: [(URL, [String])] = [
            (truncatedMoov, ["moov", "truncated"]),
            (try Self.broken("huge-table") { try $0.modify(stszPath) { $0.payload.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xFF]) } },
             ["moov/trak/mdia/minf/stbl/stsz", "4294967295 entries"]),
            (try Self.broken("no-samples") { try $0.modify(stszPath) { $0.payload = Array($0.payload.prefix(8)) + [0, 0, 0, 0] } },
             ["moov/trak/mdia/minf/stbl/stsz", "no samples"]),
            (try Self.broken("oversized-box", patch: { try Self.setSize(of: "stts", to: 0x7FFF_FFFF, in: &$0) }),
             ["moov/trak/mdia/minf/stbl/stts", "only"]),
            (try Self.broken("size-below-header", patch: { try Self.setSize(of: "mvhd", to: 4, in: &$0) }),
             ["moov/mvhd", "smaller than its 8-byte header"]),
            (try Self.broken("deep-nest") { try $0.append(deepNest, to: "moov/udta") }, ["moov/udta/udta", "deeper than"]),
            (try Fixtures.textFile(named: "notes.m4b"), ["not an mp4 file"]),
        ]
        let dangling = try Self.broken("dangling-chapters", chapters: true) { try $0.modify("moov/trak[0]/tref/chap") { $0.payload = MP4BoxEditor.be32(99) } }
        let files = [good] + bad.map(\.0) + [dangling]
        // When probed in one command
        let result = try AbplayerProcess("aac-bad").run(["probe", "--json"] + files.map(\.path), timeout: 60)
        // Then the good file and the one with a dangling chapter reference are reported
        #expect(result.status != 0)
        let reported = result.stdoutString.split(separator: "\n")
        #expect(reported.count == 2, "stdout: \(result.stdoutString)")
        #expect(reported.first?.contains(good.lastPathComponent) == true)
        #expect(reported.last?.contains(dangling.lastPathComponent) == true)
        // and every broken file has exactly one line naming it and the box at fault
        let errors = result.stderr.split(separator: "\n").map(String.init)
        for (file, needles) in bad {
            let lines = errors.filter { $0.contains(file.path + ":") }
            #expect(lines.count == 1, "\(file.lastPathComponent): \(lines)")
            for needle in needles {
                #expect(lines.first?.lowercased().contains(needle.lowercased()) == true, "\(file.lastPathComponent) lacks '\(needle)': \(lines)")
            }
        }
        // and the dangling chapter reference is one warning naming the box, not a failure
        let warnings = errors.filter { $0.contains(dangling.path) }
        #expect(warnings.count == 1 && warnings.first?.contains("tref/chap") == true && warnings.first?.contains("track 99") == true, "\(warnings)")
        #expect(errors.count == bad.count + 1, "stderr: \(result.stderr)")
    }

    @Test func aTruncatedFaststartFilePlaysWhatItHasAndEnds() throws {
        // Given a faststart M4B (moov first) cut in the middle of its audio
        let whole = try Fixtures.aac(seconds: 20, faststart: true)
        let truncated = try Fixtures.truncated(whole, keepingFraction: 0.5)
        let abplayer = try AbplayerProcess("aac-truncated")
        let output = abplayer.home.appendingPathComponent("out.wav")
        // When decoded
        let result = try abplayer.run(["decode", truncated.path, "-o", output.path], timeout: 60)
        // Then it ends with what it has and at most one line saying the file is truncated
        #expect(result.status == 0 || result.status == 1, "status \(result.status): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count <= 1, "stderr: \(result.stderr)")
        let decoded = try WavFile.read(output)
        let seconds = Double(decoded.frameCount) / Double(decoded.rate)
        #expect(seconds > 8 && seconds < 12, "decoded \(seconds) s of a 20 s file cut in half")
        #expect(AudioAnalysis.secondAt(frame: 5 * decoded.rate + decoded.rate / 2, in: decoded.samples,
                                       channels: decoded.channels, rate: decoded.rate) == 5)
    }
}

extension Array where Element == UInt8 {
    func lastRange(ofBytes pattern: [UInt8]) -> Range<Int>? {
        guard count >= pattern.count else { return nil }
        for start in stride(from: count - pattern.count, through: 0, by: -1) where self[start..<start + pattern.count].elementsEqual(pattern) {
            return start..<start + pattern.count
        }
        return nil
    }
}
