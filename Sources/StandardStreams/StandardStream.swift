import Glibc
import Synchronization

/// Standard output or standard error, written with `write(2)`.
///
/// Not `FileHandle.write(_: Data)`: it traps on any error (a `try!` inside Foundation), so a
/// closed terminal (EIO) or a pipe whose reader left (EPIPE, SIGPIPE being ignored) killed the
/// player with SIGILL before it saved. Here a failed write is a typed value, and the first one
/// that finds its reader gone is told to the handler the running command set (`onReaderGone`),
/// which stops the player as `quit` does.
///
/// (Swift's `print` does not trap: it goes through stdio's `fwrite` and drops the error, so its
/// text is lost silently. Checked on Swift 6.3.1 with the terminal closed and a closed pipe.
/// It is still not used where the player runs, because its loss would go unnoticed.)
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Why bytes did not reach the stream's reader.
    public enum WriteFailure: Error, Equatable, Sendable {
        /// Nobody reads any more: the terminal hung up (EIO) or the pipe's reader closed it
        /// (EPIPE), or a socket's peer left (ECONNRESET).
        case readerGone(errno: Int32)
        /// Anything else (ENOSPC when redirected to a full disk, EBADF when closed at start).
        case failed(errno: Int32)
    }

    /// Writes all of `text`, retrying after signals and partial writes.
    @discardableResult
    public func write(_ text: String) -> Result<Void, WriteFailure> {
        var text = text
        return text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes all of `bytes` (e.g. a `Data`).
    @discardableResult
    public func write(bytes: some Sequence<UInt8>) -> Result<Void, WriteFailure> {
        if let result = bytes.withContiguousStorageIfAvailable({ write(UnsafeRawBufferPointer($0)) }) { return result }
        return Array(bytes).withUnsafeBytes { write($0) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) -> Result<Void, WriteFailure> {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let reason = written < 0 ? errno : EIO // no progress at all: as good as gone
            switch reason {
            case EINTR:
                continue
            case EAGAIN:
                // Someone sharing the terminal made it non-blocking: wait until it takes more.
                var ready = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
                continue
            case EIO, EPIPE, ECONNRESET:
                Self.readerGone(self)
                return .failure(.readerGone(errno: reason))
            default:
                return .failure(.failed(errno: reason))
            }
        }
        return .success(())
    }

    // MARK: The reader gone

    /// The handler, and whether it was called. Process-wide, as descriptors 1 and 2 are.
    private static let goneHandler = Mutex<(handler: (@Sendable (StandardStream) -> Void)?, called: Bool)>((nil, false))

    /// Sets what happens the first time a write finds its reader gone (the player stops, saving
    /// its place): called once, on the writing thread. It must not write to these streams itself,
    /// and should only hand the news to the thread that stops (a continuation's `yield`).
    public static func onReaderGone(_ handler: @escaping @Sendable (StandardStream) -> Void) {
        goneHandler.withLock { $0.handler = handler }
    }

    private static func readerGone(_ stream: StandardStream) {
        let handler = goneHandler.withLock { state -> (@Sendable (StandardStream) -> Void)? in
            guard !state.called, let handler = state.handler else { return nil }
            state.called = true
            return handler
        }
        handler?(stream)
    }

    /// Makes a write to a pipe nobody reads fail with EPIPE instead of killing the process with
    /// SIGPIPE, whose default action would end the player before it saved. Inherited across exec
    /// (abplayer starts no other program).
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
