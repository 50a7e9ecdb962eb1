import Foundation
import TestSupport
import Testing

/// `abplayer loudness measure`, `book settings --loudness` and what `status --json` says of the
/// loudness, through the built binary.
@Suite struct LoudnessCommandTests {
    /// What `status --json` says of the loudness.
    struct StatusJSON: Decodable {
        let loudness: String?
        let loudnessGain: Double?
    }

    /// A library with the book "Quiet": a narration 20 dB quieter than espeak-ng speaks.
    static func library(_ name: String) throws -> (AbplayerProcess, String, URL) {
        let abplayer = try AbplayerProcess(name)
        let folder = abplayer.home.appending(path: "Quiet")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let flac = try Fixtures.narration("01.flac", in: folder, gainDB: -20)
        try FileManager.default.removeItem(at: folder.appending(path: "01.flac.wav"))
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        return (abplayer, library, flac)
    }

    static func status(_ abplayer: AbplayerProcess, _ library: String) throws -> StatusJSON {
        let result = try abplayer.run(["-c", "play Quiet; status --json", "--output", "null", "--library", library])
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdoutString.split(separator: "\n").first { $0.hasPrefix("{") }, "\(result.stdoutString)")
        return try JSONDecoder().decode(StatusJSON.self, from: Data(line.utf8))
    }

    @Test func measureKeepsTheLoudnessAndTheNextPlayUsesIt() throws {
        // Given a quiet book
        let (abplayer, library, flac) = try Self.library("loudness-measure")
        // When it is measured from the command line
        let result = try abplayer.run(["loudness", "measure", "--library", library, "Quiet"])
        // Then it says its loudness, its true peak and the gain toward -18 LUFS, in one line
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutString.hasPrefix("#1 Quiet: loudness on (default): -"), "\(result.stdoutString)")
        #expect(result.stdoutString.contains("dBTP, gain +"), "\(result.stdoutString)")
        #expect(result.stdoutString.hasSuffix("to -18 LUFS\n"), "\(result.stdoutString)")
        // and a REPL playing it applies that gain at once: the target less ffmpeg's measure
        let reference = try LoudnessMeasure.ffmpeg(flac)
        let status = try Self.status(abplayer, library)
        let gain = try #require(status.loudnessGain, "\(status.loudness ?? "")")
        #expect(abs(gain - (-18 - reference.integratedLUFS)) <= 0.5, "\(gain) dB for \(reference.integratedLUFS) LUFS")
        #expect(status.loudness?.hasPrefix("gain +") == true)
    }

    @Test func aBooksOwnSettingTurnsItOffAndBadValuesAreOneLine() throws {
        // Given a quiet book
        let (abplayer, library, _) = try Self.library("loudness-settings")
        // When its loudness is turned off
        let off = try abplayer.run(["book", "settings", "--library", library, "Quiet", "--loudness", "off"])
        // Then the settings say so, and it plays as recorded
        #expect(off.status == 0, "\(off.stderr)")
        #expect(off.stdoutString.hasSuffix(", loudness off\n"), "\(off.stdoutString)")
        let status = try Self.status(abplayer, library)
        #expect(status.loudness == "loudness off")
        #expect(status.loudnessGain == nil)
        // and `default` drops the book's own setting
        let back = try abplayer.run(["book", "settings", "--library", library, "Quiet", "--loudness", "default"])
        #expect(back.stdoutString.contains("loudness") == false, "\(back.stdoutString)")
        // and a bad value, a missing book, are one `abplayer:` line each, changing nothing
        let bad = try abplayer.run(["book", "settings", "--library", library, "Quiet", "--loudness", "loud"])
        #expect(bad.status != 0)
        #expect(bad.stderr == "abplayer: --loudness: 'loud' is not understood: use on, off or default\n")
        let missing = try abplayer.run(["loudness", "measure", "--library", library, "Nothing"])
        #expect(missing.status != 0)
        #expect(missing.stderr == "abplayer: no book matches 'Nothing'\n")
    }

    @Test func aBookWhoseFileIsBrokenGetsOneLine() throws {
        // Given a book whose file became garbage after the import
        let (abplayer, library, flac) = try Self.library("loudness-broken")
        try Data(repeating: 0x5A, count: 10_000).write(to: flac)
        // When it is measured
        let result = try abplayer.run(["loudness", "measure", "--library", library, "Quiet"])
        // Then one line says which file could not be measured
        #expect(result.status != 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("abplayer: loudness of #1 Quiet could not be measured: \(flac.path)") == true, "\(result.stderr)")
    }
}
