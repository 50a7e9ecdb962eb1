import Foundation
import PlayerCore
import Synchronization
import Testing
import TestSupport

@Suite struct RingBufferTests {
    @Test func framesComeOutInOrderAcrossTheWrapPoint() {
        // Given a stereo ring of 10 frames
        let ring = RingBuffer(channels: 2, capacityFrames: 10)
        var next: Float = 0
        var expected: Float = 0
        var output = [Float](repeating: -1, count: 14)
        // When frames are written and read in uneven chunks many times round
        for round in 0..<50 {
            let count = round % 7 + 1
            let input = (0..<count * 2).map { _ -> Float in defer { next += 1 }; return next }
            let written = input.withUnsafeBufferPointer { ring.write(from: $0.baseAddress!, frames: count) }
            next -= Float((count - written) * 2)
            let read = output.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: round % 5 + 1) }
            // Then every sample arrives once, in order
            for sample in output[0..<read * 2] {
                #expect(sample == expected)
                expected += 1
            }
        }
        #expect(ring.framesWritten - ring.framesRead == ring.availableFrames)
        #expect(ring.framesRead == Int(expected) / 2)
    }

    @Test func writeNeverOverwritesUnreadFrames() {
        let ring = RingBuffer(channels: 1, capacityFrames: 8)
        let input = [Float](repeating: 1, count: 20)
        let written = input.withUnsafeBufferPointer { ring.write(from: $0.baseAddress!, frames: 20) }
        #expect(written == 8)
        #expect(ring.freeFrames == 0)
        #expect(input.withUnsafeBufferPointer { ring.write(from: $0.baseAddress!, frames: 1) } == 0)
    }

    @Test func discardingUnreadKeepsTheClockMonotonic() {
        let ring = RingBuffer(channels: 1, capacityFrames: 8)
        let input = [Float](repeating: 1, count: 5)
        input.withUnsafeBufferPointer { _ = ring.write(from: $0.baseAddress!, frames: 5) }
        ring.discardUnread()
        #expect(ring.availableFrames == 0)
        #expect(ring.framesRead == 5)
    }

    @Test func aConsumerOnAnotherThreadSeesEveryFrame() async throws {
        // Given a producer and a consumer on two threads of their own, as the decoder and a sink
        // are (not tasks: a producer spinning on the cooperative pool while its consumer waits
        // for a pool thread, the other one held by a blocking test, never ends)
        let ring = RingBuffer(channels: 1, capacityFrames: 64)
        let total = 200_000
        let consumer = try await offThePool {
            let mismatches = Mismatches()
            let consumed = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                var buffer = [Float](repeating: 0, count: 37)
                var expected: Float = 0
                var count = 0
                while Int(expected) < total {
                    let read = buffer.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: 37) }
                    for sample in buffer[0..<read] {
                        if sample != expected.truncatingRemainder(dividingBy: 4096) { count += 1 }
                        expected += 1
                    }
                    if read == 0 { usleep(100) }
                }
                mismatches.count.withLock { $0 = count }
                consumed.signal()
            }
            var produced = 0
            var chunk = [Float](repeating: 0, count: 50)
            while produced < total {
                let count = min(50, total - produced)
                for index in 0..<count { chunk[index] = Float((produced + index) % 4096) }
                let written = chunk.withUnsafeBufferPointer { ring.write(from: $0.baseAddress!, frames: count) }
                produced += written
                if written == 0 { ring.waitForSpace(timeout: 0.01) }
            }
            // (bounded: a consumer that lost frames would wait for them for ever)
            _ = consumed.wait(timeout: .now() + 60)
            return mismatches.count.withLock { $0 }
        }
        // Then nothing is lost, duplicated or torn
        #expect(consumer == 0)
    }

    @Test func aConsumerWaitingForDataWakesWhenEnoughIsWrittenNotAtItsTimeout() {
        // Given a consumer waiting (on its own thread) for 100 frames, with a 10 s timeout
        let ring = RingBuffer(channels: 1, capacityFrames: 1000)
        let clock = ContinuousClock()
        let start = clock.now
        let woke = DispatchSemaphore(value: 0)
        let elapsed = Mutex<Duration?>(nil)
        Thread.detachNewThread {
            ring.waitForData(frames: 100, timeout: 10)
            elapsed.withLock { $0 = start.duration(to: clock.now) }
            woke.signal()
        }
        // When 50 frames come, then (after a moment) 50 more
        let half = [Float](repeating: 0.5, count: 50)
        letRealTimePass(seconds: 0.2, because: "the consumer is most likely waiting when the first half comes (late, it finds 50 and waits on: the same test)")
        half.withUnsafeBufferPointer { _ = ring.write(from: $0.baseAddress!, frames: 50) }
        letRealTimePass(seconds: 0.2, because: "a consumer given half of what it waits for must go on waiting while time passes")
        #expect(elapsed.withLock { $0 } == nil, "woke with only half of what it waits for")
        half.withUnsafeBufferPointer { _ = ring.write(from: $0.baseAddress!, frames: 50) }
        // Then it wakes then, long before its timeout
        #expect(woke.wait(timeout: .now() + 5) == .success)
        #expect((elapsed.withLock { $0 } ?? .seconds(99)) < .seconds(5))
    }

    @Test func aWaitingConsumerWakesWhenTheProducerAsksAndOtherwiseAtItsTimeout() {
        let ring = RingBuffer(channels: 1, capacityFrames: 1000)
        let clock = ContinuousClock()
        // Given a consumer waiting with nothing coming: it returns at its timeout
        let start = clock.now
        ring.waitForData(frames: 10, timeout: 0.3)
        #expect(start.duration(to: clock.now) >= .milliseconds(290))
        // When the producer wakes a consumer waiting with a 10 s timeout
        let woke = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            ring.waitForData(frames: 10, timeout: 10)
            woke.signal()
        }
        // (asked again until it wakes: the thread may not have started waiting yet)
        var asked = 0
        while woke.wait(timeout: .now() + 0.1) == .timedOut, asked < 50 {
            ring.wakeConsumerNow()
            asked += 1
        }
        // Then it returns then, not at its timeout
        #expect(asked < 50)
    }
}

/// The consumer thread's count of wrong samples, handed to the producer's.
private final class Mismatches: Sendable {
    let count = Mutex<Int?>(nil)
}
