/// A FLAC PICTURE metadata block (the body, without the block header), as Ogg files carry it
/// base64-encoded in METADATA_BLOCK_PICTURE: all integers big-endian.
struct FLACPicture {
    let type: UInt32
    let mime: String
    /// Where the image bytes are in the block.
    let data: Range<Int>

    init?(block: [UInt8]) {
        var offset = 0
        func uint32() -> UInt32? {
            guard offset + 4 <= block.count else { return nil }
            defer { offset += 4 }
            return block[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
        }
        func skip(_ count: UInt32) -> Range<Int>? {
            guard Int(count) <= block.count - offset else { return nil }
            defer { offset += Int(count) }
            return offset..<offset + Int(count)
        }
        guard let type = uint32(), let mimeLength = uint32(), let mime = skip(mimeLength),
              let descriptionLength = uint32(), skip(descriptionLength) != nil,
              uint32() != nil, uint32() != nil, uint32() != nil, uint32() != nil, // width, height, depth, colours
              let dataLength = uint32(), let data = skip(dataLength), !data.isEmpty else { return nil }
        self.type = type
        self.mime = String(decoding: block[mime], as: UTF8.self)
        self.data = data
    }
}

/// Standard base64 (RFC 4648), padding optional, no line breaks expected.
enum Base64 {
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value: UInt32
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="): return output
            default: return nil
            }
            accumulator = accumulator << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
