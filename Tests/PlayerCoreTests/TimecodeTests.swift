import PlayerCore
import Testing

@Suite struct TimecodeTests {
    @Test(arguments: [
        ("90", 90.0), ("1:30", 90.0), ("1:02:03", 3723.0), ("1:02:03.250", 3723.25), ("0.5", 0.5), ("19:00:00", 68400.0),
        ("90:00", 5400.0), (".5", 0.5), ("0", 0.0),
        ("90s", 90.0), ("30m", 1800.0), ("1h", 3600.0), ("1h30m", 5400.0), ("2h5s", 7205.0), ("1h2m3s", 3723.0),
        ("1.5m", 90.0), ("0.5h", 1800.0), ("2.5s", 2.5),
    ])
    func parsesWhatPeopleType(text: String, seconds: Double) throws {
        #expect(Timecode.seconds(from: text) == seconds)
        #expect(try Timecode.seconds(text) == seconds)
    }

    @Test(arguments: ["", "-5", "+5", "1:60", "1:02:60", "a", "1::2", ":30", "1:", "1:2:3:4", "1.5:00", "nan", "inf", "1e3",
                      "0x10", "5.", "1..2", "m", "5x", "30m1h", "1m1m", "5m3", "1h 30m", "1H", "1:30m", "30 m", "1ms"])
    func rejectsWhatIsNotATime(text: String) {
        #expect(Timecode.seconds(from: text) == nil)
        #expect(throws: RefusedValue("'\(text)' is not a time: use 90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m (0 or more)")) {
            try Timecode.seconds(text)
        }
    }

    @Test func aTimeOutOfItsRangeIsRefusedNamingTheValueTheFormsAndTheRange() {
        #expect(throws: RefusedValue("'25h' is out of range: use a time from 1s to 24h (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m)")) {
            try Timecode.seconds("25h", in: 1...86400)
        }
        #expect(throws: RefusedValue("'0.5' is out of range: use a time from 1s to 1h30m (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m)")) {
            try Timecode.seconds("0.5", in: 1...5400)
        }
        #expect(throws: RefusedValue("'soon' is not a time: use 90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m (from 1s to 10m)")) {
            try Timecode.seconds("soon", in: 1...600)
        }
        #expect((try? Timecode.seconds("24h", in: 1...86400)) == 86400)
    }

    @Test func compactTimesParseBack() {
        for seconds in [0.0, 0.5, 1, 59, 60, 90, 3600, 5400, 3723.25, 86400] {
            let text = Timecode.compact(seconds: seconds)
            #expect(Timecode.seconds(from: text) == seconds, "\(seconds) -> \(text)")
        }
        #expect(Timecode.compact(seconds: 86400) == "24h")
        #expect(Timecode.compact(seconds: 5400) == "1h30m")
        #expect(Timecode.compact(seconds: 0.5) == "0.5s")
    }

    @Test func formatsWithoutNaN() {
        #expect(Timecode.format(seconds: 3723.9) == "1:02:03")
        #expect(Timecode.format(seconds: 62) == "1:02")
        #expect(Timecode.format(seconds: nil) == "--:--")
        #expect(Timecode.format(seconds: .nan) == "--:--")
        #expect(Timecode.format(seconds: .infinity) == "--:--")
    }

    /// A time from outside (a sync journal's `sleep=1e308`, a length stored in a library, a
    /// typed `99999999999999999999`) is shown, absurd but whole, instead of stopping the player.
    @Test func anyFiniteTimeIsShownWithoutATrap() {
        #expect(Timecode.format(seconds: 1e308) == "\(Int.max / 3600):\(Int.max / 60 % 60):0\(Int.max % 60)")
        #expect(Timecode.compact(seconds: 1e308).hasPrefix("\(Int.max)h"))
        #expect(AudioFormat(rate: 44100, channels: 2).frames(inSeconds: 1e300) == .max)
        #expect(AudioFormat(rate: 44100, channels: 2).frames(inSeconds: -1e300) == .min)
        #expect(Int(saturating: .nan) == 0 && Int(saturating: -.infinity) == .min && Int64(saturating: 2.5) == 2)
    }

    @Test func framesRoundToTheNearest() {
        let format = AudioFormat(rate: 44100, channels: 2)
        #expect(format.frames(inSeconds: 1.5) == 66150)
        #expect(format.frames(inSeconds: 68400) == 3_016_440_000)
    }
}
