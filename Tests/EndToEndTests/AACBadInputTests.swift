import Foundation
import TestSupport
import Testing

/// Broken MP4 files: one line each naming the file and the box at fault, no crash, no hang, the
/// good files in the same command still reported.
@Suite struct AACBadInputTests {
    static let rate = 44100

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

    @Test func aDamagedFrameInTheMiddleIsSilenceAndTheRestPlaysInPlace() throws {
        // Given a 20 s M4B without PNS (so our decode is deterministic) and a copy in which the
        // AAC frame holding 10.0 s is overwritten with 0xFF bytes (where ffprobe says it lies)
        let good = try Fixtures.aac(seconds: 20, pns: false)
        let packets = try Command.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries",
                                                  "packet=pts,size,pos", "-of", "csv=p=0", good.path]).requireSuccess()
        let rows = packets.stdoutString.split(separator: "\n").map { $0.split(separator: ",").compactMap { Int($0) } }
        let frame10s = try #require(rows.first { $0.count == 3 && $0[0] >= 10 * Self.rate })
        // (ffprobe prints the fields in its own order, pts,size,pos, whatever the order asked)
        let damagedPTS = frame10s[0], damagedSize = frame10s[1], damagedPos = frame10s[2]
        let abplayer = try AbplayerProcess("aac-damaged")
        let damaged = abplayer.home.appendingPathComponent("damaged.m4b")
        var bytes = try Data(contentsOf: good)
        bytes.replaceSubrange(damagedPos..<(damagedPos + damagedSize), with: Data(repeating: 0xFF, count: damagedSize))
        try bytes.write(to: damaged)
        // When both are decoded
        let reference = try abplayer.decode(good)
        let output = abplayer.home.appendingPathComponent("damaged.wav")
        let result = try abplayer.run(["decode", damaged.path, "-o", output.path], timeout: 60)
        let decoded = try WavFile.read(output)
        // Then the damaged file plays to its end with every frame in place, telling the user once
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let warnings = result.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings.first?.contains("damaged") == true
                && warnings.first?.contains(damaged.lastPathComponent) == true, "stderr: \(result.stderr)")
        #expect(decoded.frameCount == reference.frameCount)
        // and the damage is confined to the frames around it (the 1024-frame slot is silence,
        // the next frame overlaps with it), the rest identical to the undamaged decode
        let slotStart = damagedPTS // ffprobe applies the edit list: pts 0 is our frame 0
        let slot = Array(decoded.samples[(slotStart * 2)..<((slotStart + 1024) * 2)])
        #expect(AudioAnalysis.rms(slot) < 1e-6)
        let before = 0..<((slotStart - 1024) * 2)
        let after = ((slotStart + 3 * 1024) * 2)..<decoded.samples.count
        #expect(AudioAnalysis.maxAbsDifference(Array(decoded.samples[before]), Array(reference.samples[before])) < 1e-6)
        #expect(AudioAnalysis.maxAbsDifference(Array(decoded.samples[after]), Array(reference.samples[after])) < 1e-6)
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
