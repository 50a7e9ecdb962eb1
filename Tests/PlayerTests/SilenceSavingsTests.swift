@testable import Player
import Testing

/// The estimate of the time left as heard with skip silence on.
@Suite struct SilenceSavingsTests {
    @Test func theFractionCutSoFarIsTakenOffTheTimeLeftOnceEnoughWasHeard() {
        // Given 20 s of source played through, 5 s of it cut
        var savings = SilenceSavings()
        savings.advanced(frames: 20 * 44100, rate: 44100)
        savings.skipped(frames: 5 * 22050, rate: 22050)
        // Then too little was heard to estimate: the time left is the source's at the speed
        #expect(savings.skippedFraction == nil)
        #expect(savings.heardSeconds(ofSourceSeconds: 100, speed: 2, skipping: true) == 50)
        // When 20 s more played through with nothing cut, and a seek of 10 min (not played through)
        savings.advanced(frames: 20 * 44100, rate: 44100)
        savings.advanced(frames: 600 * 44100, rate: 44100)
        // Then an eighth was cut, and is expected to be of what is left, unless skipping is off
        #expect(savings.skippedFraction == 0.125)
        #expect(savings.heardSeconds(ofSourceSeconds: 100, speed: 2, skipping: true) == 43.75)
        #expect(savings.heardSeconds(ofSourceSeconds: 100, speed: 2, skipping: false) == 50)
    }
}
