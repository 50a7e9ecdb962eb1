import Foundation
import Library
import Listening
import PlayerCore
import PluginHost
import TestSupport

extension ControllerHarness {
    /// Imports a book `title` of MP3 tones (Hz, seconds each) made by sox and lame, at 44.1 kHz
    /// stereo unless told, half scale (RMS 0.354), and turns loudness levelling off (these tests
    /// hear levels). Returns its id.
    /// `flac`: FLAC files sox writes itself, for long books (lame takes a second a 10-minute file).
    func toneBook(_ title: String, tones: [(hz: Double, seconds: Double)], rate: Int = 44100, channels: Int = 2, flac: Bool = false) throws -> Int64 {
        let bookFolder = folder.appending(path: title)
        try FileManager.default.createDirectory(at: bookFolder, withIntermediateDirectories: true)
        for (index, tone) in tones.enumerated() where flac {
            let file = bookFolder.appending(path: String(format: "%02d.flac", index + 1)).path
            try Command.run("sox", ["-n", "-r", "\(rate)", "-c", "\(channels)", file, "synth", "\(tone.seconds)", "sine", "\(tone.hz)", "vol", "0.5"]).requireSuccess()
        }
        for (index, tone) in tones.enumerated() where !flac {
            let wav = bookFolder.appending(path: "tone.wav").path
            let mp3 = bookFolder.appending(path: String(format: "%02d.mp3", index + 1)).path
            try Command.run("sox", ["-n", "-r", "\(rate)", "-c", "\(channels)", wav, "synth", "\(tone.seconds)", "sine", "\(tone.hz)", "vol", "0.5"]).requireSuccess()
            try Command.run("lame", ["--quiet", "--nohist", "-b", rate < 16000 ? "24" : "192", wav, mp3]).requireSuccess()
            try FileManager.default.removeItem(atPath: wav)
        }
        let importer = Importer(library: library, inspector: DecoderInspector(decoders: Self.registry))
        _ = try importer.importPaths([bookFolder.path])
        _ = try perform(.defaults(.set(.loudness, 0)))
        return try library.books.book(matching: title).id!
    }

    /// Advances the test's clock a step at a time until `condition` holds; false when `limit`
    /// passed on the clock first.
    func advance(until condition: () -> Bool, within limit: Duration, step: Duration = .milliseconds(100)) -> Bool {
        guard let clock = manualClock else { fatalError("advance needs a clocked harness") }
        let end = clock.now + limit
        while !condition() {
            if clock.now >= end { return false }
            advance(by: step, step: step)
        }
        return true
    }

    /// The audio the clocked output took, with analysis helpers (mono: its first channel).
    var heard: [Float] { clockedOutput?.audio ?? [] }
    var heardSeconds: Double { Double(clockedOutput?.frameCount ?? 0) / Double(clockedOutput?.sinkRate ?? 44100) }

    func heardRMS(from: Double, seconds: Double, rate: Int = 44100) -> Double {
        AudioAnalysis.rms(heard, channels: 1, from: Int(from * Double(rate)), count: Int(seconds * Double(rate)))
    }

    func heardFrequency(at: Double, seconds: Double = 0.5, rate: Int = 44100) -> Double {
        AudioAnalysis.dominantFrequency(heard, channels: 1, rate: rate, from: Int((at - seconds / 2) * Double(rate)),
                                        count: Int(seconds * Double(rate)))
    }

    var sawSleepPause: Bool { notices.contains { if case .sleepPaused = $0 { true } else { false } } }
}
