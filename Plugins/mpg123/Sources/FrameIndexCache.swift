import PluginKit
#if canImport(Glibc)
import Glibc
#endif

/// libmpg123's frame index (the byte offset of every `step`-th MPEG frame) with the stream's exact
/// length in output frames: what a full scan yields, and all an exact seek needs.
struct FrameIndex: Equatable {
    /// The entries libmpg123 keeps (MPG123_INDEX_SIZE); a scan halves its resolution (doubles
    /// `step`) whenever it fills up. 16384 entries = 128 KiB: in a 20-hour 44.1 kHz file one entry
    /// every 256 MPEG frames (6.7 s), so an exact seek parses at most 256 frame headers (~50 KiB
    /// at 64 kbps). A negative size (a growing index) would keep every frame: 22 MB for 20 hours.
    static let capacity = 16384

    var step: Int64
    /// Byte offsets of MPEG frames 0, step, 2·step, ...
    var offsets: [Int64]
    var totalFrames: Int64

    /// Cached indexes keep at most one entry every 32 MPEG frames (under a second): an exact seek
    /// then parses at most 32 frames, and a 5-minute file's index takes 2 KiB instead of 64.
    static let cachedStep: Int64 = 32

    /// MPEG frames from the start that the index reaches.
    var coverage: Int64 { step * Int64(offsets.count) }

    /// This index with every k-th entry only, so that the step is at least `cachedStep`.
    func thinned() -> FrameIndex {
        guard step < Self.cachedStep else { return self }
        let keep = Int((Self.cachedStep + step - 1) / step)
        return FrameIndex(step: step * Int64(keep), offsets: stride(from: 0, to: offsets.count, by: keep).map { offsets[$0] },
                          totalFrames: totalFrames)
    }

    /// Whether `totalFrames` is what the scan that built this index could have found: the
    /// stream's MPEG frames number in ((count - 1)·step, count·step], and trimming takes at most
    /// the encoder delay (12 bits) and libmpg123's decoder delay from that.
    func spansStream(samplesPerFrame: Int64) -> Bool {
        totalFrames > (coverage - step) * samplesPerFrame - 8192 && totalFrames <= coverage * samplesPerFrame
    }
}

/// The identity of a file's content as the cache knows it: its size and hashes of its first and
/// last 64 KiB. Deliberately not the path, inode or mtime, so that a copied or moved audiobook
/// keeps its index; a retag rewrites the head and so changes the key. What this cannot see (an
/// edit in the middle that keeps the size, head and tail) the loader catches by checking that the
/// cached offsets still land on MPEG frames.
struct FileIdentity: Equatable {
    static let sampleBytes = 65536

    let size: UInt64
    let headHash: UInt64
    let tailHash: UInt64

    init(file: SourceFile, head: [UInt8]) throws(DecoderOpenError) {
        size = UInt64(file.size)
        headHash = head.prefix(Self.sampleBytes).withUnsafeBytes { contentHash($0) }
        let tailCount = Int(min(file.size, Int64(Self.sampleBytes)))
        tailHash = try file.read(at: file.size - Int64(tailCount), count: tailCount).withUnsafeBytes { contentHash($0) }
    }

    var fileName: String { hex(size) + "-" + hex(headHash) + hex(tailHash) + ".idx" }
}

/// Frame indexes on disk, one small file per audio file, under `<cache>/mpg123-index/`.
///
/// Format (little-endian): "ABPMPIX\0", u32 version (1), u32 zero, u64 file size, u64 head hash,
/// u64 tail hash, i64 total frames, i64 step, u64 entry count, the entries (i64 byte offsets), and
/// a u64 hash of everything before it. A file that fails any check is ignored (and overwritten by
/// the next scan): never trusted blindly.
struct FrameIndexCache {
    let directory: String

    init(cacheDirectory: String) {
        directory = cacheDirectory + "/mpg123-index"
    }

    private static var magic: [UInt8] { Array("ABPMPIX".utf8) + [0] }
    private static let version: UInt32 = 1
    private static let headerSize = 64

