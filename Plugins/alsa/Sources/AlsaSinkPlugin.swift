// The ALSA output: a writer thread pulls a period from the host and hands it to snd_pcm_writei,
// waiting in snd_pcm_wait while the device is full (the device is the clock). Underruns are recovered with
// snd_pcm_recover; a device that disappears is reported to the host and the thread stops.
public import ABPluginABI
import CAlsa
import PluginKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the writer thread is asked to do. Stored in an atomic: the writer never takes a lock.
private enum WriterState: Int {
    case stopped, running, paused, draining, drained, failed, exiting
}

private final class AlsaSink: @unchecked Sendable {
    let pcm: OpaquePointer
    let device: String
    let format: abp_format
    let source: abp_audio_source
    let host: Host
    let lastError = LastError()
    let periodFrames: Int
    let canPause: Bool
    /// The device takes 16-bit integers when it refused floats (plain `hw:` devices).
    let sampleFormat: snd_pcm_format_t
    /// One period, allocated at open so the writer thread never allocates.
    let floats: UnsafeMutablePointer<Float>
    let shorts: UnsafeMutablePointer<Int16>
    let reporter: StatusReporter

    private let state = Atomic<Int>(WriterState.stopped.rawValue)
    /// True while the writer sleeps (not inside pull or writei). Set before it reads the state,
    /// so a control call that changes the state and then sees `parked` false knows the writer
    /// will see the new state before it pulls again (both sides use sequentially consistent order).
    private let parked = Atomic<Bool>(true)
    private let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private let parkedSignal = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private var thread: pthread_t?
    private var pausedInDevice = false

    init(pcm: OpaquePointer, device: String, format: abp_format, sampleFormat: snd_pcm_format_t,
         periodFrames: Int, canPause: Bool, source: abp_audio_source, host: Host) {
        self.pcm = pcm
        self.device = device
        self.format = format
        self.sampleFormat = sampleFormat
        self.periodFrames = periodFrames
        self.canPause = canPause
        self.source = source
        self.host = host
        floats = .allocate(capacity: periodFrames * Int(format.channels))
        shorts = .allocate(capacity: periodFrames * Int(format.channels))
        reporter = StatusReporter(source: source, host: host.api) { [device] status in
            status == ABP_OK ? "ALSA device \(device) is back" : "ALSA device \(device) stopped working (unplugged?)"
        }
        sem_init(wake, 0, 0)
        sem_init(parkedSignal, 0, 0)
    }

    deinit {
        sem_destroy(wake)
        sem_destroy(parkedSignal)
        wake.deallocate()
        parkedSignal.deallocate()
        floats.deallocate()
        shorts.deallocate()
    }

    // MARK: Control (the host's thread)

    func start() -> abp_status {
        if thread == nil {
            var handle = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            guard pthread_create(&handle, nil, { context in
                let sink = Unmanaged<AlsaSink>.fromOpaque(context!)
                sink.takeUnretainedValue().write()
                sink.release()
                return nil
            }, context) == 0 else {
                Unmanaged<AlsaSink>.fromOpaque(context).release()
                lastError.set("cannot start the writer thread")
                return ABP_ERR_INTERNAL
            }
            thread = handle
        }
        let current = snd_pcm_state(pcm)
        if current != SND_PCM_STATE_PREPARED && current != SND_PCM_STATE_RUNNING {
            let result = snd_pcm_prepare(pcm)
            if result < 0 { return fail("cannot prepare \(device): \(alsaError(result))") }
        }
        set(.running)
        return ABP_OK
    }

    func pause() -> abp_status {
        guard currentState == .running || currentState == .draining else { return ABP_OK }
        set(.paused)
        waitUntilParked()
        // A real pause keeps the device's queue, so resume continues from the same frame;
        // devices that cannot pause lose what is queued (at most the device latency).
        if canPause && snd_pcm_pause(pcm, 1) == 0 {
            pausedInDevice = true
        } else {
            snd_pcm_drop(pcm)
            pausedInDevice = false
        }
        return ABP_OK
    }

