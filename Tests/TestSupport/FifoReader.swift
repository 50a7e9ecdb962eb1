public import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A named pipe read on a thread of its own, as a player reads it: opened before any writer and
/// kept open across writers (a lost output is opened again once a reader is back), taking
/// whatever arrives as soon as it arrives and noting when, so that the pace is the writer's.
/// What it read is interleaved signed 16-bit little-endian PCM.
public final class FifoReader: @unchecked Sendable {
    public let path: String
    public let channels: Int
    private let descriptor: Int32
    private let received = Mutex(Received())
    private let finished = DispatchSemaphore(value: 0)

    private struct Received {
        var bytes = Data()
        var first: ContinuousClock.Instant?
        var last: ContinuousClock.Instant?
        var closing = false
    }

    public struct Failure: Error, CustomStringConvertible {
        public let call: String
        public let path: String
        public let code: Int32
        public var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
    }

    /// Opens `path` for reading (without waiting for a writer), making the pipe if it is missing.
    public init(path: String, channels: Int = 2) throws {
        self.path = path
        self.channels = channels
        if mkfifo(path, 0o644) != 0 && errno != EEXIST { throw Failure(call: "mkfifo", path: path, code: errno) }
        descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(call: "open", path: path, code: errno) }
        Thread.detachNewThread { [self] in run() }
    }

    deinit { close() }

    /// Stops reading and closes the pipe: a writer's next write fails with EPIPE. Idempotent.
    public func close() {
        let first = received.withLock { received in
            defer { received.closing = true }
            return !received.closing
        }
        guard first else { return }
        finished.wait()
        Glibc.close(descriptor)
    }

    public var byteCount: Int { received.withLock { $0.bytes.count } }
    public var frameCount: Int { byteCount / (2 * channels) }

    /// When the first and the last bytes arrived.
    public var arrivals: (first: ContinuousClock.Instant, last: ContinuousClock.Instant)? {
        received.withLock { received in received.first.flatMap { first in received.last.map { (first, $0) } } }
    }

    /// What arrived, as interleaved floats.
    public func samples() -> [Float] { Self.floats(s16le: received.withLock { $0.bytes }) }

    /// Signed 16-bit little-endian samples as floats (a sample / 32768).
    public static func floats(s16le data: Data) -> [Float] {
        data.withUnsafeBytes { raw in raw.bindMemory(to: Int16.self).map { Float(Int16(littleEndian: $0)) / 32768 } }
    }

    /// Blocks until `condition` holds for the frames read so far, or `timeout` passed; returns
    /// whether it held.
    public func wait(timeout: Duration, until condition: (_ frames: Int) -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !condition(frameCount) {
            if clock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !received.withLock({ $0.closing }) {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 20)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                let now = ContinuousClock.now
                received.withLock { received in
                    received.bytes.append(contentsOf: buffer[..<count])
                    received.first = received.first ?? now
                    received.last = now
                }
            } else if count == 0 {
                usleep(5000) // no writer now: poll says so at once, so do not spin
            }
        }
        finished.signal()
    }
}
