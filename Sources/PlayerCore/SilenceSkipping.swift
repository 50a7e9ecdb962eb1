/// Skip silence: stretches quieter than a threshold and at least `minimumSeconds` long are
/// shortened to a pause of `keptSeconds` (their first and last halves, crossfaded where the
/// middle was cut). The threshold is `belowSpeechDecibels` under the book's level: its
/// integrated loudness when known (`PlaybackEngine.setReferenceLoudness`), else the level of
/// the narration heard so far (`SpeechLevel`), and never under `floorDecibels`.
public struct SilenceSkipping: Sendable, Hashable {
    /// The shortest stretch shortened, in seconds.
    public let minimumSeconds: Double

    public static let defaultMinimumSeconds = 0.6
    /// The minimums accepted: above the pause kept (plus the crossfade), up to a minute.
    public static let minimumRange = 0.3...60.0
    /// What is left of a shortened silence: a short pause, so sentences do not run together.
    public static let keptSeconds = 0.25
    /// The crossfade where the middle of a silence is cut out, so nothing clicks.
    public static let crossfadeSeconds = 0.004
    public static let belowSpeechDecibels = 32.0
    public static let floorDecibels = -70.0

    /// `minimumSeconds` clamped to `minimumRange`.
    public init(minimumSeconds: Double = SilenceSkipping.defaultMinimumSeconds) {
        self.minimumSeconds = min(max(minimumSeconds, Self.minimumRange.lowerBound), Self.minimumRange.upperBound)
    }

    /// The threshold in dBFS (sample peak) for a book whose level is `decibels` (RMS, or LUFS).
    static func threshold(forLevel decibels: Double) -> Double {
        max(floorDecibels, decibels - belowSpeechDecibels)
    }
}
