// The PulseAudio output: a playback stream on a threaded mainloop. The server asks for audio
// through the stream's write callback, which pulls from the host straight into the server's
// buffer. Losing the server, or the server moving the stream to another sink (the one we played
// to was removed), is reported to the host.
public import ABPluginABI
import CPulse
import PluginKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

private enum StreamState: Int {
    case stopped, running, paused, draining, drained
}

private final class PulseSink: @unchecked Sendable {
    let mainloop: OpaquePointer
    let context: OpaquePointer
    private(set) var stream: OpaquePointer?
    let format: abp_format
    let source: abp_audio_source
    let lastError = LastError()
    let reporter: StatusReporter
    let serverName: String
    private let state = Atomic<Int>(StreamState.stopped.rawValue)
    private let failed = Atomic<Bool>(false)

    init(mainloop: OpaquePointer, context: OpaquePointer, format: abp_format, source: abp_audio_source,
         host: UnsafePointer<abp_host_api>?, serverName: String) {
        self.mainloop = mainloop
        self.context = context
        self.format = format
        self.source = source
        self.serverName = serverName
        reporter = StatusReporter(source: source, host: host) { status in
            switch status {
            case ABP_ERR_MOVED: "PulseAudio moved the stream to another sink (the one we played to went away)"
            case ABP_OK: "PulseAudio server \(serverName) is back"
            default: "lost the PulseAudio server \(serverName)"
            }
        }
    }

    var unmanaged: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    // MARK: Setup (the host's thread, mainloop locked)

