/// Big-endian fields read from a box's payload. Every read is bounds-checked and throws an error
/// naming the box, so a short or lying box can never read past its own bytes.
struct BinaryReader {
    let bytes: [UInt8]
    let path: String
    private(set) var position = 0

    init(_ bytes: [UInt8], path: String) {
        self.bytes = bytes
        self.path = path
    }

    var remaining: Int { bytes.count - position }

    func error(_ reason: String) -> MP4Error { MP4Error(box: path, reason: reason) }

    mutating func skip(_ count: Int) throws(MP4Error) {
        guard count >= 0, count <= remaining else { throw error("ends early (needs \(count) more bytes at \(position), has \(remaining))") }
        position += count
    }

    mutating func bytes(_ count: Int) throws(MP4Error) -> ArraySlice<UInt8> {
        let start = position
        try skip(count)
        return bytes[start..<start + count]
    }

    mutating func uint8() throws(MP4Error) -> UInt8 { try bytes(1).first! }

    mutating func uint16() throws(MP4Error) -> UInt16 { UInt16(try uint(2)) }

    mutating func uint32() throws(MP4Error) -> UInt32 { UInt32(try uint(4)) }

    mutating func uint64() throws(MP4Error) -> UInt64 { try uint(8) }

    mutating func uint(_ width: Int) throws(MP4Error) -> UInt64 {
        try bytes(width).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The version byte and 24 flag bits that start a "full box".
    mutating func versionAndFlags() throws(MP4Error) -> (version: UInt8, flags: UInt32) {
        let word = try uint32()
        return (UInt8(word >> 24), word & 0xFF_FFFF)
    }

    /// An entry count, refused when `entrySize`-byte entries of that count cannot fit in what is
    /// left of the box: nothing is ever allocated for entries the box does not hold.
    mutating func entryCount(entrySize: Int) throws(MP4Error) -> Int {
        let count = try uint32()
        guard UInt64(count) * UInt64(entrySize) <= UInt64(remaining) else {
            throw error("claims \(count) entries of \(entrySize) bytes, but the box holds only \(remaining) bytes")
        }
        return Int(count)
    }
}
