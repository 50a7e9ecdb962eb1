public import Foundation

/// Interleaved audio as a RIFF/WAVE file: enough to write fixtures and to read what the player's
/// file sink wrote.
public struct WavFile: Sendable, Equatable {
    /// How samples are stored in the file.
    public enum Encoding: Sendable, Equatable {
        case pcm8, pcm16, pcm24, pcm32, float32, float64

        public var bytesPerSample: Int {
            switch self {
            case .pcm8: 1
            case .pcm16: 2
            case .pcm24: 3
            case .pcm32, .float32: 4
            case .float64: 8
            }
        }

        public var isFloat: Bool { self == .float32 || self == .float64 }
    }

    public var rate: Int
    public var channels: Int
    /// Interleaved, nominally in -1...1.
    public var samples: [Float]
    /// The encoding read from the file, or the one `write(to:)` uses.
    public var encoding: Encoding
    /// Whether the format chunk was (or is to be written as) WAVE_FORMAT_EXTENSIBLE.
    public var isExtensible: Bool

    public init(rate: Int, channels: Int, samples: [Float], encoding: Encoding = .pcm16, isExtensible: Bool = false) {
        precondition(channels > 0 && samples.count % channels == 0, "\(samples.count) samples do not fill \(channels)-channel frames")
        self.rate = rate
        self.channels = channels
        self.samples = samples
        self.encoding = encoding
        self.isExtensible = isExtensible
    }

    public var frameCount: Int { samples.count / channels }

    public func write(to url: URL) throws {
        try encoded().write(to: url)
    }

    /// The whole file. Integer encodings scale by 2^(bits-1) both ways (and clamp), so a file read
    /// and written again is bit-identical.
    public func encoded() -> Data {
        let blockAlign = channels * encoding.bytesPerSample
        let dataSize = samples.count * encoding.bytesPerSample
        let formatTag: UInt16 = encoding.isFloat ? 3 : 1
        var data = Data()
        data.reserveCapacity(80 + dataSize)
        let fmtSize = isExtensible ? 40 : 16
        data.append(contentsOf: Array("RIFF".utf8))
        data.appendLittleEndian(UInt32(4 + (8 + fmtSize) + (8 + dataSize)))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        data.appendLittleEndian(UInt32(fmtSize))
        data.appendLittleEndian(isExtensible ? WavFile.extensibleTag : formatTag)
        data.appendLittleEndian(UInt16(channels))
        data.appendLittleEndian(UInt32(rate))
        data.appendLittleEndian(UInt32(rate * blockAlign))
        data.appendLittleEndian(UInt16(blockAlign))
        data.appendLittleEndian(UInt16(encoding.bytesPerSample * 8))
        if isExtensible {
            data.appendLittleEndian(UInt16(22))  // cbSize
            data.appendLittleEndian(UInt16(encoding.bytesPerSample * 8))  // valid bits
            data.appendLittleEndian(UInt32(0))  // channel mask: unspecified
            data.appendLittleEndian(formatTag)
            data.append(contentsOf: WavFile.guidTail)
        }
        data.append(contentsOf: Array("data".utf8))
        data.appendLittleEndian(UInt32(dataSize))
        data.append(contentsOf: encodedSamples())
        if dataSize % 2 == 1 { data.append(0) }  // RIFF chunks are padded to even sizes
        return data
    }

    /// Written through a raw buffer: appending sample by sample to `Data` is slow in debug builds,
    /// which is how tests are compiled.
    private func encodedSamples() -> [UInt8] {
        let width = encoding.bytesPerSample
        var bytes = [UInt8](repeating: 0, count: samples.count * width)
        bytes.withUnsafeMutableBytes { out in
            for (index, sample) in samples.enumerated() {
                let offset = index * width
                switch encoding {
                case .pcm8: out[offset] = UInt8(Self.quantize(sample, bits: 8) + 128)
                case .pcm16: out.storeBytes(of: Int16(Self.quantize(sample, bits: 16)).littleEndian, toByteOffset: offset, as: Int16.self)
                case .pcm24:
                    let value = UInt32(bitPattern: Int32(Self.quantize(sample, bits: 24)))
                    out[offset] = UInt8(value & 0xFF)
                    out[offset + 1] = UInt8(value >> 8 & 0xFF)
                    out[offset + 2] = UInt8(value >> 16 & 0xFF)
                case .pcm32: out.storeBytes(of: Int32(Self.quantize(sample, bits: 32)).littleEndian, toByteOffset: offset, as: Int32.self)
                case .float32: out.storeBytes(of: sample.bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
                case .float64: out.storeBytes(of: Double(sample).bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
                }
            }
        }
        return bytes
    }

    private static func quantize(_ sample: Float, bits: Int) -> Int64 {
        let scale = Double(Int64(1) << (bits - 1))
        let scaled = (Double(sample) * scale).rounded()
        return Int64(min(max(scaled, -scale), scale - 1))
    }

    static let extensibleTag: UInt16 = 0xFFFE
    /// Bytes 2...15 of every KSDATAFORMAT_SUBTYPE GUID; the first two bytes are the format tag.
    static let guidTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
}

extension Data {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
