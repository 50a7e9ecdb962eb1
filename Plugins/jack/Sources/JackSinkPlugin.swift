// The JACK output: a client with one output port per channel. JACK's process callback pulls a
// period from the host and spreads it over the ports. JACK dictates the rate (the host resamples);
// the ports are connected to the physical outputs, to named ports, or to nothing.
public import ABPluginABI
import CJack
import PluginKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

private enum ProcessState: Int {
    case stopped, running, paused, draining, drained
}

private final class JackSink: @unchecked Sendable {
    let client: OpaquePointer
    let ports: [OpaquePointer]
    /// The ports and their buffers of the current period, as plain C tables for the callback.
    let portTable: UnsafeMutablePointer<OpaquePointer>
    let portBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    let channels: Int
    let rate: UInt32
    let source: abp_audio_source
    let lastError = LastError()
    let reporter: StatusReporter
    /// Room for the largest period we accept, allocated at open: the callback never allocates.
    let scratch: UnsafeMutablePointer<Float>
    static let maxPeriodFrames = 16384

    private let state = Atomic<Int>(ProcessState.stopped.rawValue)
    /// True while the process callback is looking at `state` or pulling. With `state`, a
    /// sequentially consistent pair: once a control call has stored a new state and then seen
    /// this false, the callback cannot pull under the old state any more.
    private let inCallback = Atomic<Bool>(false)
    private let serverGone = Atomic<Bool>(false)
    private let drained = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init(client: OpaquePointer, ports: [OpaquePointer], source: abp_audio_source, host: UnsafePointer<abp_host_api>?, serverName: String) {
        self.client = client
        self.ports = ports
        channels = ports.count
        rate = jack_get_sample_rate(client)
        self.source = source
        portTable = .allocate(capacity: ports.count)
        portTable.initialize(from: ports, count: ports.count)
        portBuffers = .allocate(capacity: ports.count)
        portBuffers.initialize(repeating: nil, count: ports.count)
        scratch = .allocate(capacity: Self.maxPeriodFrames * ports.count)
        reporter = StatusReporter(source: source, host: host) { status in
            status == ABP_OK ? "JACK server \(serverName) is back" : "the JACK server \(serverName) went away"
        }
        sem_init(drained, 0, 0)
    }

    deinit {
        sem_destroy(drained)
        drained.deallocate()
        portBuffers.deallocate()
        portTable.deallocate()
        scratch.deallocate()
    }

    // MARK: JACK's threads

    /// The process callback. Real-time rules: the sink is reached through an unretained,
    /// guaranteed reference (no retain/release); `ports`, the port-buffer table and the scratch
    /// buffer were made at open; the state is an atomic; the host's pull is lock-free; the
    /// semaphore post at the end of a drain is a single atomic operation (futex wake at most).
    func process(frames: Int) -> Int32 {
        for index in 0..<channels {
            portBuffers[index] = jack_port_get_buffer(portTable[index], jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self)
        }
        inCallback.store(true, ordering: .sequentiallyConsistent)
        let now = ProcessState(rawValue: state.load(ordering: .sequentiallyConsistent))!
        var pulled = 0
        if (now == .running || now == .draining) && frames <= Self.maxPeriodFrames {
            pulled = source.pull(source.ctx, scratch, frames)
            if pulled < frames && now == .draining {
                state.store(ProcessState.drained.rawValue, ordering: .sequentiallyConsistent)
                sem_post(drained)
            }
        }
        inCallback.store(false, ordering: .sequentiallyConsistent)
        // Paused or stopped: silence (JACK keeps nothing queued beyond this period).
        for index in 0..<channels {
            guard let out = portBuffers[index] else { continue }
            for frame in 0..<pulled { out[frame] = scratch[frame * channels + index] }
            if pulled < frames { (out + pulled).update(repeating: 0, count: frames - pulled) }
        }
        return 0
    }

    /// JACK's shutdown callback (the server died or threw us out): JACK functions must not be
    /// called here; posting the report is real-time safe.
    func shutDown() {
        if !serverGone.exchange(true, ordering: .sequentiallyConsistent) { reporter.post(ABP_ERR_DEVICE) }
    }

    // MARK: Control (the host's thread)

    func start() -> abp_status {
        set(.running)
        return ABP_OK
    }

