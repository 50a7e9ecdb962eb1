#if canImport(Glibc)
import Glibc
#endif

/// Random access to a file's bytes, read in bounded pieces. The parser never maps or loads a
/// whole file: a 2 GB audiobook is read as a few kilobytes of box headers and the tables of moov.
public protocol ByteSource: AnyObject {
    /// The number of bytes that really exist: every size a file claims is checked against it.
    var size: Int64 { get }
    /// Exactly `count` bytes at `offset`; throws when they are not all there.
    func read(at offset: Int64, count: Int) throws(MP4Error) -> [UInt8]
}

/// A file read with pread(2), so a decoder and a parser can share it without a file position.
public final class FileByteSource: ByteSource {
    public let size: Int64
    private let descriptor: Int32

    /// Opens `path` read-only; the error says why it cannot be read.
    public init(path: String) throws(MP4Error) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MP4Error(box: "", reason: "cannot open the file: \(String(cString: strerror(errno)))") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw MP4Error(box: "", reason: "cannot read the file: \(reason)")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            close(fd)
            throw MP4Error(box: "", reason: "it is a directory, not a file")
        }
        descriptor = fd
        size = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    public func read(at offset: Int64, count: Int) throws(MP4Error) -> [UInt8] {
        guard count >= 0, offset >= 0, offset <= size, Int64(count) <= size - offset else {
            throw MP4Error(box: "", reason: "reading \(count) bytes at \(offset) goes past the end of the file (\(size) bytes)")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let result = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                let reason = result == 0 ? "the file ended early (it shrank while open?)" : String(cString: strerror(errno))
                throw MP4Error(box: "", reason: "reading at \(offset + Int64(done)) failed: \(reason)")
            }
            done += result
        }
        return bytes
    }
}

/// Bytes already in memory: for tests and the fuzzer.
public final class MemoryByteSource: ByteSource {
    public let bytes: [UInt8]
    public var size: Int64 { Int64(bytes.count) }

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(at offset: Int64, count: Int) throws(MP4Error) -> [UInt8] {
        guard count >= 0, offset >= 0, offset <= size, Int64(count) <= size - offset else {
            throw MP4Error(box: "", reason: "reading \(count) bytes at \(offset) goes past the end of the data (\(size) bytes)")
        }
        return Array(bytes[Int(offset)..<Int(offset) + count])
    }
}
