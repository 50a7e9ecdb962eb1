import Foundation
import GRDB

/// How this library left its own journal: the file's size and a hash of its last bytes, kept in
/// the library after each exchange. Only this library writes its journal, so a journal that is
/// not as it was left was written by another copy of the library (a library file copied to a
/// second computer keeps the device id): both would write one journal, each taking the other's
/// places for its own, and never see each other's listening.
struct SyncJournalMark: Equatable {
    var size: Int
    var tailHash: UInt64

    /// The last bytes hashed: a record is under 200 bytes, so any append changes them, and any
    /// rewrite (a compaction by the other copy) changes the size or them.
    static let tailBytes = 4096

    init(size: Int, tailHash: UInt64) {
        self.size = size
        self.tailHash = tailHash
    }

    /// As `text` stores it: "SIZE:HASH" (hexadecimal).
    init?(text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let size = Int(parts[0]), let hash = UInt64(parts[1], radix: 16) else { return nil }
        self.init(size: size, tailHash: hash)
    }

    var text: String { "\(size):\(String(tailHash, radix: 16))" }

    /// The mark of the regular file at `path` now; nil when there is none (or it is not a file:
    /// that is refused elsewhere, by name).
    static func of(path: String) -> SyncJournalMark? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(info.st_size)
        var tail = [UInt8](repeating: 0, count: min(size, tailBytes))
        let got = tail.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(size - $0.count)) }
        guard got == tail.count else { return nil }
        // FNV-1a, as journal references are hashed: a fingerprint of the bytes, not a secret.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in tail {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return SyncJournalMark(size: size, tailHash: hash)
    }
}
