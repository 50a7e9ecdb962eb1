import Foundation

/// What a recording of the time-coded signal says was played, in order: runs of the same second
/// (or of silence) with their lengths. Recordings start anywhere, so the track is read with short
/// sliding windows rather than at second boundaries.
public struct SecondTrack: Sendable, CustomStringConvertible {
    public enum Label: Sendable, Equatable {
        case second(Int)
        case silence
    }

    public struct Run: Sendable, Equatable {
        public let label: Label
        /// Where the run starts in the recording, and how long it is, in seconds.
        public let start: Double
        public var duration: Double
    }

    public let runs: [Run]
    static let window = 0.1
    static let hop = 0.05

    /// A track of runs already found (a check that set some aside).
    public init(runs: [Run]) { self.runs = runs }

    public init(_ samples: [Float], channels: Int, rate: Int, channel: Int = 0) {
        let frames = samples.count / channels
        let windowFrames = Int(Double(rate) * Self.window)
        let hopFrames = Int(Double(rate) * Self.hop)
        var runs: [Run] = []
        var start = 0
        while start + windowFrames <= frames {
            let rms = AudioAnalysis.rms(samples, channels: channels, channel: channel, from: start, count: windowFrames)
            var label: Label?
            if rms < 0.01 {
                label = .silence
            } else {
                let frequency = AudioAnalysis.dominantFrequency(samples, channels: channels, channel: channel, rate: rate,
                                                                from: start, count: windowFrames)
                label = TimeCodedSignal.second(forFrequency: frequency).map(Label.second)
            }
            let time = Double(start) / Double(rate)
            // Windows across a boundary match neither second: they are left out.
            if let label {
                if let last = runs.last, last.label == label {
                    runs[runs.count - 1].duration = time + Self.hop - last.start
                } else {
                    runs.append(Run(label: label, start: time, duration: Self.hop))
                }
            }
            start += hopFrames
        }
        self.runs = runs
    }

    /// The seconds heard, in order, each once per run.
    public var seconds: [Int] {
        runs.compactMap { if case let .second(second) = $0.label { second } else { nil } }
    }

    /// The seconds heard, in order, a second that goes on after a moment of silence (an output
    /// starved for an instant on a loaded machine) counted once.
    public var distinctSeconds: [Int] {
        seconds.reduce(into: []) { result, second in if result.last != second { result.append(second) } }
    }

    /// The silent runs longer than `minimum` seconds, between sounds (not at the ends).
    public func gaps(longerThan minimum: Double) -> [Run] {
        guard let first = runs.firstIndex(where: { $0.label != .silence }),
              let last = runs.lastIndex(where: { $0.label != .silence }), first < last else { return [] }
        return runs[first...last].filter { $0.label == .silence && $0.duration > minimum }
    }

    /// Seconds of audio carrying `second`, over all its runs.
    public func duration(of second: Int) -> Double {
        runs.filter { $0.label == .second(second) }.map(\.duration).reduce(0, +)
    }

    public var description: String {
        runs.map { run in
            let name = switch run.label {
            case let .second(second): "\(second)"
            case .silence: "_"
            }
            return "\(name)@\(String(format: "%.2f", run.start))+\(String(format: "%.2f", run.duration))"
        }.joined(separator: " ")
    }
}
