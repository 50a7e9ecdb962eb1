// The null output: pulls audio and discards it, paced like a sound card or as fast as the host
// supplies it. Useful for benchmarks (unpaced), for testing the pipeline, and as the output of
// last resort when no real one opens.
public import ABPluginABI
import PluginKit

private final class NullSink {
    let format: abp_format
    let source: abp_audio_source
    let lastError = LastError()
    /// Scratch space for one period, allocated at open so the pull thread never allocates.
    let scratch: UnsafeMutableBufferPointer<Float>
    private(set) var thread: PullThread!

    init(format: abp_format, source: abp_audio_source, paced: Bool) {
        self.format = format
        self.source = source
        // 20 ms, like a typical device period; unpaced, 3 s (as much as the host's longest ring
        // hands over at once: it wakes a pull when three quarters of the ring are ready), to
        // take the ring in few pulls: a decode as fast as it goes (`abplayer decode`, a 4 s
        // ring) then wakes once per 3 s of audio.
        let periodFrames = paced ? Int(format.rate) / 50 : Int(format.rate) * 3
        scratch = .allocate(capacity: periodFrames * Int(format.channels))
        let pacing: PullThread.Pacing = paced ? .realTime(rate: Int(format.rate)) : .unpaced
        thread = PullThread(periodFrames: periodFrames, pacing: pacing, waitForAudio: source.pullThreadWait) { [source, scratch] frames in
            source.pull(source.ctx, scratch.baseAddress, frames)
        }
    }

    deinit { scratch.deallocate() }
}

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_sink_ops {
    var ops = sinkControlOps()
    ops.open = { _, requested, options, optionCount, source, out, actual, error, errorSize in
        guard let requested, let source, let out, let actual, source.pointee.pull != nil else {
            writeError("open called without a format, a source or an output", to: error, size: errorSize)
            return ABP_ERR_INVALID
        }
        let paced: Bool
        do {
            paced = try PluginOptions(options, count: optionCount).bool("paced") ?? true
        } catch let optionError {
            writeError("\(optionError)", to: error, size: errorSize)
            return ABP_ERR_INVALID
        }
        let sink = NullSink(format: requested.pointee, source: source.pointee, paced: paced)
        actual.pointee = requested.pointee
        out.pointee = OpaquePointer(Unmanaged.passRetained(sink).toOpaque())
        return ABP_OK
    }
    return ops
}

extension NullSink: SinkInstance {
    func start() -> abp_status { thread.start() ? ABP_OK : ABP_ERR_INTERNAL }
    func pause() -> abp_status { thread.pause(); return ABP_OK }
    func resume() -> abp_status { thread.resume(); return ABP_OK }
    var latency: Int64 { 0 } // what is pulled is "heard" at once
    func drain() -> abp_status { thread.drain(); return ABP_OK }
    func stop() -> abp_status { thread.pause(); return ABP_OK }
    func close() { thread.stop() }
}

private let descriptor = PluginDescriptor(
    id: "null", name: "Null output", version: "1.0.0",
    description: "Discards audio, paced in real time or as fast as possible",
    capabilities: ABP_CAP_PAUSE | ABP_CAP_REALTIME, priority: -100,
    options: [.init("paced", ABP_OPTION_BOOL, default: "true", help: "consume audio in real time (false: as fast as decoded)")],
    sink: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
