public import Library
public import PlayerCore

/// Intro and outro skipping for the book loaded (`intro`, `outro`): what applies, whether it is
/// the book's own (else the listener's default, `set intro`), and the source time it left out
/// of the book so far.
public struct IntroOutro: Sendable, Equatable {
    public var introSeconds: Double
    public var outroSeconds: Double
    public var ownIntro: Bool
    public var ownOutro: Bool
    public var skippedSeconds: Double

    public init(introSeconds: Double, outroSeconds: Double, ownIntro: Bool, ownOutro: Bool, skippedSeconds: Double) {
        self.introSeconds = introSeconds
        self.outroSeconds = outroSeconds
        self.ownIntro = ownIntro
        self.ownOutro = ownOutro
        self.skippedSeconds = skippedSeconds
    }

    init(_ settings: BookSettings, skippedSeconds: Double) {
        self.init(introSeconds: settings.skipIntroSeconds, outroSeconds: settings.skipOutroSeconds,
                  ownIntro: settings.ownSkipIntroSeconds != nil, ownOutro: settings.ownSkipOutroSeconds != nil,
                  skippedSeconds: skippedSeconds)
    }

    /// "intro 30s (this book), outro off (default); 1m30s left out so far".
    public var text: String {
        func part(_ name: String, _ seconds: Double, own: Bool) -> String {
            "\(name) \(IntroOutroText.text(seconds)) (\(own ? "this book" : "default"))"
        }
        let skipped = skippedSeconds > 0 ? "; \(Timecode.compact(seconds: skippedSeconds.rounded())) left out so far" : ""
        return part("intro", introSeconds, own: ownIntro) + ", " + part("outro", outroSeconds, own: ownOutro) + skipped
    }
}

/// Intro and outro lengths as people type them, the same in the REPL (`intro 30s`, `set outro
/// 45s`) and in `book settings --skip-intro`: a time up to 10 minutes, 0 or off for none.
public enum IntroOutroText {
    /// The library's CHECK: 0 to 600 s.
    public static let range = SettingRanges.introOutroSeconds
    public static let forms = "use a time up to 10 minutes (30, 30s, 1:15) or off"

    public static func parse(_ text: String) throws(RefusedValue) -> Double {
        if text == "off" { return 0 }
        return try Timecode.seconds(text, in: range)
    }

    /// "30s", "1m15s", "off".
    public static func text(_ seconds: Double) -> String { seconds > 0 ? Timecode.compact(seconds: seconds) : "off" }

    /// The status's short field: "intro 30s, outro 45s", "outro 45s"; nil when neither is on.
    static func statusText(intro: Double, outro: Double) -> String? {
        let parts = [intro > 0 ? "intro \(text(intro))" : nil, outro > 0 ? "outro \(text(outro))" : nil].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}

extension BookSettings {
    /// What the engine leaves out of every item.
    var itemTrim: ItemTrim { ItemTrim(introSeconds: skipIntroSeconds, outroSeconds: skipOutroSeconds) }
}
