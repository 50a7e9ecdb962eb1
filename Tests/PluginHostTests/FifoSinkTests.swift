import ABPluginABI
import Foundation
import PlayerCore
import PluginHost
import Synchronization
import TestSupport
import Testing

/// The out-of-tree FIFO output (plugin-sdk/examples/fifo: C, built with plain `cc`) loaded by the
/// registry and played to by the engine, as `--output fifo:PATH` does, into a pipe the test reads.
///
/// Synchronous on purpose, like the engine's pause test: the waits block this thread, so a test
/// never waits for a cooperative-pool thread while the blocking tests beside it hold both cores.
@Suite struct FifoSinkTests {
    /// The built decoders and the example, loaded as the host loads plugins.
    static func registry() throws -> PluginRegistry {
        PluginRegistry(
            searchPath: PluginSearchPath(directories: [
                .init(path: try FifoExample.pluginDirectory().path, isExplicit: true, filePrefix: ""),
                .init(path: BuildProducts.binDirectory.path, isExplicit: true, filePrefix: "libabplayer-"),
            ]),
            cacheDirectory: nil, log: { _, _, _ in })
    }

    static func pipePath(_ name: String) throws -> String {
        try BuildProducts.temporaryDirectory(name).appendingPathComponent("snapfifo").path
    }

    static func engine(_ registry: PluginRegistry, pipe: String) throws -> PlaybackEngine {
        PlaybackEngine(decoders: registry, sinks: try registry.sinkOpener(pluginID: "fifo", options: ["path": pipe]))
    }

