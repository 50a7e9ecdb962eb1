import ABPluginABI
import Foundation
import PlayerCore
@testable import PluginHost
import Synchronization
import TestSupport

/// What one contract test plays a target to: its directory, the server or device it needs, and
/// how to read back what the device got. `tearDown` stops every server it started (by PID),
/// unmounts its disk and removes its directory, pass or fail.
final class SinkContractBench: @unchecked Sendable {
    let target: SinkContractTarget
    let directory: URL
    private(set) var options: [String: String]
    private(set) var pulse: PulseServer?
    private(set) var jack: JackServer?
    private(set) var disk: SmallDisk?
    /// Where the device writes what it is given (a WAV file, the ALSA file PCM's raw floats).
    private(set) var captureFile: URL?
    private var holdsJackTurn = false
    private var lostJack = false

    /// libjack keeps one server's shared memory per process (jack2's JackLibGlobals): two clients
    /// of two private servers at once in this process would see each other's graph. JACK targets
    /// take turns; everything else runs beside them.
    private static let jackTurn = DispatchSemaphore(value: 1)

    /// `onSmallDisk`: the file the device writes goes on a tmpfs of that many bytes.
    init(_ target: SinkContractTarget, onSmallDisk bytes: Int? = nil) throws {
        self.target = target
        options = target.options
        directory = try BuildProducts.temporaryDirectory("sink-contract-\(target.plugin.id)")
        do {
            try provide(onSmallDisk: bytes)
        } catch {
            tearDown()
            throw error
        }
    }

    private func provide(onSmallDisk bytes: Int?) throws {
        var fileDirectory = directory
        if let bytes {
            let disk = try SmallDisk(at: directory.appendingPathComponent("disk"), bytes: bytes)
            self.disk = disk
            fileDirectory = disk.mountPoint
        }
        switch target.provision {
        case .nothing:
            break
        case .file(let option, let fileExtension):
            let file = fileDirectory.appendingPathComponent("out.\(fileExtension)")
            options[option] = file.path
            captureFile = file
        case .alsaFilePCM:
            let file = fileDirectory.appendingPathComponent("alsa-capture.raw")
            options[target.plugin.argumentOption ?? "device"] = "file:FILE=\(file.path),FORMAT=raw"
            captureFile = file
        case .pulseServer:
            let server = try PulseServer()
            pulse = server
            options["server"] = server.environment["PULSE_SERVER"]
            // A second of buffer, not the default 200 ms: this test process runs many sinks at
            // once beside the rest of the suite, and on a loaded two-core machine the stream's
            // mainloop thread can wait more than 200 ms for a core (the server then plays a gap).
            if options["latency-ms"] == nil { options["latency-ms"] = "1000" }
        case .jackServer:
            Self.jackTurn.wait()
            holdsJackTurn = true
            let server = try JackServer()
            jack = server
            options["server"] = server.name
            // Up for jack_lsp is not always up for this process's libjack at once (on a loaded
            // machine, just after another test's server went): wait until a client opens.
            _ = waitUntil(within: 20, every: 0.1) { refusal(server: server.name) == nil }
        }
    }

    /// Runs `body` holding the JACK turn when `needed` (an open that talks to libjack).
    static func takingJackTurn<T>(if needed: Bool, _ body: () throws -> T) rethrows -> T {
        if needed { jackTurn.wait() }
        defer { if needed { jackTurn.signal() } }
        return try body()
    }

