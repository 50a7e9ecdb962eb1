import ABPluginABI
import PluginKit
#if canImport(Glibc)
import Glibc
#endif

/// The MP3 file, open for reading. Besides libmpg123's buffered reader (which borrows the
/// descriptor), the plugin reads a few blocks itself with `pread`: the ID3v2 tag for chapters, the
/// first frame for a Xing header, the head and tail for the cache key, frames named by a cached
/// index. `pread` leaves the descriptor's offset alone, so these reads never disturb libmpg123.
final class SourceFile {
    let descriptor: Int32
    let size: Int64

    init(path: String) throws(DecoderOpenError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DecoderOpenError(ABP_ERR_IO, "cannot open: \(systemError(errno))") }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw DecoderOpenError(ABP_ERR_IO, "cannot read: \(systemError(code))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw DecoderOpenError(ABP_ERR_IO, status.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "is not a regular file")
        }
        self.descriptor = descriptor
        size = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from `offset`; fewer only at the end of the file.
    func read(at offset: Int64, count: Int) throws(DecoderOpenError) -> [UInt8] {
        let wanted = max(0, min(count, Int(clamping: size - offset)))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        var failure: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            while done < wanted {
                let got = pread(descriptor, buffer.baseAddress! + done, wanted - done, off_t(offset) + off_t(done))
                if got > 0 {
                    done += got
                } else if got == 0 {
                    break // the file shrank under us
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        guard failure == 0 else { throw DecoderOpenError(ABP_ERR_IO, "cannot read: \(systemError(failure))") }
        if done < wanted { bytes.removeLast(wanted - done) }
        return bytes
    }
}

/// The C library's text for an errno value.
func systemError(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
}
