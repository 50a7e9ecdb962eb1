import MP4

/// What an MP4 file says its audio lasts against what its samples play: a file whose tables
/// end early (a fragment that cannot be read, a sample table cut short) still plays what they
/// describe, and the user is told in one line how much of what the file declares that is, and why.
struct DeclaredLength {
    /// The length the file states, in output frames from the start of the gapless window; nil
    /// when it states none.
    let frames: Int64?

    /// From the edit list when it has a length (what presentation was meant to be), else
    /// iTunSMPB's, else the media length of the headers (mdhd, mehd) less the priming skipped.
    init(movie: MP4Movie, window: GaplessWindow, rate: Int64) {
        let audio = movie.audio
        if let duration = audio.declaredEdit?.duration {
            frames = duration * rate / audio.timescale
        } else if let gapless = movie.iTunesGapless {
            frames = gapless.sampleCount
        } else if let media = audio.declaredMediaDuration {
            frames = media * rate / audio.timescale - window.start
        } else {
            frames = nil
        }
    }

    /// The line to show when the window plays less than declared by more than `tolerance` frames
    /// (a packet: edit lengths are rounded to the movie's ticks) or when the tables are known to
    /// end early; nil when the file plays what it says.
    func shortfall(playing window: GaplessWindow, rate: Int64, tolerance: Int64, because reason: String?) -> String? {
        let plays = Self.seconds(window.frames, rate: rate)
        if let frames, frames - window.frames > tolerance {
            return "plays \(plays) s of the \(Self.seconds(frames, rate: rate)) s it declares: \(reason ?? "its sample tables end there")"
        }
        return reason.map { "plays \(plays) s: \($0)" }
    }

    /// Seconds with two decimals (the ABI's frames are the truth; this is for a person).
    static func seconds(_ frames: Int64, rate: Int64) -> String {
        let hundredths = (frames * 100 + rate / 2) / rate
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
