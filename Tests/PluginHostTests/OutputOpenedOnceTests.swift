import Foundation
import PlayerCore
import PluginHost
import Synchronization
import TestSupport
import Testing

/// plugin.h, the sink's `open`: the host opens a named output once per play. Also a sink that runs
/// at another format than the one asked for (the FIFO example writes 48 kHz; the book is 44.1 kHz)
/// is given a ring of its own format before it starts, not closed and opened again: a pipe's reader
/// such as `cat` leaves at the first end of file, and an exclusive ALSA `hw:` device may refuse a
/// second open. (FifoOutputTests plays to `cat` through the binary; here the opens are counted.)
@Suite struct OutputOpenedOnceTests {
    /// The registry's opener, counting the sinks it opens.
    final class CountingOpener: SinkOpener, Sendable {
        let inner: any SinkOpener
        let opens = Mutex(0)

        init(_ inner: any SinkOpener) { self.inner = inner }

        func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink {
            opens.withLock { $0 += 1 }
            return try inner.openSink(format: format, source: source)
        }

        func openSink(format: AudioFormat, source: RingBuffer,
                      onStatus: @escaping @Sendable (SinkStatus) -> Void) throws -> any Sink {
            opens.withLock { $0 += 1 }
            return try inner.openSink(format: format, source: source, onStatus: onStatus)
        }
    }

    @Test func anOutputAtAnotherRateIsOpenedOnceAndPlaysAll() throws {
        // Given a 3 s MP3 at 44.1 kHz, and the FIFO output (48 kHz) on a pipe with a reader
        let registry = try FifoSinkTests.registry()
        let mp3 = try Fixtures.mp3(seconds: 3, rate: 44100, channels: 2, vbr: false)
        let reader = try FifoReader(path: try FifoSinkTests.pipePath("fifo-open-once"))
        let opener = CountingOpener(try registry.sinkOpener(pluginID: "fifo", options: ["path": reader.path]))
        let engine = PlaybackEngine(decoders: registry, sinks: opener)
        // When the engine plays it to the end
        engine.load([mp3.path])
        let ended = FifoSinkTests.wait(timeout: .seconds(60)) { reader.frameCount >= 3 * 48000 && engine.state == .stopped }
        engine.shutdown()
        // Then the output was opened once, and the pipe got every second at 48 kHz, in order
        #expect(ended, "\(reader.frameCount) frames read")
        #expect(opener.opens.withLock { $0 } == 1)
        #expect(FifoSinkTests.seconds(in: reader.samples()) == [0, 1, 2])
    }
}
