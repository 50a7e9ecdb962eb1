import CEbur128
import Foundation
public import Library
import LazyLibraries
public import PlayerCore

/// Measures a book's loudness as EBU R128 defines it (integrated loudness over all its items as
/// one programme, and the true peak) with libebur128, decoding its files with the decoders of the
/// program like `DecoderInspector` does. Slow work (a whole book is decoded): callers run it off
/// the audio and user-interface paths (a detached task, or a command that waits for it).
public struct LoudnessMeter: Sendable {
    public let decoders: any DecoderOpener
    /// Measure the true peak (4x oversampled by libebur128) rather than the sample peak. It costs
    /// 2.5 times as much (a 10-hour MP3 book: 250x real time against 635x, on one core, as
    /// ffmpeg's ebur128 filter: scripts/bench-loudness.sh); the player's limiter keeps the
    /// ceiling whatever is stored, so the figure only informs, and `--sample-peak` skips it.
    public var truePeak: Bool

    public init(decoders: any DecoderOpener, truePeak: Bool = true) {
        self.decoders = decoders
        self.truePeak = truePeak
    }

    /// The loudness of `paths` played one after the other. Throws `LoudnessFailure` naming the
    /// file that could not be decoded, or libebur128 missing.
    public func measure(paths: [String]) throws(LoudnessFailure) -> LoudnessReading {
        guard abp_ebur128_load() else {
            throw LoudnessFailure("libebur128 is not available (\(String(cString: abp_ebur128_load_error()))): install libebur128-1")
        }
        // One state per stream format: items of one format add to one programme; states of
        // several formats are combined by libebur128 into one integrated figure.
        var states: [AudioFormat: UnsafeMutablePointer<ebur128_state>] = [:]
        defer {
            for state in states.values {
                var pointer: UnsafeMutablePointer<ebur128_state>? = state
                ebur128_destroy(&pointer)
            }
        }
        let mode = Int32(EBUR128_MODE_I.rawValue) | Int32((truePeak ? EBUR128_MODE_TRUE_PEAK : EBUR128_MODE_SAMPLE_PEAK).rawValue)
        for path in paths {
            let decoder: any Decoder
            do {
                decoder = try decoders.openDecoder(path: path)
            } catch {
                throw Self.failure(error, path: path)
            }
            let format = decoder.info.format
            let state: UnsafeMutablePointer<ebur128_state>
            if let existing = states[format] {
                state = existing
            } else {
                guard let made = ebur128_init(UInt32(format.channels), UInt(format.rate), mode) else {
                    throw LoudnessFailure("\(path): libebur128 cannot measure \(format.channels) channels at \(format.rate) Hz")
                }
                states[format] = made
                state = made
            }
            try feed(decoder, to: state, path: path)
        }
        return reading(of: Array(states.values))
    }

    /// Decodes `decoder` to its end into `state`.
    private func feed(_ decoder: any Decoder, to state: UnsafeMutablePointer<ebur128_state>, path: String) throws(LoudnessFailure) {
        let channels = decoder.info.format.channels
        // Large reads: libebur128's per-call overhead and the decoders' both shrink with them.
        let chunk = 32768
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        while true {
            let frames: Int
            do {
                frames = try decoder.read(into: buffer, maxFrames: chunk)
            } catch {
                throw Self.failure(error, path: path)
            }
            if frames == 0 { return }
            guard ebur128_add_frames_float(state, buffer, frames) == Int32(EBUR128_SUCCESS.rawValue) else {
                throw LoudnessFailure("\(path): libebur128 refused the audio")
            }
        }
    }

    /// A decoder's error names the file itself; anything else is given its name.
    private static func failure(_ error: any Error, path: String) -> LoudnessFailure {
        let text = "\(error)"
        return LoudnessFailure(text.contains(path) ? text : "\(path): \(text)", file: path)
    }

    private func reading(of states: [UnsafeMutablePointer<ebur128_state>]) -> LoudnessReading {
        var pointers: [UnsafeMutablePointer<ebur128_state>?] = states
        var integrated = -Double.infinity
        _ = pointers.withUnsafeMutableBufferPointer { ebur128_loudness_global_multiple($0.baseAddress, $0.count, &integrated) }
        var peak = 0.0
        for state in states {
            for channel in 0..<state.pointee.channels {
                var value = 0.0
                let status = truePeak ? ebur128_true_peak(state, channel, &value) : ebur128_sample_peak(state, channel, &value)
                if status == Int32(EBUR128_SUCCESS.rawValue) { peak = max(peak, value) }
            }
        }
        // Silence has no loudness (libebur128 says -inf): nil, and no gain is applied to it.
        return LoudnessReading(integratedLUFS: integrated.isFinite ? integrated : nil,
                               peakDBTP: peak > 0 ? 20 * log10(peak) : nil, isTruePeak: truePeak)
    }
}
