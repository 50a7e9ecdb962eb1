public import ABPluginABI

/// What the host's control calls (start ... close) reach in a sink instance. They come from the
/// host's thread, never the audio thread, so the dynamic cast in `sinkControlOps()` is allowed.
public protocol SinkInstance: AnyObject {
    func start() -> abp_status
    func pause() -> abp_status
    func resume() -> abp_status
    var latency: Int64 { get }
    func drain() -> abp_status
    func stop() -> abp_status
    var lastError: LastError { get }
    func close()
}

/// A sink ops table whose control calls forward to the `SinkInstance` that `open` hands out
/// as `Unmanaged.passRetained(instance)`; `close` closes it and drops that reference. The
/// plugin sets `open` itself (its options and errors are its own).
public func sinkControlOps() -> abp_sink_ops {
    abp_sink_ops(
        struct_size: 0,
        open: nil,
        start: { sink in sinkInstance(sink).start() },
        pause: { sink in sinkInstance(sink).pause() },
        resume: { sink in sinkInstance(sink).resume() },
        latency: { sink in sinkInstance(sink).latency },
        drain: { sink in sinkInstance(sink).drain() },
        stop: { sink in sinkInstance(sink).stop() },
        last_error: { sink in sinkInstance(sink).lastError.pointer },
        close: { sink in
            let unmanaged = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(sink!))
            (unmanaged.takeUnretainedValue() as! any SinkInstance).close()
            unmanaged.release()
        },
        reserved: (nil, nil, nil, nil, nil, nil, nil, nil)
    )
}

private func sinkInstance(_ sink: OpaquePointer?) -> any SinkInstance {
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(sink!)).takeUnretainedValue() as! any SinkInstance
}
