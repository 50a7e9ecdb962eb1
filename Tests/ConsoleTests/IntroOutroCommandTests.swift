import Console
import Library
import Player
import Testing

/// `intro ...`, `outro ...` and `set intro|outro ...` as typed: the forms taken, and the refusals.
@Suite struct IntroOutroCommandTests {
    @Test func theBooksSettingIsATimeOffOrTheDefault() throws {
        #expect(try parse("intro") == .skipIntro(nil))
        #expect(try parse("outro") == .skipOutro(nil))
        #expect(try parse("intro 30s") == .skipIntro(30))
        #expect(try parse("intro 30") == .skipIntro(30))
        #expect(try parse("outro 1:15") == .skipOutro(75))
        #expect(try parse("outro off") == .skipOutro(0))
        #expect(try parse("intro default") == .useDefault(.intro))
        #expect(try parse("outro default") == .useDefault(.outro))
        #expect(try failure("intro 11m").hasPrefix("intro: '11m' is out of range: use a time from 0 to 10m"))
        #expect(try failure("outro soon").hasPrefix("outro: 'soon' is not a time"))
        #expect(try failure("intro 30 s") == "usage: intro [T | off | default]")
    }

    @Test func theDefaultsAreSetInSecondsWithZeroForOff() throws {
        #expect(try parse("set intro 30s") == .defaults(.set(.intro, 30)))
        #expect(try parse("set outro 45") == .defaults(.set(.outro, 45)))
        #expect(try parse("set intro off") == .defaults(.set(.intro, 0)))
        #expect(try parse("set outro default") == .defaults(.set(.outro, nil)))
        #expect(try parse("unset intro") == .defaults(.set(.intro, nil)))
        #expect(try failure("set outro 1h").hasPrefix("set outro: '1h' is out of range"))
        #expect(try failure("set outro 1h").hasSuffix(", off or default"))
    }
}
