import Foundation
import PlayerCore
@testable import PluginHost
import TestSupport

/// What a decoder did with a file it should not play whole: refused it at open, or played some
/// of it and ended (at its end or with an error). Every reason is the plugin's own.
struct BadInputOutcome: Sendable {
    var refusal: String?
    var channels = 0
    /// The length it reported at open.
    var reportedFrames: Int64?
    var samples: [Float] = []
    var readError: String?
    /// The decoder was still producing audio past the limit: it would never end.
    var overran = false
    /// Warnings and errors it logged meanwhile.
    var logged: [String] = []

    var frames: Int { channels == 0 ? 0 : samples.count / channels }
    /// Everything the user would be told about this file.
    var messages: [String] { [refusal, readError].compactMap { $0 } + logged }

    /// Why a reason is not one clear line, or nil when it is: not empty, not the host's stand-in
    /// for a plugin that gave none, one line, and without the file name (plugin.h: the host adds it).
    static func problem(with reason: String, file: URL) -> String? {
        if reason.isEmpty || reason.hasPrefix("failed (") { return "no reason given: '\(reason)'" }
        if reason.contains("\n") { return "more than one line: '\(reason)'" }
        if reason.contains(file.path) { return "names the file itself: '\(reason)'" }
        return nil
    }
}

extension ContractHarness {
    /// Opens `file`, reads it to its end (at most `limit` frames) and, when `seeking` and it
    /// played to its end, seeks to its middle and reads again; on a thread of its own, nil when
    /// that took more than `seconds` (a hang).
    func attempt(_ file: URL, limit: Int, seeking: Bool = false, within seconds: Double = 60) -> BadInputOutcome? {
        _ = logged.take()
        return onAThread(within: seconds) { [self] in
            var outcome = BadInputOutcome()
            do {
                let decoder = try open(file)
                outcome.channels = decoder.info.format.channels
                outcome.reportedFrames = decoder.info.totalFrames
                let (samples, error) = Self.readToEnd(decoder, limit: limit)
                outcome.samples = samples
                outcome.overran = samples.count / outcome.channels > limit
                outcome.readError = error.map(Self.reason)
                if seeking, error == nil, decoder.info.isSeekable, let total = decoder.info.totalFrames, total > 0 {
                    do {
                        try decoder.seek(to: total / 2)
                        _ = try Self.read(decoder, frames: 4096)
                    } catch {
                        outcome.readError = Self.reason(error)
                    }
                }
            } catch {
                outcome.refusal = Self.reason(error)
            }
            outcome.logged = logged.take()
            return outcome
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as? AudioError)?.reason ?? String(describing: error)
    }
}

/// The mutations of scripts/fuzz-mutate.c (`make fuzz`), in Swift: the same NUMBER gives the same
/// file, so a case that fails here can be made again with the C tool and run through the binary.
/// Flipped bits, "interesting" bytes and 32-bit values, a duplicated or removed chunk, a truncation.
struct FuzzMutation {
    private var state: UInt64

    private mutating func next() -> UInt32 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return UInt32(truncatingIfNeeded: (state &* 2_685_821_657_736_338_717) >> 32)
    }

    static func mutate(_ seed: [UInt8], number: UInt64) -> [UInt8] {
        var mutation = FuzzMutation(state: number &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        return mutation.apply(to: seed)
    }

    private mutating func apply(to seed: [UInt8]) -> [UInt8] {
        var data = seed
        let capacity = seed.count * 2 + 65536
        let mutations = 1 + Int(next() % 8)
        var m = 0
        while m < mutations && data.count > 8 {
            m += 1
            let at = Int(next() % UInt32(truncatingIfNeeded: data.count))
            switch next() % 7 {
            case 0: data[at] ^= UInt8(1) << (next() % 8)
            case 1: data[at] = [0, 0xFF, 0x7F, 0x80, 0x01, 0xFE][Int(next() % 6)]
            case 2:
                if at + 4 <= data.count {
                    let values: [UInt32] = [0, 0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, UInt32(truncatingIfNeeded: data.count), 1]
                    var value = values[Int(next() % 6)]
                    if next() % 2 != 0 { value = value.byteSwapped }
                    withUnsafeBytes(of: value) { data.replaceSubrange(at..<at + 4, with: $0) }
                }
            case 3: data[at] = UInt8(truncatingIfNeeded: next())
            case 4:
                let n = 1 + Int(next() % 512)
                if at + n <= data.count && data.count + n <= capacity { data.insert(contentsOf: data[at..<at + n], at: at) }
            case 5:
                let n = 1 + Int(next() % 512)
                if at + n <= data.count { data.removeSubrange(at..<at + n) }
            default:
                if next() % 4 == 0 { data.removeSubrange(at...) }
            }
        }
        return data
    }
}

/// Bytes of no format (the LCG the per-codec garbage tests used), the same every run.
func randomBytes(count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 1_103_515_245 &+ 12_345) >> 16) })
}
