import Foundation
@testable import MP4
import TestSupport
import Testing

/// Lying files: each ends in an MP4Error naming the box, never a crash, a hang or an allocation
/// sized by a claim. The files are ffmpeg's, edited by the box editor, parsed from memory.
@Suite struct MP4BadInputTests {
    static func edited(_ edit: (inout MP4BoxEditor) throws -> Void) throws -> [UInt8] {
        var editor = try MP4BoxEditor(try Fixtures.aac(seconds: 5, chapters: [(0, "A"), (2, "B")]))
        try edit(&editor)
        return try editor.edited()
    }

    static func parseError(_ bytes: [UInt8]) -> MP4Error? {
        do {
            _ = try MP4Movie.parse(MemoryByteSource(bytes))
            return nil
        } catch {
            return error
        }
    }

    static let stbl = "moov/trak[0]/mdia/minf/stbl"

    /// Replaces 4 bytes of a leaf's payload.
    static func patch(_ path: String, at offset: Int, _ value: UInt32) throws -> [UInt8] {
        try edited { try $0.modify(path) { $0.payload.replaceSubrange(offset..<offset + 4, with: MP4BoxEditor.be32(value)) } }
    }

    @Test func tableClaimsBeyondTheBoxAreRefusedByPath() throws {
        let cases: [([UInt8], String, String)] = [
            (try Self.patch("\(Self.stbl)/stsz", at: 8, 0xFFFF_FFFF), "moov/trak/mdia/minf/stbl/stsz", "4294967295 entries"),
            (try Self.patch("\(Self.stbl)/stco", at: 4, 0xFFFF_FFFF), "moov/trak/mdia/minf/stbl/stco", "4294967295 entries"),
            (try Self.patch("\(Self.stbl)/stts", at: 4, 0xFFFF_FFFF), "moov/trak/mdia/minf/stbl/stts", "4294967295 entries"),
            (try Self.patch("\(Self.stbl)/stsc", at: 4, 0xFFFF_FFFF), "moov/trak/mdia/minf/stbl/stsc", "4294967295 entries"),
            // a uniform sample size with a count the file cannot hold: nothing is allocated, still refused
            (try Self.edited { try $0.modify("\(Self.stbl)/stsz") { $0.payload = [0, 0, 0, 0, 0, 0, 1, 0, 0xFF, 0xFF, 0xFF, 0xFF] } },
             "moov/trak/mdia/minf/stbl/stsz", "more than the whole file holds"),
            (try Self.edited { try $0.modify("\(Self.stbl)/stsz") { $0.payload = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] } },
             "moov/trak/mdia/minf/stbl/stsz", "no samples"),
            (try Self.patch("\(Self.stbl)/stsc", at: 8, 5000), "moov/trak/mdia/minf/stbl/stsc", "chunks must start at 1"),
            (try Self.patch("\(Self.stbl)/stsc", at: 12, 0), "moov/trak/mdia/minf/stbl/stsc", "0 samples per chunk"),
            (try Self.patch("\(Self.stbl)/stts", at: 8, 3), "moov/trak/mdia/minf/stbl/stts", "durations are given for"),
            (try Self.edited { try $0.remove("\(Self.stbl)/stsz") }, "moov/trak/mdia/minf/stbl/stsz", "missing"),
            (try Self.edited { try $0.remove("moov") }, "moov", "missing"),
            ([], "", "empty"),
        ]
        for (bytes, path, reason) in cases {
            let error = try #require(Self.parseError(bytes), "\(path) \(reason): parsed without error")
            #expect(error.box == path, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func sizeLiesNestingAndTruncationAreRefusedByPath() throws {
        var deep = MP4BoxEditor.Node("udta", children: [])
        for _ in 0..<1000 { deep = MP4BoxEditor.Node("udta", children: [deep]) }
        let nested = deep
        let good = try Self.edited { _ in }
        let moovStart = try #require(good.lastRange(ofBytes: Array("moov".utf8))).lowerBound - 4
        func withSize(of type: String, _ size: UInt32) throws -> [UInt8] {
            var bytes = good
            let at = try #require(bytes.lastRange(ofBytes: Array(type.utf8))).lowerBound - 4
            bytes.replaceSubrange(at..<at + 4, with: MP4BoxEditor.be32(size))
            return bytes
        }
        let cases: [([UInt8], String, String)] = [
            (try Self.edited { try $0.append(nested, to: "moov/udta") }, "moov/udta" + String(repeating: "/udta", count: 23), "deeper than 24"),
            (Array(good[..<(moovStart + 200)]), "moov", "truncated"),
            (try withSize(of: "stts", 0x7FFF_FFFF), "moov/trak/mdia/minf/stbl/stts", "only"),
            (try withSize(of: "mvhd", 3), "moov/mvhd", "smaller than its 8-byte header"),
            (try withSize(of: "moov", 0xFFFF_FFF0), "moov", "truncated"),
        ]
        for (bytes, path, reason) in cases {
            let error = try #require(Self.parseError(bytes), "\(path) \(reason): parsed without error")
            #expect(error.box == path, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test func aChapterTrackPointingNowhereIsAWarningAndNeroIsUsed() throws {
        let dangling = try Self.edited { try $0.modify("moov/trak[0]/tref/chap") { $0.payload = MP4BoxEditor.be32(99) } }
        let atItself = try Self.edited { try $0.modify("moov/trak[0]/tref/chap") { $0.payload = MP4BoxEditor.be32(1) } }
        for (bytes, reason) in [(dangling, "track 99, which does not exist"), (atItself, "'soun' track, not a text track")] {
            let movie = try MP4Movie.parse(MemoryByteSource(bytes))
            #expect(movie.quickTimeChapters.isEmpty)
            #expect(movie.chapters.map(\.title) == ["A", "B"])
            #expect(movie.warnings.count == 1 && movie.warnings[0].contains("moov/trak/tref/chap") && movie.warnings[0].contains(reason), "\(movie.warnings)")
        }
    }

    /// Every input the fuzzer ever crashed or hung on, and the hand-made lies above, kept in
    /// Tests/Fuzz/regressions: each must parse or fail with an MP4Error (a crash ends the run).
    @Test func theFuzzRegressionCorpusParsesOrFailsCleanly() throws {
        let directory = BuildProducts.packageDirectory.appendingPathComponent("Tests/Fuzz/regressions")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") && $0.pathExtension != "md" && !$0.lastPathComponent.hasPrefix("journal-") }
        try #require(!files.isEmpty)
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            if let error = Self.parseError(bytes) {
                #expect(!error.reason.isEmpty, "\(file.lastPathComponent)")
            }
        }
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