    func connectStream(sinkName: String?, latencyMilliseconds: Int) throws(OpenError) {
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: format.rate, channels: UInt8(format.channels))
        guard let stream = pa_stream_new(context, "audiobook", &spec, nil) else {
            throw OpenError(ABP_ERR_DEVICE, "cannot create a stream: \(contextError)")
        }
        self.stream = stream
        pa_stream_set_write_callback(stream, { _, bytes, userdata in
            Unmanaged<PulseSink>.fromOpaque(userdata!)._withUnsafeGuaranteedRef { $0.refill(bytes: bytes) }
        }, unmanaged)
        pa_stream_set_state_callback(stream, { stream, userdata in
            Unmanaged<PulseSink>.fromOpaque(userdata!)._withUnsafeGuaranteedRef { sink in
                let now = pa_stream_get_state(stream)
                if now == PA_STREAM_FAILED || now == PA_STREAM_TERMINATED { sink.lost() }
                pa_threaded_mainloop_signal(sink.mainloop, 0)
            }
        }, unmanaged)
        pa_stream_set_moved_callback(stream, { _, userdata in
            Unmanaged<PulseSink>.fromOpaque(userdata!)._withUnsafeGuaranteedRef { $0.reporter.post(ABP_ERR_MOVED) }
        }, unmanaged)
        let frameBytes = UInt32(format.channels) * 4
        let targetBytes = UInt32(Int(format.rate) * latencyMilliseconds / 1000) * frameBytes
        var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: targetBytes, prebuf: UInt32.max,
                                        minreq: targetBytes / 4, fragsize: UInt32.max)
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_START_CORKED.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue
            | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue)
        guard pa_stream_connect_playback(stream, sinkName, &attributes, flags, nil, nil) == 0 else {
            throw OpenError(ABP_ERR_DEVICE, "cannot connect a stream\(sinkName.map { " to sink \($0)" } ?? ""): \(contextError)")
        }
        while true {
            let now = pa_stream_get_state(stream)
            if now == PA_STREAM_READY { return }
            if now == PA_STREAM_FAILED || now == PA_STREAM_TERMINATED {
                throw OpenError(ABP_ERR_DEVICE, "the stream failed\(sinkName.map { " on sink \($0)" } ?? ""): \(contextError)")
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    var contextError: String { String(cString: pa_strerror(pa_context_errno(context))) }

    // MARK: The mainloop thread

    /// The write callback. Real-time rules: the sink is reached through an unretained,
    /// guaranteed reference (no retain/release); the state is an atomic; the audio goes from the
    /// host's lock-free pull straight into the buffer the server lends (pa_stream_begin_write,
    /// from its preallocated pool), so nothing of ours allocates; the mainloop lock is the one
    /// PulseAudio already holds around every callback — we take no other.
    func refill(bytes: Int) {
        guard let stream else { return }
        let now = StreamState(rawValue: state.load(ordering: .acquiring))!
        guard now == .running || now == .draining else { return }
        let channels = Int(format.channels)
        let frameBytes = channels * 4
        var remaining = bytes / frameBytes
        while remaining > 0 {
            var data: UnsafeMutableRawPointer?
            var length = remaining * frameBytes
            guard pa_stream_begin_write(stream, &data, &length) == 0, let data, length >= frameBytes else { return }
            let frames = min(remaining, length / frameBytes)
            let buffer = data.assumingMemoryBound(to: Float.self)
            let pulled = source.pull(source.ctx, buffer, frames)
            if pulled < frames && now == .draining {
                // The end of the audio: hand over what there is, and tell drain() (waiting on
                // the mainloop's condition variable, which signalling does not lock).
                if pulled > 0 {
                    pa_stream_write(stream, data, pulled * frameBytes, nil, 0, PA_SEEK_RELATIVE)
                } else {
                    pa_stream_cancel_write(stream)
                }
                state.store(StreamState.drained.rawValue, ordering: .releasing)
                pa_threaded_mainloop_signal(mainloop, 0)
                return
            }
            if pulled < frames {
                // An underrun on our side: silence keeps the stream running.
                (buffer + pulled * channels).update(repeating: 0, count: (frames - pulled) * channels)
            }
            pa_stream_write(stream, data, frames * frameBytes, nil, 0, PA_SEEK_RELATIVE)
            remaining -= frames
        }
    }

    /// The server or the stream went away (context or stream state callback).
    func lost() {
        if !failed.exchange(true, ordering: .acquiringAndReleasing) { reporter.post(ABP_ERR_DEVICE) }
    }

    // MARK: Control (the host's thread)

    func start() -> abp_status {
        withLock {
            state.store(StreamState.running.rawValue, ordering: .releasing)
            // Fill what the server already has room for: it asked before we were pulling.
            if let stream {
                let writable = pa_stream_writable_size(stream)
                if writable != Int.max && writable > 0 { refill(bytes: writable) }
            }
            return cork(false)
        }
    }

    func pause() -> abp_status {
        withLock {
            guard state.load(ordering: .acquiring) == StreamState.running.rawValue else { return ABP_OK }
            state.store(StreamState.paused.rawValue, ordering: .releasing)
            return cork(true)
        }
    }

    func resume() -> abp_status {
        withLock {
            guard state.load(ordering: .acquiring) == StreamState.paused.rawValue else { return ABP_OK }
            state.store(StreamState.running.rawValue, ordering: .releasing)
            if let stream {
                let writable = pa_stream_writable_size(stream)
                if writable != Int.max && writable > 0 { refill(bytes: writable) }
            }
            return cork(false)
        }
    }

    func drain() -> abp_status {
        withLock {
            guard let stream, !failed.load(ordering: .acquiring) else { return fail("the stream is gone") }
            if state.load(ordering: .acquiring) == StreamState.paused.rawValue { _ = cork(false) }
            state.store(StreamState.draining.rawValue, ordering: .releasing)
            let writable = pa_stream_writable_size(stream)
            if writable != Int.max && writable > 0 { refill(bytes: writable) }
            while state.load(ordering: .acquiring) == StreamState.draining.rawValue && !failed.load(ordering: .acquiring) {
                pa_threaded_mainloop_wait(mainloop)
            }
            let status = wait(for: pa_stream_drain(stream, { _, _, userdata in
                pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
            }, UnsafeMutableRawPointer(mainloop)))
            state.store(StreamState.stopped.rawValue, ordering: .releasing)
            return status
        }
    }

    func stop() -> abp_status {
        withLock {
            // Under the mainloop lock no write callback runs; once the state says stopped, none
            // will pull again.
            state.store(StreamState.stopped.rawValue, ordering: .releasing)
            guard let stream, !failed.load(ordering: .acquiring) else { return ABP_OK }
            _ = cork(true)
            return wait(for: pa_stream_flush(stream, { _, _, userdata in
                pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
            }, UnsafeMutableRawPointer(mainloop)))
        }
    }

    var latency: Int64 {
        withLock {
            guard let stream, !failed.load(ordering: .acquiring) else { return 0 }
            var microseconds = pa_usec_t(0)
            var negative: Int32 = 0
            guard pa_stream_get_latency(stream, &microseconds, &negative) == 0, negative == 0 else { return 0 }
            return Int64(microseconds) * Int64(format.rate) / 1_000_000
        }
    }

    func close() {
        pa_threaded_mainloop_lock(mainloop)
        state.store(StreamState.stopped.rawValue, ordering: .releasing)
        if let stream {
            pa_stream_set_write_callback(stream, nil, nil)
            pa_stream_set_state_callback(stream, nil, nil)
            pa_stream_set_moved_callback(stream, nil, nil)
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
            self.stream = nil
        }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
        reporter.stop()
    }

    private func cork(_ on: Bool) -> abp_status {
        guard let stream, !failed.load(ordering: .acquiring) else { return fail("the stream is gone") }
        return wait(for: pa_stream_cork(stream, on ? 1 : 0, { _, _, userdata in
            pa_threaded_mainloop_signal(OpaquePointer(userdata), 0)
        }, UnsafeMutableRawPointer(mainloop)))
    }

    /// Waits (mainloop locked) for an operation to finish; a dead server ends the wait too.
    private func wait(for operation: OpaquePointer?) -> abp_status {
        guard let operation else { return fail("the server refused: \(contextError)") }
        defer { pa_operation_unref(operation) }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING && !failed.load(ordering: .acquiring) {
            pa_threaded_mainloop_wait(mainloop)
        }
        return failed.load(ordering: .acquiring) ? fail("lost the PulseAudio server") : ABP_OK
    }

    private func withLock<T>(_ body: () -> T) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return body()
    }

    private func fail(_ message: String) -> abp_status {
        lastError.set(message)
        return ABP_ERR_DEVICE
    }
}

