import Foundation

/// A media file's content identity: its size and a hash of its first and last 64 KiB. A move or
/// rename keeps it; a retag (ID3 at the start) or a re-encode changes it. Reading 128 KiB per
/// file keeps import fast on books of hundreds of files.
///
/// The hash is 64-bit FNV-1a, written out here because Linux has no CryptoKit and swift-crypto
/// is not in our package mirror; we need a stable, well-known, fast hash for matching files a
/// user owns, not protection against an adversary, so a non-cryptographic hash is enough.
public enum Fingerprint {
    static let edgeBytes = 64 * 1024

    /// "size:hash" (hash as 16 hex digits), or nil when the file cannot be read or is not a
    /// regular file.
    public static func of(path: String) -> (size: Int64, fingerprint: String)? {
        // O_NONBLOCK so that a FIFO put in the file's place after the import was planned cannot
        // block the open (it waits for a writer); anything but a regular file is refused.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = Int64(info.st_size)
        // pread into one buffer: no seeks and no Data per read (an import fingerprints every file).
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 2 * edgeBytes, alignment: 16)
        defer { buffer.deallocate() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(from offset: Int64, count: Int) -> Bool {
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if got < 0 && errno == EINTR { continue }
                guard got >= 0 else { return false }
                if got == 0 { break }
                done += got
            }
            for byte in UnsafeRawBufferPointer(rebasing: buffer[..<done]) {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return true
        }
        // Small files are hashed whole, once.
        guard mix(from: 0, count: Int(min(Int64(2 * edgeBytes), size))) else { return nil }
        if size > Int64(2 * edgeBytes) {
            guard mix(from: size - Int64(edgeBytes), count: edgeBytes) else { return nil }
        }
        let hex = String(hash, radix: 16)
        return (size, "\(size):" + String(repeating: "0", count: 16 - hex.count) + hex)
    }
}