    func tearDown() {
        pulse?.stop()
        jack?.stop()
        for serverDirectory in [pulse?.directory, jack?.directory].compactMap({ $0 }) {
            try? FileManager.default.removeItem(at: serverDirectory)
        }
        if holdsJackTurn && lostJack {
            // The jack sink closes a client whose server died on a thread of its own (libjack's
            // close can hang, jack2 issue #395) and refuses to open meanwhile: the next JACK test
            // waits until an open gets as far as looking for a server.
            _ = waitUntil(within: 20, every: 0.1) { refusal(server: "abp_no_such_server")?.contains("abp_no_such_server") ?? true }
        }
        if holdsJackTurn {
            holdsJackTurn = false
            Self.jackTurn.signal()
        }
        if let disk {
            // A child this process starts meanwhile (a server, a recorder) can inherit the file
            // the device had open (ALSA's file PCM opens it without O_CLOEXEC) and keep the disk
            // busy until it closes it: unmount until it is gone.
            _ = waitUntil(within: 20, every: 0.1) {
                disk.unmount()
                return !((try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8))?.contains(" \(disk.mountPoint.path) ") ?? false)
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Takes the device away mid-play: the server dies, or the disk fills up (it was small).
    func loseDevice() {
        pulse?.stop()
        jack?.stop()
        lostJack = jack != nil
    }

    /// Why the target would not open against `server`; nil when it opened.
    private func refusal(server: String) -> String? {
        var options = options
        options["server"] = server
        do {
            try target.registry.sinkOpener(pluginID: target.plugin.id, options: options)
                .openSink(format: AudioFormat(rate: 48000, channels: 2), source: RingBuffer(channels: 2, capacityFrames: 1024)).close()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// What the device received, as interleaved floats, when it writes a file.
    func captured() throws -> (samples: [Float], rate: Int?, channels: Int?)? {
        guard let captureFile else { return nil }
        switch target.provision {
        case .file(_, "wav"):
            let wav = try WavFile.read(captureFile)
            return (wav.samples, wav.rate, wav.channels)
        case .alsaFilePCM:
            // The alsa plugin gives the PCM float32 (the file PCM over null takes it as it is).
            let data = try Data(contentsOf: captureFile)
            return (data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }, nil, nil)
        default:
            return nil
        }
    }
}

/// The audio the contract puts in the ring: a 997 Hz sine of amplitude 0.5 on every channel,
/// a function of the frame's index in the ring, so what a file receives can be compared exactly.
enum ContractTone {
    static let frequency = 997.0

    static func sample(frame: Int, rate: Int) -> Float {
        Float(0.5 * sin(2 * Double.pi * frequency * Double(frame % rate) / Double(rate)))
    }

    /// Puts the tone into the ring's free space after what was written before, up to `total`
    /// frames written in all (nil: the space free now, so that a sink taking audio as fast as it
    /// comes cannot keep this going). The test's thread is the only producer.
    @discardableResult
    static func fill(_ ring: RingBuffer, rate: Int, upTo total: Int? = nil) -> Int {
        let channels = ring.channels
        let limit = total ?? ring.framesWritten + ring.freeFrames
        var chunk = [Float](repeating: 0, count: 4096 * channels)
        var added = 0
        while true {
            let start = ring.framesWritten
            let count = min(4096, ring.freeFrames, limit - start)
            guard count > 0 else { return added }
            for frame in 0..<count {
                let value = sample(frame: start + frame, rate: rate)
                for channel in 0..<channels { chunk[frame * channels + channel] = value }
            }
            let written = chunk.withUnsafeBufferPointer { ring.write(from: $0.baseAddress!, frames: count) }
            added += written
            if written == 0 { return added }
        }
    }

    /// The tone's first `frames` frames, interleaved, as `fill` wrote them.
    static func expected(frames: Int, rate: Int, channels: Int) -> [Float] {
        var samples: [Float] = []
        samples.reserveCapacity(frames * channels)
        for frame in 0..<frames {
            let value = sample(frame: frame, rate: rate)
            for _ in 0..<channels { samples.append(value) }
        }
        return samples
    }
}

/// Runs `work` on a thread of its own; false when it has not returned within `seconds` (a sink
/// that hangs in drain or close fails the test instead of hanging the run).
func returns(within seconds: Double, _ work: @escaping @Sendable () -> Void) -> Bool {
    onAThread(within: seconds) { work(); return true } ?? false
}

/// What a deadline thread found wrong.
final class ErrorText: Sendable {
    let text = Mutex<String?>(nil)
}

/// A sink call that failed where the contract needs it to work (the test fails with it).
struct ContractFailure: Error, CustomStringConvertible {
    let description: String

    static func check(_ status: abp_status, _ call: String) throws {
        guard status == ABP_OK else { throw ContractFailure(description: "\(call) returned \(status.rawValue)") }
    }
}

/// Lends a non-Sendable sink to a deadline thread; the test thread waits for it meanwhile.
final class Lent<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A sink plugin's own ops called as the host calls them, with a source over a `RingBuffer`,
/// but without `PluginSink`'s adaptation: that clamps a negative latency to 0 and folds every
/// failing status into `SinkStatus.lost`, and the contract must see both as the plugin gave them.
final class RawSink: @unchecked Sendable {
    /// What `source.ctx` points to.
    final class Source: @unchecked Sendable {
        let ring: RingBuffer
        let statuses = Mutex<[(status: abp_status, message: String)]>([])
        init(ring: RingBuffer) { self.ring = ring }
    }

    let ops: abp_sink_ops
    let instance: OpaquePointer
    let format: abp_format
    let state: Source
    private let source: UnsafeMutablePointer<abp_audio_source>
    private let context: Unmanaged<Source>
    private var isClosed = false

    init(_ target: SinkContractTarget, options: [String: String], requested: abp_format, ring: RingBuffer) throws {
        guard let ops = target.plugin.sinkOps else {
            throw AudioError(.invalidArgument, subject: "output \(target.plugin.id)", reason: "not a sink")
        }
        self.ops = ops
        state = Source(ring: ring)
        let context = Unmanaged.passRetained(state)
        self.context = context
        let source = UnsafeMutablePointer<abp_audio_source>.allocate(capacity: 1)
        self.source = source
        source.initialize(to: abp_audio_source())
        source.pointee.struct_size = UInt32(MemoryLayout<abp_audio_source>.size)
        source.pointee.ctx = context.toOpaque()
        source.pointee.pull = { context, buffer, frames in
            Unmanaged<Source>.fromOpaque(context!)._withUnsafeGuaranteedRef { size_t($0.ring.read(into: buffer!, frames: Int(frames))) }
        }
        source.pointee.wait = { context, frames, milliseconds in
            Unmanaged<Source>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                $0.ring.waitForData(frames: Int(frames), timeout: Double(milliseconds) / 1000)
            }
        }
        source.pointee.status = { context, status, message in
            let text = message.map { String(cString: $0) } ?? ""
            Unmanaged<Source>.fromOpaque(context!).takeUnretainedValue().statuses.withLock { $0.append((status, text)) }
        }
        var requestedFormat = requested
        var actual = abp_format()
        var opened: OpaquePointer?
        let open = ops.open!
        let names = options.keys.sorted()
        let (status, message) = withCStringOptions(names.map { ($0, options[$0]!) }) { cOptions, count in
            withErrorBuffer { buffer, size in
                open(target.registry.hostAPI.table, &requestedFormat, cOptions, count, source, &opened, &actual, buffer, size)
            }
        }
        guard status == ABP_OK, let opened else {
            source.deallocate()
            context.release()
            throw AudioError(status: status, subject: "output \(target.plugin.id)", message: message)
        }
        instance = opened
        format = actual
    }

    deinit {
        close()
        source.deallocate()
        context.release()
    }

    func start() -> abp_status { ops.start(instance) }
    /// As the host does (PluginSink), a sink thread sleeping in the source's `wait` is woken
    /// before pause, stop and close.
    func pause() -> abp_status {
        state.ring.wakeConsumerNow()
        return ops.pause(instance)
    }
    func stop() -> abp_status {
        state.ring.wakeConsumerNow()
        return ops.stop(instance)
    }
    /// The plugin's own answer; nil when it has no latency().
    var latency: Int64? { ops.latency.map { $0(instance) } }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        state.ring.wakeConsumerNow()
        ops.close(instance)
    }
}

/// What a server played, recorded from its monitor (parec: 48 kHz stereo float) from before the
/// sink opens; nil for a bench with no server to listen to.
final class SinkContractMonitor {
    private let recording: Recording