    /// The cached index of `identity`, or nil when there is none or any check fails.
    /// `frameCheck` tells whether an MPEG frame of this stream starts at a byte offset.
    func load(_ identity: FileIdentity, frameCheck: (Int64) -> Bool) -> FrameIndex? {
        guard let bytes = readAll(directory + "/" + identity.fileName) else { return nil }
        guard bytes.count >= Self.headerSize + 8, Array(bytes[0..<8]) == Self.magic,
              le32(bytes, 8) == Self.version,
              le64(bytes, 16) == identity.size, le64(bytes, 24) == identity.headHash, le64(bytes, 32) == identity.tailHash
        else { return nil }
        let payloadEnd = bytes.count - 8
        guard bytes.withUnsafeBytes({ contentHash(UnsafeRawBufferPointer(rebasing: $0[0..<payloadEnd])) }) == le64(bytes, payloadEnd)
        else { return nil }
        let totalFrames = Int64(bitPattern: le64(bytes, 40))
        let step = Int64(bitPattern: le64(bytes, 48))
        let count = le64(bytes, 56)
        let fileSize = Int64(identity.size)
        // Every MPEG frame has at least a 4-byte header and yields at most 1152 samples.
        guard count >= 1, count <= UInt64(FrameIndex.capacity), UInt64(payloadEnd) == UInt64(Self.headerSize) + count * 8,
              step >= 1, step <= fileSize / 4, totalFrames > 0, totalFrames / 1152 <= fileSize / 4 + 1
        else { return nil }
        var offsets: [Int64] = []
        offsets.reserveCapacity(Int(count))
        for entry in 0..<Int(count) {
            let offset = Int64(bitPattern: le64(bytes, Self.headerSize + entry * 8))
            guard offset >= 0, fileSize > offset, offset > (offsets.last ?? -1) else { return nil }
            offsets.append(offset)
        }
        // Spot checks: the first, the last and eight entries between must still be frames.
        let probes = Set((0...9).map { offsets.count > 1 ? $0 * (offsets.count - 1) / 9 : 0 })
        guard probes.allSatisfy({ frameCheck(offsets[$0]) }) else { return nil }
        return FrameIndex(step: step, offsets: offsets, totalFrames: totalFrames)
    }

    /// Writes `index` atomically (a temporary file renamed over the old one). Returns a reason
    /// on failure; a cache that cannot be written only costs the next open a scan.
    func save(_ index: FrameIndex, for identity: FileIdentity, uniqueSuffix: String) -> String? {
        var bytes = Self.magic
        bytes.reserveCapacity(Self.headerSize + index.offsets.count * 8 + 8)
        appendLE(&bytes, UInt64(Self.version)) // version and the zero word after it
        for value in [identity.size, identity.headHash, identity.tailHash, UInt64(bitPattern: index.totalFrames),
                      UInt64(bitPattern: index.step), UInt64(index.offsets.count)] {
            appendLE(&bytes, value)
        }
        for offset in index.offsets { appendLE(&bytes, UInt64(bitPattern: offset)) }
        appendLE(&bytes, bytes.withUnsafeBytes { contentHash($0) })

        if mkdir(directory, 0o755) != 0 && errno != EEXIST { return "cannot create \(directory): \(systemError(errno))" }
        let path = directory + "/" + identity.fileName
        let temporary = path + ".tmp-" + uniqueSuffix
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return "cannot create \(temporary): \(systemError(errno))" }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if result > 0 { done += result } else if result < 0 && errno == EINTR { continue } else { return false }
            }
            return true
        }
        let reason = written ? nil : "cannot write \(temporary): \(systemError(errno))"
        close(descriptor)
        if let reason {
            unlink(temporary)
            return reason
        }
        guard rename(temporary, path) == 0 else {
            let reason = "cannot rename \(temporary): \(systemError(errno))"
            unlink(temporary)
            return reason
        }
        return nil
    }

    /// The whole file, or nil when it is missing, unreadable or larger than any index we write.
    private func readAll(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        let limit = Self.headerSize + FrameIndex.capacity * 8 + 8
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while done < buffer.count {
                let result = read(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if result > 0 { done += result } else if result == 0 { return true } else if errno != EINTR { return false }
            }
            return true
        }
        guard complete, done <= limit else { return nil }
        bytes.removeLast(bytes.count - done)
        return bytes
    }
}

/// A 64-bit hash of content, eight bytes at a time (FNV-1a's constants with a final avalanche).
/// Not cryptographic: it tells files apart, it does not defend against forgery.
func contentHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    var index = 0
    while index + 8 <= bytes.count {
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x0000_0100_0000_01B3
        hash ^= hash >> 29
        index += 8
    }
    while index < bytes.count {
        hash = (hash ^ UInt64(bytes[index])) &* 0x0000_0100_0000_01B3
        index += 1
    }
    hash ^= UInt64(bytes.count)
    hash = (hash ^ (hash >> 33)) &* 0xFF51_AFD7_ED55_8CCD
    hash = (hash ^ (hash >> 33)) &* 0xC4CE_B9FE_1A85_EC53
    return hash ^ (hash >> 33)
}

private func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

private func appendLE(_ bytes: inout [UInt8], _ value: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
}

private func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
    bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
}

private func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: le64(bytes, at))
}