private struct OpenError: Error {
    let status: abp_status
    let message: String
    init(_ status: abp_status, _ message: String) {
        self.status = status
        self.message = message
    }
}

/// Connects to the server (or $PULSE_SERVER, or the default) and opens a corked stream.
private func openSink(host: UnsafePointer<abp_host_api>?, format: abp_format, options: PluginOptions,
                      source: abp_audio_source) throws -> PulseSink {
    let server = options["server"].flatMap { $0.isEmpty ? nil : $0 }
    let sinkName = options["sink"].flatMap { $0.isEmpty ? nil : $0 }
    let latencyMilliseconds = max(20, try options.int("latency-ms") ?? 200)
    let clientName = options["client-name"] ?? "abplayer"
    guard abp_pulse_load() else {
        throw OpenError(ABP_ERR_UNSUPPORTED, "\(String(cString: abp_pulse_load_error())); install libpulse0")
    }
    guard let mainloop = pa_threaded_mainloop_new() else { throw OpenError(ABP_ERR_NOMEM, "cannot create a mainloop") }
    guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), clientName) else {
        pa_threaded_mainloop_free(mainloop)
        throw OpenError(ABP_ERR_NOMEM, "cannot create a context")
    }
    let sink = PulseSink(mainloop: mainloop, context: context, format: format, source: source, host: host,
                         serverName: server ?? "(default)")
    pa_context_set_state_callback(context, { context, userdata in
        Unmanaged<PulseSink>.fromOpaque(userdata!)._withUnsafeGuaranteedRef { sink in
            let now = pa_context_get_state(context)
            if now == PA_CONTEXT_FAILED || now == PA_CONTEXT_TERMINATED { sink.lost() }
            pa_threaded_mainloop_signal(sink.mainloop, 0)
        }
    }, sink.unmanaged)
    guard pa_threaded_mainloop_start(mainloop) == 0 else {
        sink.close()
        throw OpenError(ABP_ERR_INTERNAL, "cannot start the mainloop thread")
    }
    pa_threaded_mainloop_lock(mainloop)
    var result: OpenError?
    if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
        result = OpenError(ABP_ERR_DEVICE, "no PulseAudio server answers\(server.map { " at \($0)" } ?? ""): \(sink.contextError)")
    } else {
        while true {
            let now = pa_context_get_state(context)
            if now == PA_CONTEXT_READY { break }
            if now == PA_CONTEXT_FAILED || now == PA_CONTEXT_TERMINATED {
                result = OpenError(ABP_ERR_DEVICE, "no PulseAudio server answers\(server.map { " at \($0)" } ?? ""): \(sink.contextError)")
                break
            }
            pa_threaded_mainloop_wait(mainloop)
        }
    }
    if result == nil {
        do { try sink.connectStream(sinkName: sinkName, latencyMilliseconds: latencyMilliseconds) }
        catch { result = error }
    }
    pa_threaded_mainloop_unlock(mainloop)
    if let result {
        sink.close()
        throw result
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
            // PulseAudio converts rate and channels itself, so the sink runs at what was asked.
            let sink = try openSink(host: host, format: requested.pointee,
                                    options: PluginOptions(options, count: optionCount), source: source.pointee)
            actual.pointee = requested.pointee
            out.pointee = OpaquePointer(Unmanaged.passRetained(sink).toOpaque())
            return ABP_OK
        } catch let openError as OpenError {
            writeError(openError.message, to: error, size: errorSize)
            return openError.status
        } catch let other {
            writeError("\(other)", to: error, size: errorSize)
            return ABP_ERR_INVALID
        }
    }
    return ops
}

extension PulseSink: SinkInstance {}

private let descriptor = PluginDescriptor(
    id: "pulse", name: "PulseAudio output", version: "1.0.0",
    description: "Plays through a PulseAudio (or PipeWire-pulse) server",
    capabilities: ABP_CAP_PAUSE | ABP_CAP_LATENCY | ABP_CAP_REALTIME, priority: 30,
    options: [
        .init("server", ABP_OPTION_STRING, default: nil, help: "server address (default: $PULSE_SERVER or the user's)"),
        .init("sink", ABP_OPTION_STRING, default: nil, help: "sink name (default: the server's default sink)"),
        .init("latency-ms", ABP_OPTION_INT, default: "200", help: "target buffer length in milliseconds"),
        .init("client-name", ABP_OPTION_STRING, default: "abplayer", help: "the name the server shows"),
    ],
    argumentOption: "sink",
    sink: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
