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
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ data: Data) {
            data.withUnsafeBytes { bytes in
                for byte in bytes {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01b3
                }
            }
        }
        do {
            try handle.seek(toOffset: 0)
            // Small files are hashed whole, once.
            mix(try handle.read(upToCount: Int(min(UInt64(2 * edgeBytes), size))) ?? Data())
            if size > UInt64(2 * edgeBytes) {
                try handle.seek(toOffset: size - UInt64(edgeBytes))
                mix(try handle.read(upToCount: edgeBytes) ?? Data())
            }
        } catch {
            return nil
        }
        let hex = String(hash, radix: 16)
        return (Int64(size), "\(size):" + String(repeating: "0", count: 16 - hex.count) + hex)
    }
}
