import ABPluginABI
import Foundation
public import PlayerCore

/// A sink plugin's instance seen as a `Sink`. Owns the source table the plugin pulls through and
/// keeps the ring buffer alive for as long as the plugin may call `pull`.
final class PluginSink: Sink {
    let format: AudioFormat
    let name: String
    private let ops: abp_sink_ops
    private let instance: OpaquePointer
    /// The ring `pull` reads: the one given at open, or one `adopt` gave before start.
    private var ring: RingBuffer
    private var started = false
    private let source: UnsafeMutablePointer<abp_audio_source>
    /// What `source.ctx` points to: the ring (for pull) and the status box (for status), as two
    /// raw pointers, so that pull reaches the ring without touching any Swift object but it.
    private let sourceContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    private let statusBox: StatusBox?
    private var isClosed = false

    init(plugin: LoadedPlugin, ops: abp_sink_ops, requested: AudioFormat, options: [String: String],
         ring: RingBuffer, hostAPI: PluginHostAPI, statusHandler: SinkStatusHandler?) throws {
        self.ops = ops
        self.ring = ring
        name = plugin.id
        let source = UnsafeMutablePointer<abp_audio_source>.allocate(capacity: 1)
        self.source = source
        source.initialize(to: abp_audio_source())
        source.pointee.struct_size = UInt32(MemoryLayout<abp_audio_source>.size)
        let box = statusHandler.map(StatusBox.init)
        statusBox = box
        sourceContext = .allocate(capacity: 2)
        sourceContext[0] = Unmanaged.passUnretained(ring).toOpaque()
        sourceContext[1] = box.map { Unmanaged.passUnretained($0).toOpaque() }
        source.pointee.ctx = UnsafeMutableRawPointer(sourceContext)
        // Runs on the sink's audio thread: no allocation, lock or retain/release. The ring is kept
        // alive by this object, so an unretained, guaranteed reference is safe.
        source.pointee.pull = { context, buffer, frames in
            guard let context, let buffer,
                  let ring = context.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)[0] else { return 0 }
            return Unmanaged<RingBuffer>.fromOpaque(ring)._withUnsafeGuaranteedRef {
                size_t($0.read(into: buffer, frames: Int(frames)))
            }
        }
        // Blocks: for sinks with no clock of their own, after an underrun.
        source.pointee.wait = { context, frames, timeoutMilliseconds in
            guard let context, let ring = context.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)[0] else { return }
            Unmanaged<RingBuffer>.fromOpaque(ring)._withUnsafeGuaranteedRef {
                $0.waitForData(frames: Int(frames), timeout: Double(timeoutMilliseconds) / 1000)
            }
        }
        // Not real-time: plugins call it from a thread of their own (the ABI says so).
        source.pointee.status = { context, status, message in
            guard let context, let box = context.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)[1] else { return }
            let text = message.map { String(cString: $0) } ?? ""
            let report: SinkStatus = switch status {
            case ABP_OK: .restored(text)
            case ABP_ERR_MOVED: .moved(text)
            default: .lost(text)
            }
            Unmanaged<StatusBox>.fromOpaque(box).takeUnretainedValue().handler(report)
        }

        var requestedFormat = abp_format(rate: UInt32(requested.rate), channels: UInt32(requested.channels))
        var actual = abp_format()
        var opened: OpaquePointer?
        let names = options.keys.sorted()
        let open = ops.open!
        let (status, message) = withCStringOptions(names.map { ($0, options[$0]!) }) { cOptions, count in
            withErrorBuffer { buffer, size in
                open(hostAPI.table, &requestedFormat, cOptions, count, source, &opened, &actual, buffer, size)
            }
        }
        guard status == ABP_OK, let opened else {
            source.deallocate()
            sourceContext.deallocate()
            throw AudioError(status: status == ABP_OK ? ABP_ERR_INTERNAL : status, subject: "output \(plugin.id)", message: message)
        }
        instance = opened
        format = AudioFormat(rate: Int(actual.rate), channels: Int(actual.channels))
    }

    deinit {
        close()
        source.deallocate()
        sourceContext.deallocate()
    }

    // A sink thread sleeping in the source's `wait` looks again at once when asked to pause,
    // drain, stop or close, instead of at its timeout.
    func start() throws {
        started = true
        try check(ops.start(instance))
    }

    /// plugin.h: a sink does not pull before start(), so the ring its source reads can still be
    /// swapped for one of the format it really runs at, without opening it again.
    func adopt(_ ring: RingBuffer) -> Bool {
        guard !started, !isClosed, ring.channels == format.channels else { return false }
        self.ring = ring
        sourceContext[0] = Unmanaged.passUnretained(ring).toOpaque()
        return true
    }
    func pause() throws {
        ring.wakeConsumerNow()
        try check(ops.pause(instance))
    }
    func resume() throws { try check(ops.resume(instance)) }
    func drain() throws {
        ring.wakeConsumerNow()
        guard let drain = ops.drain else { return try drainByWaiting() }
        try check(drain(instance))
    }
    func stop() throws {
        ring.wakeConsumerNow()
        try check(ops.stop(instance))
    }
    /// What the plugin reports, or 0 when it has no `latency` (the ABI allows NULL: positions then
    /// run ahead of what is heard by whatever the device holds).
    var latencyFrames: Int64 { ops.latency.map { max(0, $0(instance)) } ?? 0 }

    /// For a sink without `drain`: waits until it has pulled everything, then for its latency,
    /// then stops it. A sink that stops pulling for 2 s is taken as done (it would never drain).
    private func drainByWaiting() throws {
        let clock = ContinuousClock()
        var lastProgress = clock.now
        var lastRead = ring.framesRead
        while ring.availableFrames > 0 {
            ring.waitForSpace(timeout: 0.1)
            if ring.framesRead != lastRead {
                (lastRead, lastProgress) = (ring.framesRead, clock.now)
            } else if clock.now - lastProgress > .seconds(2) {
                break
            }
        }
        let heldSeconds = Double(latencyFrames) / Double(max(format.rate, 1))
        // What the device still holds plays out before it stops (drain runs off the audio thread).
        if heldSeconds > 0 { usleep(useconds_t(min(heldSeconds, 10) * 1_000_000)) }
        try stop()
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        ring.wakeConsumerNow()
        ops.close(instance)
    }

    /// The plugin's reason for its last failure; empty when it has no `last_error` (may be NULL).
    private var lastError: String {
        ops.last_error.flatMap { $0(instance) }.map { String(cString: $0) } ?? ""
    }

    private func check(_ status: abp_status) throws {
        guard status == ABP_OK else {
            throw AudioError(status: status, subject: "output \(name)", message: lastError)
        }
    }
}

/// Told when an output stops working, is moved, or comes back; called on a plugin's own
/// (non-audio) thread.
public typealias SinkStatusHandler = @Sendable (SinkStatus) -> Void

/// Holds the status handler for the C callback's context.
private final class StatusBox: Sendable {
    let handler: SinkStatusHandler
    init(_ handler: @escaping SinkStatusHandler) { self.handler = handler }
}

/// Lends `options` to C as an `abp_option` array for the duration of `body`.
func withCStringOptions<T>(_ options: [(String, String)], _ body: (UnsafePointer<abp_option>?, Int) -> T) -> T {
    let owned = options.map { (strdup($0.0)!, strdup($0.1)!) }
    defer { owned.forEach { free($0.0); free($0.1) } }
    let table = owned.map { abp_option(name: $0.0, value: $0.1) }
    return table.withUnsafeBufferPointer { body($0.baseAddress, $0.count) }
}