    init?(_ bench: SinkContractBench) throws {
        guard let pulse = bench.pulse else { return nil }
        recording = try pulse.record()
        // parec records the monitor's silence as soon as it is connected
        _ = waitUntil(within: 10) { self.bytes > 0 }
    }

    private var bytes: Int { (try? FileManager.default.attributesOfItem(atPath: recording.file.path)[.size] as? Int) ?? 0 }

    /// Waits until `seconds` more of the monitor have been recorded (the server's clock, not ours).
    func waitForMore(_ seconds: Double) {
        let target = bytes + Int(seconds * 48000) * 2 * 4
        _ = waitUntil(within: 10 + seconds * 4) { self.bytes >= target }
    }

    /// Stops recording `seconds` of the monitor from now, and says what tone it heard.
    func heard(afterMore seconds: Double) throws -> HeardTone {
        waitForMore(seconds)
        return HeardTone(try recording.finish().samples)
    }
}

/// The contract's tone as a server played it (48 kHz stereo): from its first to its last loud
/// sample, the longest near-silence inside, and its pitch.
struct HeardTone: Sendable {
    var heardAnything = false
    /// Seconds from the first loud sample to the last.
    var span = 0.0
    /// The longest run of near-silence between them, and where it began (seconds after the first).
    var longestGap = 0.0
    var gapStart = 0.0
    var frequency = 0.0

    init(_ samples: [Float]) {
        let frames = samples.count / 2
        // (a sine of amplitude 0.5 is under 0.02 for a sample or two around each crossing)
        guard let first = (0..<frames).first(where: { abs(samples[$0 * 2]) > 0.25 }),
              let last = (0..<frames).last(where: { abs(samples[$0 * 2]) > 0.25 }) else { return }
        heardAnything = true
        span = Double(last - first) / 48000
        var (run, longest, end) = (0, 0, first)
        for frame in first...last {
            run = abs(samples[frame * 2]) < 0.02 ? run + 1 : 0
            if run > longest { (longest, end) = (run, frame) }
        }
        longestGap = Double(longest) / 48000
        gapStart = Double(end - longest + 1 - first) / 48000
        // the pitch from the tone's first half second, before any gap
        frequency = AudioAnalysis.dominantFrequency(samples, channels: 2, rate: 48000, from: first, count: min(24000, last - first))
    }
}
