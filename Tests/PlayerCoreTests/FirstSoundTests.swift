import Foundation
@testable import PlayerCore
import Synchronization
import Testing

/// What the engine does before a book resumed mid-way is first heard (issue 15's `play BOOK`):
/// it opens only the item it resumes in, seeks it once, and starts the sink once its ring is full,
/// which holds half a second (decoding it costs well under a millisecond). Counted in opens, seeks and frames, never timed: the time
/// itself is `make bench`'s (scripts/bench-first-sound.sh).
@Suite struct FirstSoundTests {
    static let rate = 22050
    static let itemFrames = Int64(60 * rate)

    /// What happened, as the sink's start found it.
    final class Log: Sendable {
        struct Snapshot {
            var opened: [String] = []
            var seeks: [Int64] = []
            var framesRead = 0
        }
        let now = Mutex(Snapshot())
        let atStart = Mutex<(snapshot: Snapshot, queued: Int)?>(nil)
        let started = DispatchSemaphore(value: 0)
    }

    /// A minute of 22.05 kHz mono silence per item, as a book of speech MP3s has: "item-N".
    final class MinuteDecoder: Decoder {
        let info = StreamInfo(format: AudioFormat(rate: FirstSoundTests.rate, channels: 1), totalFrames: FirstSoundTests.itemFrames,
                              isSeekable: true)
        let metadata = MediaMetadata()
        let pluginID = "minute"
        let log: Log
        private var next: Int64 = 0

        init(log: Log) { self.log = log }

        func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws -> Int {
            let count = Int(min(Int64(maxFrames), FirstSoundTests.itemFrames - next))
            buffer.update(repeating: 0, count: count)
            next += Int64(count)
            log.now.withLock { $0.framesRead += count }
            return count
        }

        func seek(to frame: Int64) throws {
            next = frame
            log.now.withLock { $0.seeks.append(frame) }
        }
    }

    struct MinuteOpener: DecoderOpener {
        let log: Log
        func openDecoder(path: String) throws -> any Decoder {
            log.now.withLock { $0.opened.append(path) }
            return MinuteDecoder(log: log)
        }
    }

    /// Notes, when started, what the decoders had done and what the ring held; pulls nothing.
    final class StartSink: Sink, Sendable {
        let format: AudioFormat
        let name = "start"
        let ring: RingBuffer
        let log: Log

        init(format: AudioFormat, ring: RingBuffer, log: Log) {
            self.format = format
            self.ring = ring
            self.log = log
        }

        var latencyFrames: Int64 { 0 }
        func start() throws {
            let snapshot = log.now.withLock { $0 }
            let queued = ring.availableFrames
            log.atStart.withLock { $0 = (snapshot, queued) }
            log.started.signal()
        }
        func pause() throws {}
        func resume() throws {}
        func drain() throws {}
        func stop() throws {}
        func close() {}
    }

    struct StartOpener: SinkOpener {
        let log: Log
        func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink {
            StartSink(format: format, ring: source, log: log)
        }
    }

    @Test func aBookResumedMidWayOpensOnlyItsItemAndStartsTheSinkAfterHalfASecond() throws {
        // Given a book of 25 one-minute items, resumed 30 s into its 11th
        let log = Log()
        let engine = PlaybackEngine(decoders: MinuteOpener(log: log), sinks: StartOpener(log: log))
        let items = (1...25).map { "item-\($0)" }
        let resumeFrame = Int64(30 * Self.rate)
        // When it plays
        engine.load(items, start: PlaybackPosition(item: 10, frame: resumeFrame))
        #expect(log.started.wait(timeout: .now() + 30) == .success, "the sink never started")
        engine.shutdown()
        let (snapshot, queued) = try #require(log.atStart.withLock { $0 })
        // Then, by the time the sink starts, only that item was opened and sought, once
        #expect(snapshot.opened == ["item-11"])
        #expect(snapshot.seeks == [resumeFrame])
        // And at most half a second was decoded first (a larger ring must still start early), all
        // of it queued: enough for a sink's first pull (PulseAudio's 200 ms buffer), no more
        let halfSecond = Self.rate / 2
        #expect(snapshot.framesRead <= halfSecond, "decoded \(snapshot.framesRead) frames before the first sound")
        #expect(queued == snapshot.framesRead)
        #expect(queued >= Self.rate / 4, "started with \(queued) frames queued")
    }
}
