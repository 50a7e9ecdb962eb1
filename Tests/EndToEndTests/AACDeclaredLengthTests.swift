import Foundation
import TestSupport
import Testing

/// A file whose container states a longer length than its samples play says so in one line, at
/// each place a user meets the file: probe, import, play. The line comes through the plugin ABI's
/// one warning path (the host's log, at open), so it names the plugin and the file.
@Suite struct AACDeclaredLengthTests {
    static let rate = 44100

    /// The damaged file, what it plays (from the undamaged file's decode), and the line expected.
    struct Case {
        let file: URL
        let playedFrames: Int
        let line: String
    }

    static func damagedFragment(_ abplayer: AbplayerProcess) throws -> Case {
        let file = try Fixtures.fragmentedAACWithDamagedLastFragment(seconds: 12)
        let played = try abplayer.decode(file).frameCount
        let seconds = String(format: "%.2f", Double(played) / Double(rate))
        // 12.02 s of media less the 1,024 frames of priming the roll group skips
        return Case(file: file, playedFrames: played, line: "abplayer: faad: \(file.path): plays \(seconds) s of the 12.00 s it declares: the movie fragment at byte ")
    }

    @Test func probeSaysHowMuchPlaysAndWhy() throws {
        // Given a fragmented file whose mehd states 12 s and whose last fragment cannot be read
        let abplayer = try AbplayerProcess("declared-probe")
        let damaged = try Self.damagedFragment(abplayer)
        let undamaged = try abplayer.decode(try Fixtures.fragmentedAAC(seconds: 12, layout: .samplesInMoovThenFragments, fragmentSeconds: 2))
        // When probed
        let result = try abplayer.run(["probe", "--json", damaged.file.path])
        // Then it is reported with the length that plays: every fragment before the damaged one
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let probe = try JSONDecoder().decode(ProbeJSON.self, from: result.stdout)
        #expect(probe.frames == Int64(damaged.playedFrames))
        #expect(damaged.playedFrames >= 9 * Self.rate && damaged.playedFrames < 11 * Self.rate)
        // and one line says how much of what it declares plays, and why
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 && lines[0].hasPrefix(damaged.line), "stderr: \(result.stderr)")
        #expect(lines.first?.contains("moof/traf/trun") == true, "\(lines)")
        // and what plays is the undamaged file's audio, frame for frame
        let decoded = try abplayer.decode(damaged.file)
        #expect(AudioAnalysis.maxAbsDifference(decoded.samples, Array(undamaged.samples.prefix(decoded.samples.count))) < 1e-6)
    }

    @Test func importSaysItInOneLineAndTheBookHasTheLengthThatPlays() throws {
        // Given the same file in a book folder
        let abplayer = try AbplayerProcess("declared-import")
        let damaged = try Self.damagedFragment(abplayer)
        let book = abplayer.home.appending(path: "books/Fragments")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        let file = book.appending(path: "book.m4a")
        try FileManager.default.copyItem(at: damaged.file, to: file)
        let library = abplayer.home.appending(path: "library.sqlite").path
        // When the folder is imported
        let imported = try abplayer.run(["import", "--library", library, book.path], timeout: 60)
        // Then the book is imported, and one line names the file and says how much plays of what
        #expect(imported.status == 0 && imported.stdoutString.contains("1 new book, 1 file imported"), "\(imported.stdoutString) \(imported.stderr)")
        let lines = imported.stderr.split(separator: "\n").map(String.init)
        let seconds = String(format: "%.2f", Double(damaged.playedFrames) / Double(Self.rate))
        #expect(lines.count == 1
                && lines.first?.hasPrefix("abplayer: \(file.path): plays \(seconds) s of the 12.00 s it declares: the movie fragment at byte ") == true,
                "stderr: \(imported.stderr)")
    }

    @Test func playSaysItInOneLine() throws {
        // Given the same file
        let abplayer = try AbplayerProcess("declared-play")
        let damaged = try Self.damagedFragment(abplayer)
        // When half a second of it is played
        let result = try abplayer.run(["play", "--output", "null", "--from", "1", "--to", "1.5", damaged.file.path], timeout: 60)
        // Then it plays, and one line says how much plays of what it declares
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 1 && lines[0].hasPrefix(damaged.line), "stderr: \(result.stderr)")
    }
}