    func pause() -> abp_status {
        if current == .running || current == .draining { set(.paused) }
        return ABP_OK
    }

    func resume() -> abp_status {
        if current == .paused { set(.running) }
        return ABP_OK
    }

    func drain() -> abp_status {
        guard current == .running || current == .paused else { return ABP_OK }
        while sem_trywait(drained) == 0 {}
        set(.draining)
        // Each period either pulls or ends the drain; a dead server ends it too.
        while current == .draining && !serverGone.load(ordering: .sequentiallyConsistent) {
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += 50_000_000
            if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
            _ = sem_timedwait(drained, &deadline)
        }
        // What was pulled last is heard within the output latency.
        var rest = timespec(tv_sec: 0, tv_nsec: Int(latency) * 1_000_000_000 / Int(rate))
        nanosleep(&rest, nil)
        set(.stopped)
        return serverGone.load(ordering: .sequentiallyConsistent) ? fail("the JACK server went away") : ABP_OK
    }

    func stop() -> abp_status {
        set(.stopped)
        return ABP_OK
    }

    var latency: Int64 {
        guard !serverGone.load(ordering: .sequentiallyConsistent), let port = ports.first else { return 0 }
        var range = jack_latency_range_t()
        jack_port_get_latency_range(port, JackPlaybackLatency, &range)
        return Int64(range.max) + Int64(jack_get_buffer_size(client))
    }

    func close() {
        set(.stopped)
        reporter.stop()
        guard serverGone.load(ordering: .sequentiallyConsistent) else {
            jack_deactivate(client)
            jack_client_close(client)
            return
        }
        // After a server shutdown, libjack's jack_client_close now and then never returns
        // (jack2 issue #395; seen here about once in 50 kills under load), holding its
        // process-wide open lock. The host must not wait on it: it runs on a thread of its
        // own, which keeps this sink (its callbacks' context) alive until it returns, and
        // opens refuse while it is pending rather than queue behind that lock.
        JackCloses.pending.add(1, ordering: .sequentiallyConsistent)
        let closeClient = { [self] in
            jack_client_close(client)
            JackCloses.pending.subtract(1, ordering: .sequentiallyConsistent)
        }
        if !startDetachedThread(closeClient) { closeClient() }
    }

    private var current: ProcessState { ProcessState(rawValue: state.load(ordering: .sequentiallyConsistent))! }

    /// Stores the state, then waits out a callback that may have read the old one (at most one
    /// period; not at all when the server is gone).
    private func set(_ newState: ProcessState) {
        state.store(newState.rawValue, ordering: .sequentiallyConsistent)
        var nap = timespec(tv_sec: 0, tv_nsec: 500_000)
        for _ in 0..<400 where inCallback.load(ordering: .sequentiallyConsistent) && !serverGone.load(ordering: .sequentiallyConsistent) {
            nanosleep(&nap, nil)
        }
    }

    func fail(_ message: String) -> abp_status {
        lastError.set(message)
        return ABP_ERR_DEVICE
    }
}

/// Clients of a server that went away, still being closed on their own threads (see
/// `JackSink.close`). Process-wide because libjack's open lock they may hold is.
private enum JackCloses {
    static let pending = Atomic<Int>(0)
}

private struct OpenError: Error {
    let status: abp_status
    let message: String
}

