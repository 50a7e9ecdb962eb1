/// Just enough of the Ogg page format (RFC 3533) to repair a page after editing its payload.
enum OggPage {
    /// Page length: the 27-byte header, the segment table, then the segments it lists.
    static func length(ofPageAt offset: Int, in bytes: [UInt8]) -> Int {
        let segments = Int(bytes[offset + 26])
        return 27 + segments + bytes[(offset + 27)..<(offset + 27 + segments)].reduce(0) { $0 + Int($1) }
    }

    /// Recomputes the CRC stored at bytes 22...25 of the page, computed over the page with those
    /// bytes zeroed.
    static func updateChecksum(ofPageAt offset: Int, in bytes: inout [UInt8]) {
        let end = offset + length(ofPageAt: offset, in: bytes)
        bytes.replaceSubrange(offset + 22..<offset + 26, with: [0, 0, 0, 0])
        let crc = checksum(bytes[offset..<end])
        bytes.replaceSubrange(offset + 22..<offset + 26, with: withUnsafeBytes(of: crc.littleEndian, Array.init))
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, initial value 0, no reflection, no final xor — not the
    /// zlib CRC-32, which reflects and inverts.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc = crc << 8 ^ table[Int(UInt8(crc >> 24) ^ byte)]
        }
        return crc
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index) << 24
        for _ in 0..<8 {
            value = value & 0x8000_0000 != 0 ? value << 1 ^ 0x04C1_1DB7 : value << 1
        }
        return value
    }
}
