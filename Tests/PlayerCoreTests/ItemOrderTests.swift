@testable import PlayerCore
import Testing

@Suite struct ItemOrderTests {
    func heard(_ order: ItemOrder, from start: Int, count: Int, steps: Int) -> [Int?] {
        var current: Int? = start
        var heard: [Int?] = []
        for _ in 0..<steps {
            guard let now = current else { break }
            current = order.next(after: now, count: count)
            heard.append(current)
        }
        return heard
    }

    @Test func inOrderRepeatItemAndRepeatList() {
        #expect(heard(.inOrder, from: 1, count: 3, steps: 3) == [2, nil])
        #expect(heard(.repeatItem, from: 1, count: 3, steps: 3) == [1, 1, 1])
        #expect(heard(.repeatList, from: 1, count: 3, steps: 4) == [2, 0, 1, 2])
    }

    @Test func aSequenceIsFollowedThenEndsOrStartsAgain() {
        // Given a planned order of 4 items
        let plan = [2, 0, 3, 1]
        // Then from its second item it goes on in that order and ends after the last
        #expect(heard(.sequence(plan, repeating: false), from: 0, count: 4, steps: 4) == [3, 1, nil])
        // or, repeating, starts the plan again
        #expect(heard(.sequence(plan, repeating: true), from: 3, count: 4, steps: 5) == [1, 2, 0, 3, 1])
        // an item outside the plan is followed by its first
        #expect(ItemOrder.sequence([1, 0], repeating: false).next(after: 5, count: 6) == 1)
        // and previous walks it backwards, stopping at its start
        #expect(ItemOrder.sequence(plan, repeating: true).previous(before: 3, count: 4) == 0)
        #expect(ItemOrder.sequence(plan, repeating: true).previous(before: 2, count: 4) == nil)
        #expect(ItemOrder.inOrder.previous(before: 0, count: 4) == nil)
    }

    @Test func aLongRampFadesLinearlyToSilence() {
        // Given a steady mono signal at 0.5 through a stage at 100 %
        let stage = VolumeStage(gain: 1, channels: 1, rate: 1000)
        let input = [Float](repeating: 0.5, count: 1000)
        // When it ramps to 0 over 1000 frames
        stage.ramp(to: 0, overFrames: 1000)
        let out = input.withUnsafeBufferPointer { Array(UnsafeBufferPointer(start: stage.apply($0.baseAddress!, frames: 1000), count: 1000)) }
        // Then the level falls in a straight line to silence, and stays there
        #expect(abs(out[499] - 0.25) < 0.001)
        #expect(abs(out[999]) < 1e-4)
        #expect(zip(out, out.dropFirst()).allSatisfy { $0 >= $1 })
        // and lands on silence exactly, not past it
        let after = input.withUnsafeBufferPointer { Array(UnsafeBufferPointer(start: stage.apply($0.baseAddress!, frames: 10), count: 10)) }
        #expect(after.allSatisfy { $0 == 0 })
        // and reset brings the gain back at once
        stage.reset(to: 1)
        #expect(stage.isUnity)
    }
}
