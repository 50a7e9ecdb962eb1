import Console
import Library
import Player
import Testing

/// `silence skip ...` and `set silence ...` as typed: the forms taken, and the refusals.
@Suite struct SkipSilenceCommandTests {
    @Test func theBooksSettingIsOnOffAMinimumInMillisecondsOrTheDefault() throws {
        #expect(try parse("silence") == .skipSilence(nil))
        #expect(try parse("silence skip on") == .skipSilence(.on(minimumMs: 600)))
        #expect(try parse("silence skip off") == .skipSilence(.off))
        #expect(try parse("silence skip 800") == .skipSilence(.on(minimumMs: 800)))
        #expect(try parse("silence skip 1500ms") == .skipSilence(.on(minimumMs: 1500)))
        #expect(try parse("silence skip default") == .useDefault(.silence))
        #expect(try failure("silence skip 100") == "silence skip: '100' is out of range: \(SkipSilenceText.forms)")
        #expect(try failure("silence skip loud") == "silence skip: 'loud' is not a skip silence setting: \(SkipSilenceText.forms)")
        #expect(try failure("silence on") == "usage: silence [skip on | off | MS | default]")
    }

    @Test func theDefaultIsSetInSecondsWithZeroForOff() throws {
        #expect(try parse("set silence on") == .defaults(.set(.silence, 0.6)))
        #expect(try parse("set silence 900") == .defaults(.set(.silence, 0.9)))
        #expect(try parse("set silence off") == .defaults(.set(.silence, 0)))
        #expect(try parse("unset silence") == .defaults(.set(.silence, nil)))
        #expect(try failure("set silence 70000").hasPrefix("set silence: '70000' is out of range"))
    }
}
