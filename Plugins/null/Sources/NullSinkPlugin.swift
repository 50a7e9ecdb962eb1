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
        // 20 ms, like a typical device period; unpaced, 100 ms, to take the ring in few pulls.
        let periodFrames = Int(format.rate) / (paced ? 50 : 10)
        scratch = .allocate(capacity: periodFrames * Int(format.channels))
        let pacing: PullThread.Pacing = paced ? .realTime(rate: Int(format.rate)) : .unpaced
        thread = PullThread(periodFrames: periodFrames, pacing: pacing) { [source, scratch] frames in
            source.pull(source.ctx, scratch.baseAddress, frames)
        }
    }

    deinit { scratch.deallocate() }
}

private func instance(_ sink: OpaquePointer?) -> NullSink {
    Unmanaged<NullSink>.fromOpaque(UnsafeRawPointer(sink!)).takeUnretainedValue()
}

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_sink_ops {
    abp_sink_ops(
    struct_size: 0,
    open: { _, requested, options, optionCount, source, out, actual, error, errorSize in
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
    },
    start: { sink in
        instance(sink).thread.start() ? ABP_OK : ABP_ERR_INTERNAL
    },
    pause: { sink in instance(sink).thread.pause(); return ABP_OK },
    resume: { sink in instance(sink).thread.resume(); return ABP_OK },
    latency: { _ in 0 }, // what is pulled is "heard" at once
    drain: { sink in instance(sink).thread.drain(); return ABP_OK },
    stop: { sink in instance(sink).thread.pause(); return ABP_OK },
    last_error: { sink in instance(sink).lastError.pointer },
    close: { sink in
        let unmanaged = Unmanaged<NullSink>.fromOpaque(UnsafeRawPointer(sink!))
        unmanaged.takeUnretainedValue().thread.stop()
        unmanaged.release()
    },
    reserved: (nil, nil, nil, nil, nil, nil, nil, nil)
    )
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
