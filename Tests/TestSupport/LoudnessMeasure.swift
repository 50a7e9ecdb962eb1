public import Foundation

/// What ffmpeg's EBU R128 meter (`-af ebur128=peak=true`) says of a file: the reference the
/// player's measure and output are checked against.
public struct LoudnessMeasure: Sendable {
    public let integratedLUFS: Double
    public let truePeakDBTP: Double

    /// Runs ffmpeg on `file` and reads the summary it prints at the end ("I: -20.6 LUFS", and
    /// under "True peak:" "Peak: -2.2 dBFS").
    public static func ffmpeg(_ file: URL) throws -> LoudnessMeasure {
        let result = try Command.run("ffmpeg", ["-nostats", "-hide_banner", "-i", file.path,
                                                "-af", "ebur128=peak=true", "-f", "null", "-"], timeout: 600).requireSuccess()
        guard let summary = result.stderr.range(of: "Summary:").map({ result.stderr[$0.upperBound...] }) else {
            throw FixtureError.unreadableProbe(file, String(result.stderr.suffix(500)))
        }
        func value(after label: String, in text: Substring) -> Double? {
            guard let range = text.range(of: label) else { return nil }
            let rest = text[range.upperBound...].drop { $0 == " " }
            return Double(rest.prefix { !$0.isWhitespace })
        }
        guard let integrated = value(after: "I:", in: summary),
              let peakSection = summary.range(of: "True peak:").map({ summary[$0.upperBound...] }),
              let peak = value(after: "Peak:", in: peakSection) else {
            throw FixtureError.unreadableProbe(file, String(summary))
        }
        return LoudnessMeasure(integratedLUFS: integrated, truePeakDBTP: peak)
    }
}

extension Fixtures {
    /// A narration by espeak-ng (a real voice, not a tone: the loudness meter's gate and
    /// weighting see speech) as 44.1 kHz stereo FLAC, `gainDB` louder or quieter than espeak
    /// speaks (`normalizedPeak`: first brought to a peak of -0.1 dBFS). Made in `folder` as `name`.
    public static func narration(_ name: String, in folder: URL, gainDB: Double, normalizedPeak: Bool = false,
                                 text: String = narrationText) throws -> URL {
        let voice = folder.appending(path: "\(name).voice.wav")
        let wav = folder.appending(path: "\(name).wav")
        let flac = folder.appending(path: name)
        _ = try Command.run("espeak-ng", ["-w", voice.path, text]).requireSuccess()
        let level = normalizedPeak ? ["gain", "-n", "-0.1", "vol", "\(gainDB)dB"] : ["vol", "\(gainDB)dB"]
        _ = try Command.run("sox", [voice.path, "-r", "44100", "-c", "2", "-b", "16", wav.path] + level).requireSuccess()
        _ = try Command.run("flac", ["-s", "-f", "-o", flac.path, wav.path]).requireSuccess()
        try FileManager.default.removeItem(at: voice)
        return flac
    }

    public static let narrationText = """
        It was a bright cold day in April, and the clocks were striking thirteen. The hallway smelt \
        of boiled cabbage and old rag mats. At one end of it a coloured poster, too large for indoor \
        display, had been tacked to the wall. Outside, even through the shut window pane, the world \
        looked cold. Down in the street little eddies of wind were whirling dust and torn paper into spirals.
        """
}