    /// Blocks until `condition` holds, or `timeout` passed; returns whether it held.
    static func wait(timeout: Duration, until condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !condition() {
            if clock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// The time-coded second at the middle of each whole second of 48 kHz stereo.
    static func seconds(in samples: [Float]) -> [Int?] {
        (0..<samples.count / 2 / 48000).map { AudioAnalysis.secondAt(frame: $0 * 48000 + 24000, in: samples, channels: 2, rate: 48000) }
    }

    @Test func everySecondArrivesInOrderAs48kHzStereoS16InRealTime() throws {
        // Given a 6 s mono MP3 at 44.1 kHz, and a pipe with a reader
        let registry = try Self.registry()
        let mp3 = try Fixtures.mp3(seconds: 6, rate: 44100, channels: 1, vbr: false)
        let reader = try FifoReader(path: try Self.pipePath("fifo-seconds"))
        let engine = try Self.engine(registry, pipe: reader.path)
        // When the engine plays it to the fifo output
        engine.load([mp3.path])
        #expect(Self.wait(timeout: .seconds(60)) { reader.frameCount >= 6 * 48000 && engine.state == .stopped })
        engine.shutdown()
        // Then the pipe got exactly 6 s at 48 kHz (resampled by the host), every second in order,
        // the mono source on both channels
        let samples = reader.samples()
        #expect(reader.frameCount == 6 * 48000)
        #expect(Self.seconds(in: samples) == [0, 1, 2, 3, 4, 5])
        let left = AudioAnalysis.channel(samples, channels: 2, index: 0)
        #expect(AudioAnalysis.maxAbsDifference(left, AudioAnalysis.channel(samples, channels: 2, index: 1)) == 0)
        #expect(abs(AudioAnalysis.rms(left) - 0.5 / 2.squareRoot()) < 0.03, "16-bit samples at full scale")
        // at the pace of a clock, although the test reads as fast as it can
        let arrivals = try #require(reader.arrivals)
        #expect(arrivals.last - arrivals.first > .milliseconds(5800))
    }

    @Test func withNothingReadingThePipeOpeningFailsWithinASecond() throws {
        // Given a pipe nobody reads
        let registry = try Self.registry()
        let path = try Self.pipePath("fifo-unread")
        #expect(mkfifo(path, 0o644) == 0)
        let opener = try registry.sinkOpener(pluginID: "fifo", options: ["path": path])
        // When the output is opened
        let clock = ContinuousClock()
        let started = clock.now
        let error = #expect(throws: AudioError.self) {
            try opener.openSink(format: AudioFormat(rate: 44100, channels: 2), source: RingBuffer(channels: 2, capacityFrames: 4096))
        }
        // Then it fails soon, as a device that is not there, saying so
        #expect(clock.now - started < .seconds(2))
        #expect(error?.kind == .device)
        #expect(error?.reason.contains("nothing reads \(path)") == true, "\(String(describing: error))")
    }

    @Test func aPathThatIsNoPipeIsRefusedAndCreateMakesTheMissingOne() throws {
        let registry = try Self.registry()
        let directory = try BuildProducts.temporaryDirectory("fifo-paths")
        let file = try Fixtures.emptyFile(named: "not-a-pipe.raw")
        let missing = directory.appendingPathComponent("missing").path
        func openFailure(_ options: [String: String]) -> AudioError? {
            do {
                _ = try registry.sinkOpener(pluginID: "fifo", options: options)
                    .openSink(format: AudioFormat(rate: 48000, channels: 2), source: RingBuffer(channels: 2, capacityFrames: 4096))
                return nil
            } catch {
                return error as? AudioError
            }
        }
        // A regular file is not written to: wrong kind of path
        let notPipe = openFailure(["path": file.path])
        #expect(notPipe?.kind == .invalidArgument && notPipe?.reason.contains("not a named pipe") == true)
        // A missing pipe is not made unless asked
        let absent = openFailure(["path": missing])
        #expect(absent?.kind == .device && absent?.reason.contains("mkfifo") == true)
        #expect(!FileManager.default.fileExists(atPath: missing))
        // create=true makes it (and then finds nobody reading it)
        let created = openFailure(["path": missing, "create": "true"])
        #expect(created?.reason.contains("nothing reads") == true)
        var info = stat()
        #expect(stat(missing, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
        // and a bad value is refused before anything is touched
        #expect(openFailure(["path": missing, "rate": "fast"])?.kind == .invalidArgument)
    }

    @Test func pauseWritesNothingAndResumeGoesOnFromTheSameFrame() throws {
        // Given an 8 s file playing to a read pipe, 2 s in
        let registry = try Self.registry()
        let mp3 = try Fixtures.mp3(seconds: 8, vbr: false)
        let reader = try FifoReader(path: try Self.pipePath("fifo-pause"))
        let engine = try Self.engine(registry, pipe: reader.path)
        engine.load([mp3.path])
        #expect(reader.wait(timeout: .seconds(30)) { $0 >= 2 * 48000 })
        // When paused for a second
        engine.pause()
        #expect(Self.wait(timeout: .seconds(10)) { engine.state == .paused })
        // (what was in the pipe has arrived once nothing came for 0.1 s)
        #expect(Self.wait(timeout: .seconds(5)) { reader.arrivals.map { .now - $0.last > .milliseconds(100) } ?? false })
        let atPause = reader.frameCount
        letRealTimePass(seconds: 1, because: "a paused fifo sink must write nothing, not even silence, while time passes")
        // Then nothing was written meanwhile (no silence either: snapserver would stay "playing")
        #expect(reader.frameCount == atPause)
        // When resumed, it plays to the end
        engine.play()
        #expect(Self.wait(timeout: .seconds(60)) { reader.frameCount >= 8 * 48000 && engine.state == .stopped })
        engine.shutdown()
        // Then the pipe got the 8 s once, in order, with no gap where the pause was
        let track = SecondTrack(reader.samples(), channels: 2, rate: 48000)
        #expect(reader.frameCount == 8 * 48000)
        #expect(track.seconds == Array(0..<8), "\(track)")
        #expect(track.gaps(longerThan: 0.02).isEmpty, "\(track)")
    }

    @Test func aReaderThatGoesIsReportedAndPlaybackGoesOnFromWhatItReadOnceAnotherComes() throws {
        // Given an 8 s file playing to a read pipe
        let registry = try Self.registry()
        let mp3 = try Fixtures.mp3(seconds: 8, vbr: false)
        let path = try Self.pipePath("fifo-lost")
        let first = try FifoReader(path: path)
        let statuses = Mutex<[SinkStatus]>([])
        let engine = PlaybackEngine(decoders: registry, sinks: try registry.sinkOpener(
            pluginID: "fifo", options: ["path": path], statusHandler: { status in statuses.withLock { $0.append(status) } }))
        engine.load([mp3.path])
        #expect(first.wait(timeout: .seconds(30)) { $0 >= 2 * 48000 })
        // When its reader goes
        first.close()
        // Then the output reports it, and the engine waits for it, holding the place
        #expect(Self.wait(timeout: .seconds(10)) { engine.state == .paused })
        #expect(statuses.withLock { $0 } == [.lost("nothing reads \(path) any more")])
        // When another reader comes, playback goes on to the end
        let second = try FifoReader(path: path)
        #expect(Self.wait(timeout: .seconds(60)) { second.frameCount > 0 && engine.state == .stopped })
        engine.shutdown()
        // Then the two heard the book once between them: every second in order, and what the
        // first did not read (still in the pipe when it went) came again, and little more
        let heard = first.samples() + second.samples()
        let track = SecondTrack(heard, channels: 2, rate: 48000)
        #expect(track.seconds == Array(0..<8), "\(track)")
        let extra = Double(heard.count / 2 - 8 * 48000) / 48000
        #expect(abs(extra) < 0.15, "heard \(extra) s more than the book")
    }

    /// Counts what the sink does with the source it was given.
    final class SourceProbe: Sendable {
        let pulls = Atomic<Int>(0)
        let waits = Atomic<Int>(0)
    }

    /// The version rule, checked through the C ABI: the descriptor asks for a 1.0 host and says
    /// which option `ID:ARG` fills; with nothing to pull, it writes silence at the clock's pace and
    /// waits in the host's `wait` only when the source's struct_size reaches it (ABP_HAS_FIELD).
    @Test(arguments: [true, false])
    func itDeclaresABI10AndWaitsThroughTheHostOnlyWhenTheSourceReachesWait(hostHasWait: Bool) throws {
        let library = try FifoExample.pluginDirectory().appendingPathComponent("libabplayer-fifo.so")
        let handle = try #require(dlopen(library.path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE))
        let entry = unsafeBitCast(try #require(dlsym(handle, ABP_ENTRY_SYMBOL)), to: abp_entry_fn.self)
        var host = abp_host_api()
        host.struct_size = UInt32(MemoryLayout<abp_host_api>.size)
        host.abi_major = UInt16(ABP_ABI_MAJOR)
        host.abi_minor = 0
        let descriptor = try #require(entry(&host))
        #expect(descriptor.pointee.abi_minor == 0 && descriptor.pointee.kind == ABP_KIND_SINK)
        #expect(String(cString: try #require(descriptor.pointee.argument_option)) == "path")
        var otherMajor = host
        otherMajor.abi_major += 1
        #expect(entry(&otherMajor) == nil)

        let ops = try #require(descriptor.pointee.sink).pointee
        let open = try #require(ops.open), start = try #require(ops.start)
        let stop = try #require(ops.stop), close = try #require(ops.close)
        let reader = try FifoReader(path: try Self.pipePath("fifo-abi"))
        let probe = SourceProbe()
        let context = Unmanaged.passRetained(probe)
        defer { context.release() }
        let withoutWait = MemoryLayout<abp_audio_source>.offset(of: \.wait)!
        var source = abp_audio_source(
            struct_size: UInt32(hostHasWait ? MemoryLayout<abp_audio_source>.size : withoutWait),
            ctx: context.toOpaque(),
            pull: { context, _, _ in
                Unmanaged<SourceProbe>.fromOpaque(context!).takeUnretainedValue().pulls.add(1, ordering: .relaxed)
                return 0
            },
            status: nil,
            // In memory either way: an older host's source simply ends before it.
            wait: { context, _, timeout in
                Unmanaged<SourceProbe>.fromOpaque(context!).takeUnretainedValue().waits.add(1, ordering: .relaxed)
                letRealTimePass(seconds: Double(timeout) / 1000, because: "a host's wait blocks up to the plugin's timeout when no audio comes")
            })
        var format = abp_format(rate: 44100, channels: 2)
        var actual = abp_format()
        var sink: OpaquePointer?
        var error = [CChar](repeating: 0, count: 256)
        let status = "path".withCString { name in
            reader.path.withCString { value in
                var option = abp_option(name: name, value: value)
                return open(&host, &format, &option, 1, &source, &sink, &actual, &error, error.count)
            }
        }
        #expect(status == ABP_OK, "\(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        #expect(actual.rate == 48000 && actual.channels == 2)
        let opened = try #require(sink)
        #expect(start(opened) == ABP_OK)
        #expect(reader.wait(timeout: .seconds(20)) { $0 >= 48000 / 2 })
        _ = stop(opened)
        close(opened)
        #expect(probe.pulls.load(ordering: .relaxed) >= 20)
        #expect((probe.waits.load(ordering: .relaxed) > 0) == hostHasWait)
        #expect(reader.samples().allSatisfy { $0 == 0 }, "an underrun is written as silence")
    }
}
