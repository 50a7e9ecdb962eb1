#if canImport(Glibc)
import Glibc
#endif
public import ABPluginABI
import Synchronization

/// Carries a sink's status reports (device lost, stream moved, back again) off its audio thread.
///
/// The host's `status` callback may lock and allocate, so an audio thread (the JACK process or
/// shutdown callback, the PulseAudio mainloop, an ALSA writer) must not call it. It calls `post`
/// instead: one atomic store and a `sem_post`, both real-time safe. A small thread of our own
/// waits on the semaphore, builds the message and calls the host. Reports that arrive faster
/// than the host takes them are coalesced: the latest wins, which is the state that matters.
public final class StatusReporter: @unchecked Sendable {
    public typealias Describe = @Sendable (abp_status) -> String

    private let source: abp_audio_source
    private let describe: Describe
    /// The status waiting to be reported, or `Self.none`.
    private let pending = Atomic<Int>(StatusReporter.none)
    private let exiting = Atomic<Bool>(false)
    private let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private var thread: pthread_t?
    private static let none = Int.min

    /// `host`: every 1.x host takes every status (ABP_ERR_MOVED is 1.0), so nothing depends on it.
    public init(source: abp_audio_source, host: UnsafePointer<abp_host_api>?, describe: @escaping Describe) {
        self.source = source
        self.describe = describe
        sem_init(wake, 0, 0)
        guard source.status != nil else { return }
        var handle = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        if pthread_create(&handle, nil, { context in
            let reporter = Unmanaged<StatusReporter>.fromOpaque(context!)
            reporter.takeUnretainedValue().run()
            reporter.release()
            return nil
        }, context) == 0 {
            thread = handle
        } else {
            Unmanaged<StatusReporter>.fromOpaque(context).release()
        }
    }

    deinit {
        sem_destroy(wake)
        wake.deallocate()
    }

    /// Real-time safe: no lock, no allocation, no retain (call through a guaranteed reference).
    public func post(_ status: abp_status) {
        pending.store(Int(status.rawValue), ordering: .releasing)
        sem_post(wake)
    }

    /// Ends the thread; reports not yet delivered are dropped. Call before the sink is freed.
    public func stop() {
        exiting.store(true, ordering: .releasing)
        sem_post(wake)
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    private func run() {
        while true {
            while sem_wait(wake) == -1 && errno == EINTR {}
            if exiting.load(ordering: .acquiring) { return }
            let raw = pending.exchange(Self.none, ordering: .acquiringAndReleasing)
            guard raw != Self.none, let report = source.status else { continue }
            let status = abp_status(rawValue: Int32(raw))
            describe(status).withCString { report(source.ctx, status, $0) }
        }
    }
}
