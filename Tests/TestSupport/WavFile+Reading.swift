public import Foundation

/// Why a file could not be read as WAV.
public enum WavFileError: Error, CustomStringConvertible {
    case notWave(URL?)
    case missingChunk(String, URL?)
    case unsupportedFormat(tag: UInt16, bitsPerSample: Int, URL?)

    public var description: String {
        switch self {
        case let .notWave(url): "\(url?.path ?? "data"): not a RIFF/WAVE file"
        case let .missingChunk(chunk, url): "\(url?.path ?? "data"): no '\(chunk)' chunk before the end of the file"
        case let .unsupportedFormat(tag, bits, url):
            "\(url?.path ?? "data"): unsupported WAV format tag 0x\(String(tag, radix: 16)) with \(bits) bits per sample"
        }
    }
}

extension WavFile {
    public static func read(_ url: URL) throws -> WavFile {
        try WavFile(data: Data(contentsOf: url), source: url)
    }

    /// Parses a whole WAV file. Accepts PCM 8/16/24/32-bit and float 32/64-bit, plain or
    /// WAVE_FORMAT_EXTENSIBLE. A data chunk whose size is 0 or 0xFFFFFFFF, or larger than what is
    /// left, runs to the end of the file: a streaming writer (like the player's file sink killed
    /// mid-book) may never come back to patch the sizes. The RIFF size is ignored for the same reason.
    public init(data: Data, source: URL? = nil) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw WavFileError.notWave(source)
        }
        var format: (tag: UInt16, channels: Int, rate: Int, bits: Int)?
        var extensible = false
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = Int(bytes.littleEndian(UInt32.self, at: offset + 4))
            let body = offset + 8
            if id == "fmt " {
                guard body + 16 <= bytes.count else { break }
                var tag = bytes.littleEndian(UInt16.self, at: body)
                if tag == WavFile.extensibleTag, size >= 40, body + 26 <= bytes.count {
                    tag = bytes.littleEndian(UInt16.self, at: body + 24)  // SubFormat GUID's first field
                }
                format = (
                    tag,
                    Int(bytes.littleEndian(UInt16.self, at: body + 2)),
                    Int(bytes.littleEndian(UInt32.self, at: body + 4)),
                    Int(bytes.littleEndian(UInt16.self, at: body + 14))
                )
                extensible = bytes.littleEndian(UInt16.self, at: body) == WavFile.extensibleTag
            } else if id == "data" {
                guard let format else { throw WavFileError.missingChunk("fmt ", source) }
                let encoding = try Self.encoding(tag: format.tag, bits: format.bits, source: source)
                let remaining = bytes.count - body
                let length = (size == 0 || size == 0xFFFF_FFFF || size > remaining) ? remaining : size
                self.init(
                    rate: format.rate,
                    channels: format.channels,
                    samples: Self.decode(bytes, from: body, length: length, channels: format.channels, encoding: encoding),
                    encoding: encoding,
                    isExtensible: extensible
                )
                return
            }
            offset = body + size + (size & 1)
        }
        throw WavFileError.missingChunk(format == nil ? "fmt " : "data", source)
    }

    private static func encoding(tag: UInt16, bits: Int, source: URL?) throws -> Encoding {
        switch (tag, bits) {
        case (1, 8): .pcm8
        case (1, 16): .pcm16
        case (1, 24): .pcm24
        case (1, 32): .pcm32
        case (3, 32): .float32
        case (3, 64): .float64
        default: throw WavFileError.unsupportedFormat(tag: tag, bitsPerSample: bits, source)
        }
    }

    /// Whole frames only: a file cut mid-frame loses the partial frame.
    private static func decode(_ bytes: [UInt8], from start: Int, length: Int, channels: Int, encoding: Encoding) -> [Float] {
        let width = encoding.bytesPerSample
        let count = length / (width * channels) * channels
        var samples = [Float](repeating: 0, count: count)
        bytes.withUnsafeBytes { raw in
            samples.withUnsafeMutableBufferPointer { out in
                for index in 0..<count {
                    let offset = start + index * width
                    out[index] = switch encoding {
                    case .pcm8: Float(Int(raw[offset]) - 128) / 128
                    case .pcm16: Float(Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int16.self))) / 32768
                    case .pcm24:
                        // Shift into the top of an Int32 so the sign extends, then scale back down.
                        Float(Int32(bitPattern: UInt32(raw[offset]) << 8 | UInt32(raw[offset + 1]) << 16 | UInt32(raw[offset + 2]) << 24) >> 8) / 8_388_608
                    case .pcm32: Float(Double(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self))) / 2_147_483_648)
                    case .float32: Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    case .float64: Float(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))))
                    }
                }
            }
        }
        return samples
    }
}

extension [UInt8] {
    func littleEndian<T: FixedWidthInteger>(_: T.Type, at offset: Int) -> T {
        withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
}
