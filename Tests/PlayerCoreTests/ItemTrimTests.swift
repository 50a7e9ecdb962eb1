@testable import PlayerCore
import Testing

/// Which frames of an item intro and outro skipping keeps, and where a jump lands.
@Suite struct ItemTrimTests {
    @Test func theAudiblePartIsBetweenTheIntroAndTheOutroAndAJumpLandsInIt() {
        // Given a 10 s item at 1 kHz, 2 s of intro and 1 s of outro left out
        let range = ItemTrim(introSeconds: 2, outroSeconds: 1).audibleRange(totalFrames: 10_000, rate: 1000)
        #expect(range == AudibleRange(start: 2000, end: 9000))
        // Then a jump into the intro lands at its end, inside stays, into the outro has no place here
        #expect(range.landing(500) == 2000)
        #expect(range.landing(4321) == 4321)
        #expect(range.landing(9000) == nil && range.landing(9999) == nil)
    }

    @Test func anItemTooShortOrOfUnknownLengthIsHandledWithoutLosingIt() {
        let trim = ItemTrim(introSeconds: 30, outroSeconds: 45)
        // An item shorter than both plays whole; one of unknown length loses only its intro
        #expect(trim.audibleRange(totalFrames: 60_000, rate: 1000) == AudibleRange(start: 0, end: 60_000))
        #expect(trim.audibleRange(totalFrames: nil, rate: 1000) == AudibleRange(start: 30_000, end: nil))
        // and lengths that are not numbers or negative count as none
        #expect(ItemTrim(introSeconds: -.infinity, outroSeconds: .nan) == .none)
    }
}
