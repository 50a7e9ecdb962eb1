import PlayerCore
import Testing

@Suite struct TimecodeTests {
    @Test(arguments: [
        ("90", 90.0), ("1:30", 90.0), ("1:02:03", 3723.0), ("1:02:03.250", 3723.25), ("0.5", 0.5), ("19:00:00", 68400.0),
    ])
    func parsesWhatPeopleType(text: String, seconds: Double) {
        #expect(Timecode.seconds(from: text) == seconds)
    }

    @Test(arguments: ["", "-5", "1:60", "a", "1::2", "1:2:3:4", "1.5:00", "nan", "inf"])
    func rejectsWhatIsNotATime(text: String) {
        #expect(Timecode.seconds(from: text) == nil)
    }

    @Test func formatsWithoutNaN() {
        #expect(Timecode.format(seconds: 3723.9) == "1:02:03")
        #expect(Timecode.format(seconds: 62) == "1:02")
        #expect(Timecode.format(seconds: nil) == "--:--")
        #expect(Timecode.format(seconds: .nan) == "--:--")
        #expect(Timecode.format(seconds: .infinity) == "--:--")
    }

    @Test func framesRoundToTheNearest() {
        let format = AudioFormat(rate: 44100, channels: 2)
        #expect(format.frames(inSeconds: 1.5) == 66150)
        #expect(format.frames(inSeconds: 68400) == 3_016_440_000)
    }
}