    func resume() -> abp_status {
        guard currentState == .paused else { return ABP_OK }
        if pausedInDevice {
            if snd_pcm_pause(pcm, 0) < 0 { snd_pcm_prepare(pcm) }
        } else {
            snd_pcm_prepare(pcm)
        }
        pausedInDevice = false
        set(.running)
        return ABP_OK
    }

    func drain() -> abp_status {
        guard currentState == .running || currentState == .paused else { return ABP_OK }
        if currentState == .paused { _ = resume() }
        set(.draining)
        while currentState == .draining { waitForParkedSignal() }
        if currentState == .failed { return fail("\(device) stopped working while draining") }
        // Drain blocks until the device has played everything: in non-blocking mode it would
        // only say -EAGAIN.
        snd_pcm_nonblock(pcm, 0)
        let result = snd_pcm_drain(pcm)
        snd_pcm_nonblock(pcm, 1)
        if result < 0 { return fail("cannot drain \(device): \(alsaError(result))") }
        set(.stopped)
        return ABP_OK
    }

    func stop() -> abp_status {
        if currentState != .failed { set(.stopped) }
        waitUntilParked()
        snd_pcm_drop(pcm)
        pausedInDevice = false
        return ABP_OK
    }

    var latency: Int64 {
        var delay = snd_pcm_sframes_t(0)
        guard currentState != .failed, snd_pcm_delay(pcm, &delay) == 0 else { return 0 }
        return Int64(max(0, delay))
    }

    func close() {
        set(.exiting)
        if let thread { pthread_join(thread, nil) }
        thread = nil
        reporter.stop()
        snd_pcm_close(pcm)
    }

    private var currentState: WriterState { WriterState(rawValue: state.load(ordering: .sequentiallyConsistent))! }

    private func set(_ newState: WriterState) {
        state.store(newState.rawValue, ordering: .sequentiallyConsistent)
        sem_post(wake)
    }

    /// Waits until the writer is outside pull and writei: at most one period, the time a
    /// blocking writei takes to find room.
    private func waitUntilParked() {
        while !parked.load(ordering: .sequentiallyConsistent) && thread != nil { waitForParkedSignal() }
    }

    private func waitForParkedSignal() {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_nsec += 20_000_000
        if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
        _ = sem_timedwait(parkedSignal, &deadline)
    }

    private func fail(_ message: String) -> abp_status {
        lastError.set(message)
        return ABP_ERR_DEVICE
    }

    // MARK: The writer thread

    /// Real-time rules on this thread: the buffers were allocated at open; the state is an
    /// atomic; the sink is reached through the reference the thread was started with (no
    /// retain/release per period); the host's pull() is lock-free. Its only I/O is the device
    /// write itself, whose blocking is what paces it. It sleeps on a semaphore when not playing.
    private func write() {
        while true {
            parked.store(false, ordering: .sequentiallyConsistent)
            let now = WriterState(rawValue: state.load(ordering: .sequentiallyConsistent))!
            switch now {
            case .exiting:
                parked.store(true, ordering: .sequentiallyConsistent)
                sem_post(parkedSignal)
                return
            case .running, .draining:
                let pulled = source.pull(source.ctx, floats, periodFrames)
                if pulled == 0 && now == .running {
                    // The host has nothing yet (it is decoding). Writing silence would put a gap
                    // into the audio on a device that takes data faster than real time (a file
                    // PCM); a short nap costs a real device at most a recoverable underrun.
                    var nap = timespec(tv_sec: 0, tv_nsec: 2_000_000)
                    nanosleep(&nap, nil)
                    continue
                }
                if pulled > 0 && !writeToDevice(frames: pulled) {
                    state.store(WriterState.failed.rawValue, ordering: .sequentiallyConsistent)
                    // This thread does no more audio from here on, so it may call the host.
                    reporter.post(ABP_ERR_DEVICE)
                    continue
                }
                if now == .draining && pulled < periodFrames {
                    _ = state.compareExchange(expected: WriterState.draining.rawValue, desired: WriterState.drained.rawValue,
                                          ordering: .sequentiallyConsistent)
                    sem_post(parkedSignal)
                }
            case .stopped, .paused, .drained, .failed:
                parked.store(true, ordering: .sequentiallyConsistent)
                sem_post(parkedSignal)
                while sem_wait(wake) == -1 && errno == EINTR {}
            }
        }
    }

