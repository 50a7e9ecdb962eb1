@testable import PlayerCore
import Testing

@Suite struct ItemOrderTests {
    func sequence(_ order: ItemOrder, from start: Int, count: Int, steps: Int) -> [Int?] {
        var played: Set<Int> = [start]
        var random = SystemRandomNumberGenerator()
        var current: Int? = start
        var heard: [Int?] = []
        for _ in 0..<steps {
            guard let now = current else { break }
            current = order.next(after: now, count: count, played: &played, using: &random)
            heard.append(current)
        }
        return heard
    }

    @Test func inOrderRepeatItemAndRepeatList() {
        #expect(sequence(.inOrder, from: 1, count: 3, steps: 3) == [2, nil])
        #expect(sequence(.repeatItem, from: 1, count: 3, steps: 3) == [1, 1, 1])
        #expect(sequence(.repeatList, from: 1, count: 3, steps: 4) == [2, 0, 1, 2])
    }

    @Test func shufflePlaysEachItemOncePerPass() {
        // Given 8 items, starting at item 3
        for _ in 0..<20 {
            let heard = sequence(.shuffled(repeating: false), from: 3, count: 8, steps: 8)
            // Then the 7 others come once each, then the end
            #expect(heard.last! == nil)
            #expect(Set(heard.compactMap { $0 } + [3]).count == 8)
            #expect(heard.compactMap { $0 }.count == 7)
        }
        // With repeat, each pass of 8 holds every item once, and a new pass never starts with
        // the item just heard
        let passes = sequence(.shuffled(repeating: true), from: 0, count: 8, steps: 23).map { $0! }
        let all = [0] + passes
        for pass in 0..<3 { #expect(Set(all[(pass * 8)..<(pass * 8 + 8)]).count == 8) }
        #expect(all[8] != all[7] && all[16] != all[15])
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
