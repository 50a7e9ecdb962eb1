/// The shape of interleaved float32 audio: how many frames a second, how many channels a frame.
public struct AudioFormat: Sendable, Hashable, CustomStringConvertible {
    public let rate: Int
    public let channels: Int

    public init(rate: Int, channels: Int) {
        self.rate = rate
        self.channels = channels
    }

    public var description: String {
        let layout = switch channels {
        case 1: "mono"
        case 2: "stereo"
        default: "\(channels) channels"
        }
        return "\(rate) Hz \(layout) float32"
    }

    /// Whole frames in `seconds`, rounded to the nearest frame.
    public func frames(inSeconds seconds: Double) -> Int64 { Int64(saturating: (seconds * Double(rate)).rounded()) }

    public func seconds(inFrames frames: Int64) -> Double { Double(frames) / Double(rate) }
}
