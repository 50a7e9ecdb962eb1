import Foundation

extension FileHandle {
    /// Writes to a child's standard input that may be closed already (the child exited, a starved
    /// test was late, or the old code under test failed early): that must not raise SIGPIPE, whose
    /// default action would end the whole test runner. So SIGPIPE is blocked on this thread for
    /// the write, and one it raised is taken back. False when the write failed.
    @discardableResult
    func writeIgnoringClosedPipe(_ data: Data) -> Bool {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        if (try? write(contentsOf: data)) != nil { return true }
        var pending = sigset_t()
        sigpending(&pending)
        if sigismember(&pending, SIGPIPE) == 1 {
            var noWait = timespec()
            _ = sigtimedwait(&pipeSignal, nil, &noWait)
        }
        return false
    }
}