private func openSink(host: UnsafePointer<abp_host_api>?, requested: abp_format, options: PluginOptions,
                      source: abp_audio_source) throws -> JackSink {
    let server = options["server"].flatMap { $0.isEmpty ? nil : $0 }
    let clientName = options["client-name"].flatMap { $0.isEmpty ? nil : $0 } ?? "abplayer"
    let connect = options["connect"] ?? "physical"
    // The server libjack tries without a name: $JACK_DEFAULT_SERVER, else "default". Messages
    // name that one, so a user with JACK_DEFAULT_SERVER set sees which server was missing.
    let serverName = server ?? getenv("JACK_DEFAULT_SERVER").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "default"
    guard abp_jack_load() else {
        throw OpenError(status: ABP_ERR_UNSUPPORTED, message: "\(String(cString: abp_jack_load_error())); install libjack-jackd2-0")
    }
    guard JackCloses.pending.load(ordering: .sequentiallyConsistent) == 0 else {
        throw OpenError(status: ABP_ERR_DEVICE, message: "libjack is still closing the client of the JACK server that went away, and may never finish (a libjack hang, jack2 issue #395); if JACK does not come back within a few seconds, restart abplayer")
    }
    var status = jack_status_t(rawValue: 0)
    guard let client = abp_jack_client_open(clientName, server, &status) else {
        throw OpenError(status: ABP_ERR_DEVICE, message: "no JACK server named '\(serverName)' is running (status 0x\(String(status.rawValue, radix: 16))); start it, or name another with --output jack:NAME")
    }
    // Stereo at least: a mono book is heard on both sides (the host up-mixes).
    let channels = max(2, Int(requested.channels))
    var ports: [OpaquePointer] = []
    for index in 1...channels {
        guard let port = jack_port_register(client, "out_\(index)", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsOutput.rawValue), 0) else {
            jack_client_close(client)
            throw OpenError(status: ABP_ERR_DEVICE, message: "cannot register port out_\(index)")
        }
        ports.append(port)
    }
    let sink = JackSink(client: client, ports: ports, source: source, host: host, serverName: serverName)
    jack_set_process_callback(client, { frames, userdata in
        Unmanaged<JackSink>.fromOpaque(userdata!)._withUnsafeGuaranteedRef { $0.process(frames: Int(frames)) }
    }, Unmanaged.passUnretained(sink).toOpaque())
    jack_on_shutdown(client, { userdata in
        Unmanaged<JackSink>.fromOpaque(userdata!)._withUnsafeGuaranteedRef { $0.shutDown() }
    }, Unmanaged.passUnretained(sink).toOpaque())
    guard jack_activate(client) == 0 else {
        sink.close()
        throw OpenError(status: ABP_ERR_DEVICE, message: "cannot activate the JACK client")
    }
    // Connections are made after activation, as JACK requires.
    var targets: [String] = []
    switch connect {
    case "none", "":
        break
    case "physical":
        if let found = jack_get_ports(client, nil, JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsPhysical.rawValue | JackPortIsInput.rawValue)) {
            var index = 0
            while let name = found[index] { targets.append(String(cString: name)); index += 1 }
            jack_free(found)
        }
    default:
        targets = connect.split(separator: ",").map(String.init)
    }
    for (port, target) in zip(ports, targets) {
        if let name = jack_port_name(port), jack_connect(client, name, target) != 0 {
            Host(host, pluginID: "jack").log(ABP_LOG_WARNING, "cannot connect \(String(cString: name)) to \(target)")
        }
    }
    return sink
}

private func makeOps() -> abp_sink_ops {
    var ops = sinkControlOps()
    ops.open = { host, requested, options, optionCount, source, out, actual, error, errorSize in
        guard let requested, let source, let out, let actual, source.pointee.pull != nil else {
            writeError("open called without a format, a source or an output", to: error, size: errorSize)
            return ABP_ERR_INVALID
        }
        do {
            let sink = try openSink(host: host, requested: requested.pointee,
                                    options: PluginOptions(options, count: optionCount), source: source.pointee)
            actual.pointee = abp_format(rate: sink.rate, channels: UInt32(sink.channels))
            out.pointee = OpaquePointer(Unmanaged.passRetained(sink).toOpaque())
            return ABP_OK
        } catch let openError as OpenError {
            writeError(openError.message, to: error, size: errorSize)
            return openError.status
        } catch {
            return ABP_ERR_INTERNAL
        }
    }
    return ops
}

extension JackSink: SinkInstance {}

private let descriptor = PluginDescriptor(
    id: "jack", name: "JACK output", version: "1.0.0",
    description: "Plays through a JACK server, one port per channel, at the server's rate",
    capabilities: ABP_CAP_PAUSE | ABP_CAP_LATENCY | ABP_CAP_FIXED_RATE | ABP_CAP_REALTIME, priority: 20,
    options: [
        .init("server", ABP_OPTION_STRING, default: nil, help: "server name (default: $JACK_DEFAULT_SERVER or default)"),
        .init("client-name", ABP_OPTION_STRING, default: "abplayer", help: "the JACK client name"),
        .init("connect", ABP_OPTION_STRING, default: "physical",
              help: "physical, none, or a comma list of ports to connect to, e.g. system:playback_1,system:playback_2"),
    ],
    argumentOption: "server",
    sink: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    return descriptor.entry(for: host)
}
