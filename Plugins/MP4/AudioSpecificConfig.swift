/// The MPEG-4 AudioSpecificConfig (ISO 14496-3 1.6.2.1) as far as a player needs it: the codec
/// profile, the rates, the channel configuration and the frame length, including how SBR (HE-AAC)
/// and PS (HE-AAC v2) are signalled, explicitly or by the backward-compatible sync extension.
/// With implicit signalling neither appears here: only the decoder finds SBR in the audio.
public struct AudioSpecificConfig: Sendable, Equatable {
    /// 2 = AAC-LC, 5 = SBR, 29 = PS, ... (the core object type when SBR/PS is signalled).
    public let objectType: Int
    public let sampleRate: Int
    public let channelConfiguration: Int
    /// 1024 or 960 samples per frame at the core rate.
    public let frameLength: Int
    /// SBR explicitly signalled (object type 5 or 29, or the sync extension).
    public let sbr: Bool
    /// PS explicitly signalled (object type 29, or the sync extension).
    public let ps: Bool
    /// The output rate with SBR, when signalled.
    public let extensionSampleRate: Int?

    static let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    public init(_ bytes: [UInt8]) throws(MP4Error) {
        var bits = BitReader(bytes)
        func objectType() throws(MP4Error) -> Int {
            let type = try bits.read(5)
            return type == 31 ? 32 + (try bits.read(6)) : type
        }
        func rate() throws(MP4Error) -> Int {
            let index = try bits.read(4)
            if index == 15 { return try bits.read(24) }
            guard index < Self.rates.count else { throw MP4Error(box: "esds", reason: "AudioSpecificConfig: reserved sampling frequency index \(index)") }
            return Self.rates[index]
        }
        var type = try objectType()
        let sampleRate = try rate()
        let channels = try bits.read(4)
        var sbr = false, ps = false
        var extensionRate: Int?
        if type == 5 || type == 29 {
            sbr = true
            ps = type == 29
            extensionRate = try rate()
            type = try objectType()
        }
        var frameLength = 1024
        if [1, 2, 3, 4, 6, 7, 17, 19, 20, 21, 22, 23].contains(type) {
            frameLength = try bits.read(1) == 1 ? 960 : 1024
            // dependsOnCoreCoder, then its 14-bit coreCoderDelay and the extensionFlag (whose
            // payloads matter only for ER object types). Some muxers set the flag and end the
            // config there; ffmpeg reads the missing bits as zeros and plays the file, and no
            // field a player needs follows them, so a config that ends here is complete.
            if bits.remaining > 0, try bits.read(1) == 1 { _ = try bits.read(min(14, bits.remaining)) }
            if bits.remaining > 0 { _ = try bits.read(1) }
        }
        // Backward-compatible signalling: an LC config followed by the SBR/PS sync extension.
        if !sbr, bits.remaining >= 16, try bits.peek(11) == 0x2B7 {
            _ = try bits.read(11)
            if try bits.read(5) == 5, try bits.read(1) == 1 {
                sbr = true
                extensionRate = try rate()
                if bits.remaining >= 12, try bits.read(11) == 0x548 { ps = try bits.read(1) == 1 }
            }
        }
        guard sampleRate > 0 else { throw MP4Error(box: "esds", reason: "AudioSpecificConfig: sample rate 0") }
        self.objectType = type
        self.sampleRate = sampleRate
        channelConfiguration = channels
        self.frameLength = frameLength
        self.sbr = sbr
        self.ps = ps
        extensionSampleRate = extensionRate
    }
}

/// Most-significant-bit-first reading of a byte array.
struct BitReader {
    let bytes: [UInt8]
    private var bit = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count * 8 - bit }

    mutating func read(_ count: Int) throws(MP4Error) -> Int {
        let value = try peek(count)
        bit += count
        return value
    }

    func peek(_ count: Int) throws(MP4Error) -> Int {
        guard count <= remaining else { throw MP4Error(box: "esds", reason: "AudioSpecificConfig ends early") }
        var value = 0
        for index in bit..<bit + count {
            value = value << 1 | Int(bytes[index / 8] >> (7 - UInt8(index % 8)) & 1)
        }
        return value
    }
}

/// The decoder configuration in an `esds` box (ISO 14496-1 ES_Descriptor): the object type
/// indication (0x40 = MPEG-4 audio, 0x66–0x68 = MPEG-2 AAC) and the DecoderSpecificInfo bytes.
struct ElementaryStreamDescriptor {
    let objectTypeIndication: UInt8
    let decoderSpecificInfo: [UInt8]

    init(_ esds: Box, source: any ByteSource) throws(MP4Error) {
        var reader = try BinaryReader(readPayload(esds, source: source, limit: 1 << 16), path: esds.path)
        _ = try reader.versionAndFlags()
        guard try Self.descriptor(&reader).tag == 0x03 else { throw reader.error("no ES_Descriptor") }
        _ = try reader.uint16() // ES_ID
        let flags = try reader.uint8()
        if flags & 0x80 != 0 { try reader.skip(2) }
        if flags & 0x40 != 0 { try reader.skip(Int(try reader.uint8())) }
        if flags & 0x20 != 0 { try reader.skip(2) }
        guard try Self.descriptor(&reader).tag == 0x04 else { throw reader.error("no DecoderConfigDescriptor") }
        objectTypeIndication = try reader.uint8()
        try reader.skip(12) // stream type, buffer size, bit rates
        guard reader.remaining > 0 else { throw reader.error("no DecoderSpecificInfo (the AudioSpecificConfig is missing)") }
        let info = try Self.descriptor(&reader)
        guard info.tag == 0x05 else { throw reader.error("no DecoderSpecificInfo (the AudioSpecificConfig is missing)") }
        decoderSpecificInfo = Array(try reader.bytes(info.length))
    }

    /// Reads a descriptor's tag and its 1–4 byte length; the length is checked against the box.
    private static func descriptor(_ reader: inout BinaryReader) throws(MP4Error) -> (tag: UInt8, length: Int) {
        let tag = try reader.uint8()
        var length = 0
        for _ in 0..<4 {
            let byte = try reader.uint8()
            length = length << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        guard length <= reader.remaining else {
            throw reader.error("descriptor 0x\(String(tag, radix: 16)) claims \(length) bytes, the box has \(reader.remaining) left")
        }
        return (tag, length)
    }
}
