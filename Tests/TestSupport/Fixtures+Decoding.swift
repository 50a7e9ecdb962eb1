public import Foundation

/// Interleaved float samples and their format, as decoded by ffmpeg.
public typealias DecodedAudio = (rate: Int, channels: Int, samples: [Float])

extension Fixtures {
    /// Decodes the first audio stream of `file` with ffmpeg to interleaved 32-bit floats, down- or
    /// up-mixed to `channels` if given. The reference decoder to compare the player against.
    ///
    /// What ffmpeg trims matters when aligning: it honours an MP3's LAME tag (encoder delay and
    /// padding) and an Opus pre-skip, so those decode to the source's exact length; an MP3 without
    /// a LAME tag keeps the delay. Opus always comes out at 48 kHz.
    public static func ffmpegDecode(_ file: URL, channels: Int? = nil) throws -> DecodedAudio {
        let probe = try Command.run("ffprobe", [
            "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=sample_rate,channels",
            "-of", "default=noprint_wrappers=1", file.path,
        ]).requireSuccess()
        // key=value lines rather than csv: csv's column order is ffprobe's, not the order asked for.
        var fields: [String: Int] = [:]
        for line in probe.stdoutString.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        guard let rate = fields["sample_rate"], let sourceChannels = fields["channels"] else {
            throw FixtureError.unreadableProbe(file, probe.stdoutString)
        }

        var arguments = ["-v", "error", "-i", file.path, "-map", "0:a:0", "-f", "f32le"]
        if let channels { arguments += ["-ac", String(channels)] }
        let decoded = try Command.run("ffmpeg", arguments + ["-"]).requireSuccess().stdout
        // f32le is the byte order of every platform Swift runs on here (x86_64, arm64).
        let samples = [Float](unsafeUninitializedCapacity: decoded.count / 4) { buffer, count in
            count = decoded.copyBytes(to: buffer) / 4
        }
        return (rate, channels ?? sourceChannels, samples)
    }
}