    /// How long a device may take no audio at all, while playing, before it counts as gone.
    private static let stallLimitSeconds = 3

    /// Writes `frames` frames, recovering from underruns and suspends. False when the device is
    /// gone, refuses for good, or took nothing for `stallLimitSeconds`.
    private func writeToDevice(frames: Int) -> Bool {
        let channels = Int(format.channels)
        let buffer: UnsafeRawPointer
        if sampleFormat == SND_PCM_FORMAT_S16_LE {
            for index in 0..<(frames * channels) {
                shorts[index] = Int16(max(-1, min(1, floats[index])) * 32767)
            }
            buffer = UnsafeRawPointer(shorts)
        } else {
            buffer = UnsafeRawPointer(floats)
        }
        let bytesPerFrame = channels * (sampleFormat == SND_PCM_FORMAT_S16_LE ? 2 : 4)
        var done = 0
        var recoveries = 0
        var lastProgress = monotonicSeconds()
        while done < frames {
            let written = snd_pcm_writei(pcm, buffer + done * bytesPerFrame, snd_pcm_uframes_t(frames - done))
            if written > 0 {
                done += written
                lastProgress = monotonicSeconds()
                continue
            }
            var error = written == 0 ? -EAGAIN : Int32(written)
            if error == -EAGAIN {
                // The device is full: wait for room, but not forever. A device can stop taking
                // audio without an error (alsa-plugins' pulse PCM whose server died can say
                // "ready" and then "try again" for good); when nothing went in for
                // `stallLimitSeconds` by the clock, it counts as gone.
                if monotonicSeconds() - lastProgress >= Double(Self.stallLimitSeconds) { return false }
                let ready = snd_pcm_wait(pcm, 1000)
                if ready >= 0 {
                    if ready == 0, currentState != .running && currentState != .draining { return true }
                    continue
                }
                error = ready
            }
            if error == -ENODEV || error == -EBADFD || error == -EIO || recoveries > 5 { return false }
            // -EPIPE (underrun) and -ESTRPIPE (suspend): the documented recovery.
            if snd_pcm_recover(pcm, error, 1) < 0 { return false }
            recoveries += 1
            if currentState != .running && currentState != .draining { return true }
        }
        return true
    }
}

private func alsaError(_ code: Int32) -> String { String(cString: snd_strerror(code)) }

