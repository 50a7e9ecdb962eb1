import Listening

/// What the player does for the listener beyond playing the book, as it stands in a session:
/// what skip silence saved (for the time left as heard), auto-rewind, and the loudness evening.
struct ListeningAids {
    /// What skip silence saved since the book was loaded, for the time left as heard.
    var silence = SilenceSavings()
    var rewind: RewindState
    /// Whether the book is evened out, and at what gain (`BookLoudness`).
    var loudness = LoudnessState.off
}
