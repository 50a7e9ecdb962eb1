import Foundation

/// How far to go back when playback resumes after a pause (BookPlayer's "smart rewind" is the
/// model): nothing after a pause under 10 seconds, then linear in the logarithm of the pause,
/// reaching the most at an hour and staying there. With the most at 30 s: 12 s paused -> 0.9 s,
/// 1 min -> 9 s, 10 min -> 20 s, 1 h or more -> 30 s.
enum AutoRewind {
    static let shortestPause = 10.0
    static let fullPause = 3600.0
    static let defaultMaxSeconds = 30.0

    /// Less than this is not heard as going back, only said ("rewound 0.0 s" after a pause of 10.1 s).
    static let shortestRewind = 0.1

    static func seconds(pausedFor pause: Double, maxSeconds: Double) -> Double {
        guard pause > shortestPause else { return 0 }
        let seconds = min(maxSeconds, maxSeconds * log(pause / shortestPause) / log(fullPause / shortestPause))
        return seconds < shortestRewind ? 0 : seconds
    }
}