/// Opens `device` and sets it up as close to `requested` as it goes; returns the PCM, the
/// format it runs at, its sample format, period and whether it can pause.
private func openDevice(_ device: String, requested: abp_format, bufferMilliseconds: Int) throws(SinkOpenError)
    -> (OpaquePointer, abp_format, snd_pcm_format_t, Int, Bool) {
    guard abp_alsa_load() else {
        throw SinkOpenError(ABP_ERR_UNSUPPORTED, "\(String(cString: abp_alsa_load_error())); install libasound2")
    }
    var handle: OpaquePointer?
    // Non-blocking: the writer waits for room itself, with a timeout (see `writeToDevice`).
    var result = snd_pcm_open(&handle, device, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK)
    guard result == 0, let pcm = handle else {
        throw SinkOpenError(ABP_ERR_DEVICE, "cannot open ALSA device \(device): \(alsaError(result))")
    }
    var params: OpaquePointer?
    snd_pcm_hw_params_malloc(&params)
    defer { snd_pcm_hw_params_free(params) }
    func check(_ code: Int32, _ what: String) throws(SinkOpenError) {
        if code < 0 {
            snd_pcm_close(pcm)
            throw SinkOpenError(ABP_ERR_UNSUPPORTED, "\(device): cannot set \(what): \(alsaError(code))")
        }
    }
    try check(snd_pcm_hw_params_any(pcm, params), "parameters")
    try check(snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED), "interleaved access")
    var sampleFormat = SND_PCM_FORMAT_FLOAT_LE
    if snd_pcm_hw_params_set_format(pcm, params, sampleFormat) < 0 {
        sampleFormat = SND_PCM_FORMAT_S16_LE
        try check(snd_pcm_hw_params_set_format(pcm, params, sampleFormat), "a sample format (float or 16-bit)")
    }
    var channels = UInt32(requested.channels)
    try check(snd_pcm_hw_params_set_channels_near(pcm, params, &channels), "\(requested.channels) channels")
    var rate = UInt32(requested.rate)
    var direction: Int32 = 0
    try check(snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &direction), "rate \(requested.rate)")
    var bufferTime = UInt32(bufferMilliseconds * 1000)
    try check(snd_pcm_hw_params_set_buffer_time_near(pcm, params, &bufferTime, &direction), "buffer time")
    var periodTime = bufferTime / 4
    try check(snd_pcm_hw_params_set_period_time_near(pcm, params, &periodTime, &direction), "period time")
    result = snd_pcm_hw_params(pcm, params)
    try check(result, "hardware parameters")
    var periodFrames = snd_pcm_uframes_t(0)
    snd_pcm_hw_params_get_period_size(params, &periodFrames, &direction)
    let canPause = snd_pcm_hw_params_can_pause(params) == 1
    return (pcm, abp_format(rate: rate, channels: channels), sampleFormat, max(64, Int(periodFrames)), canPause)
}

private struct SinkOpenError: Error {
    let status: abp_status
    let message: String
    init(_ status: abp_status, _ message: String) {
        self.status = status
        self.message = message
    }
}

private func makeOps() -> abp_sink_ops {
    var ops = sinkControlOps()
    ops.open = { host, requested, options, optionCount, source, out, actual, error, errorSize in
        guard let requested, let source, let out, let actual, source.pointee.pull != nil else {
            writeError("open called without a format, a source or an output", to: error, size: errorSize)
            return ABP_ERR_INVALID
        }
        let options = PluginOptions(options, count: optionCount)
        let device = options["device"] ?? "default"
        do {
            let bufferMilliseconds = try options.int("buffer-ms") ?? 200
            let (pcm, format, sampleFormat, period, canPause) = try openDevice(
                device, requested: requested.pointee, bufferMilliseconds: max(20, bufferMilliseconds))
            let sink = AlsaSink(pcm: pcm, device: device, format: format, sampleFormat: sampleFormat,
                                periodFrames: period, canPause: canPause, source: source.pointee,
                                host: Host(host, pluginID: "alsa", subject: device))
            actual.pointee = format
            out.pointee = OpaquePointer(Unmanaged.passRetained(sink).toOpaque())
            return ABP_OK
        } catch let optionError as PluginOptionError {
            writeError("\(optionError)", to: error, size: errorSize)
            return ABP_ERR_INVALID
        } catch let openError as SinkOpenError {
            writeError(openError.message, to: error, size: errorSize)
            return openError.status
        } catch {
            return ABP_ERR_INTERNAL
        }
    }
    return ops
}

extension AlsaSink: SinkInstance {}

private let descriptor = PluginDescriptor(
    id: "alsa", name: "ALSA output", version: "1.0.0",
    description: "Plays through an ALSA PCM device (hw:, plughw:, default, or any asoundrc PCM)",
    capabilities: ABP_CAP_PAUSE | ABP_CAP_LATENCY | ABP_CAP_FIXED_RATE | ABP_CAP_REALTIME, priority: 10,
    options: [
        .init("device", ABP_OPTION_STRING, default: "default", help: "the ALSA PCM to open, e.g. hw:1,0"),
        .init("buffer-ms", ABP_OPTION_INT, default: "200", help: "device buffer length in milliseconds"),
    ],
    argumentOption: "device",
    sink: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    return descriptor.entry(for: host)
}

private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
