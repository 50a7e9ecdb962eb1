#if canImport(Glibc)
import Glibc
#endif

/// The thread that stands in for an audio device in sinks that have none (null, wav): it calls
/// `render` once a period, either paced by the monotonic clock like a sound card, or as fast as
/// the host supplies audio. Pausing, draining and stopping are requests the thread honours
/// between periods.
///
/// This is not a real-time audio callback (nothing is waiting on a deadline it could miss), so it
/// uses an ordinary mutex and condition variable for its state.
public final class PullThread: @unchecked Sendable {
    public enum Pacing: Sendable, Equatable {
        case realTime(rate: Int)
        case unpaced
    }

    private enum State { case idle, running, paused, draining, drained, exiting }

    /// Called on the thread once a period; returns how many frames the host supplied. Fewer than
    /// `periodFrames` is an underrun while running, and the end of the audio while draining.
    public typealias Render = (_ periodFrames: Int) -> Int
    /// Sleeps until the host has `frames` frames ready, or a timeout passes (the source's `wait`).
    public typealias WaitForAudio = (_ frames: Int) -> Void

    private let periodFrames: Int
    private let pacing: Pacing
    private let render: Render
    private let waitForAudio: WaitForAudio?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var state = State.idle // guarded by mutex
    /// True while `render` runs (guarded by mutex): pause waits it out, so that once pause returns
    /// the host's pull() is not called until resume.
    private var rendering = false
    private var thread: pthread_t?

    /// `waitForAudio`: how to sleep after an underrun when unpaced (nil: a short nap).
    public init(periodFrames: Int, pacing: Pacing, waitForAudio: WaitForAudio? = nil, render: @escaping Render) {
        self.periodFrames = periodFrames
        self.pacing = pacing
        self.waitForAudio = waitForAudio
        self.render = render
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Starts the thread (the first time) or starts pulling again after a drain. Returns false if
    /// the thread could not be created.
    public func start() -> Bool {
        withLock { if state != .exiting { state = .running } }
        guard thread == nil else { return true }
        var handle = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let result = pthread_create(&handle, nil, { context in
            let pullThread = Unmanaged<PullThread>.fromOpaque(context!)
            pullThread.takeUnretainedValue().run()
            pullThread.release()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<PullThread>.fromOpaque(context).release()
            return false
        }
        thread = handle
        return true
    }

    /// Stops pulling; when it returns, no period is in progress and none starts until `resume`.
    public func pause() {
        pthread_mutex_lock(mutex)
        if state == .running || state == .draining { state = .paused }
        pthread_cond_broadcast(condition)
        while rendering { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    public func resume() { withLock { if state == .paused { state = .running } } }

    /// Blocks until `render` has come up short once in draining mode (the host's audio is all
    /// consumed), or the thread was stopped.
    public func drain() {
        pthread_mutex_lock(mutex)
        if state == .running || state == .paused { state = .draining }
        pthread_cond_broadcast(condition)
        while state == .draining { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Ends the thread and waits for it. After this `render` is not called again, unless `start`
    /// makes a new thread.
    public func stop() {
        withLock { state = .exiting }
        if let thread { pthread_join(thread, nil) }
        thread = nil
        withLock { state = .idle }
    }

    private func withLock(_ body: () -> Void) {
        pthread_mutex_lock(mutex)
        body()
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    private func run() {
        var clock = PeriodClock(pacing: pacing)
        pthread_mutex_lock(mutex)
        while true {
            while state == .idle || state == .paused || state == .drained {
                pthread_cond_wait(condition, mutex)
                clock.restart()
            }
            if state == .exiting { break }
            let draining = state == .draining
            rendering = true
            pthread_mutex_unlock(mutex)

            let supplied = render(periodFrames)
            // A device consumes a whole period whatever it got (silence fills the rest).
            clock.wait(afterFrames: periodFrames)
            if supplied < periodFrames && !draining, case .unpaced = pacing {
                // An underrun with no clock to wait on: the host's decoder is behind. Sleep until
                // it has a period ready (the source's wait), rather than spin.
                if let waitForAudio {
                    waitForAudio(periodFrames)
                } else {
                    // A source without wait: nap. Short: at decoding speed the host refills half a
                    // second of audio in well under a millisecond, so a longer nap would make
                    // this thread the bottleneck.
                    var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
                    nanosleep(&pause, nil)
                }
            }

            pthread_mutex_lock(mutex)
            rendering = false
            if draining && supplied < periodFrames && state == .draining { state = .drained }
            pthread_cond_broadcast(condition)
        }
        pthread_mutex_unlock(mutex)
    }
}

/// Absolute deadlines on the monotonic clock, so pacing does not drift with scheduling delays.
private struct PeriodClock {
    let pacing: PullThread.Pacing
    private var epoch = timespec()
    private var framesSinceEpoch = 0

    init(pacing: PullThread.Pacing) {
        self.pacing = pacing
        restart()
    }

    mutating func restart() {
        clock_gettime(CLOCK_MONOTONIC, &epoch)
        framesSinceEpoch = 0
    }

    mutating func wait(afterFrames frames: Int) {
        guard case .realTime(let rate) = pacing else { return }
        framesSinceEpoch += frames
        // Whole seconds apart from the rest, so 40 hours of frames cannot overflow the product.
        let nanoseconds = Int(epoch.tv_nsec) + (framesSinceEpoch % rate) * 1_000_000_000 / rate
        var deadline = timespec(
            tv_sec: epoch.tv_sec + framesSinceEpoch / rate + nanoseconds / 1_000_000_000,
            tv_nsec: nanoseconds % 1_000_000_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, nil) == EINTR {}
    }
}
