/// Tags, pictures and the iTunSMPB gapless record from an iTunes-style `ilst`.
struct MetadataReader {
    let source: any ByteSource
    private(set) var tags: [MP4Tag] = []
    private(set) var pictures: [MP4Picture] = []
    private(set) var gapless: ITunesGapless?
    private(set) var warnings: [String] = []

    init(source: any ByteSource) { self.source = source }

    /// Text atoms and the ABI keys they become.
    static let textKeys: [FourCC: String] = [
        "©nam": "title", "©ART": "artist", "©alb": "album", "aART": "albumartist", "©wrt": "composer",
        "©gen": "genre", "©cmt": "comment", "desc": "description", "ldes": "longdescription",
        "©nrt": "narrator", "©too": "encoder", "©grp": "grouping", "cprt": "copyright", "©pub": "publisher",
    ]

    mutating func read(_ ilst: Box) {
        for item in ilst.children {
            do throws(MP4Error) {
                try read(item: item)
            } catch {
                warnings.append("ignored the \(item.type) tag: \(error)")
            }
        }
    }

    private mutating func read(item: Box) throws(MP4Error) {
        let values = try item.all("data").map { data throws(MP4Error) in try Self.dataValue(data, source: source) }
        switch item.type {
        case "trkn", "disk":
            guard let value = values.first, value.payload.count >= 6 else { return }
            let number = Int(value.payload[2]) << 8 | Int(value.payload[3])
            let total = Int(value.payload[4]) << 8 | Int(value.payload[5])
            guard number > 0 else { return }
            tags.append(MP4Tag(key: item.type == "trkn" ? "track" : "disc", value: total > 0 ? "\(number)/\(total)" : "\(number)"))
        case "©day":
            guard let text = values.first?.text, !text.isEmpty else { return }
            let digits = text.prefix(4)
            tags.append(MP4Tag(key: "year", value: digits.count == 4 && digits.allSatisfy(\.isNumber) ? String(digits) : text))
        case "covr":
            for value in values where !value.payload.isEmpty {
                guard let mime = Self.pictureType(value) else {
                    warnings.append("\(item.path): ignored a cover that is neither JPEG nor PNG")
                    continue
                }
                pictures.append(MP4Picture(mimeType: mime, data: value.payload))
            }
        case "----":
            try readFreeform(item, values: values)
        default:
            // Each data box of the atom is a value of its own (and a repeated atom comes here again).
            guard let key = Self.textKeys[item.type] else { return }
            for text in values.compactMap(\.text) where !text.isEmpty { tags.append(MP4Tag(key: key, value: text)) }
        }
    }

    /// `----` atoms: a `mean` (com.apple.iTunes), a `name` and the data.
    private mutating func readFreeform(_ item: Box, values: [DataValue]) throws(MP4Error) {
        guard let nameBox = item.first("name"), let text = values.first?.text else { return }
        var reader = try BinaryReader(readPayload(nameBox, source: source, limit: 4096), path: nameBox.path)
        _ = try reader.versionAndFlags()
        let name = String(decoding: try reader.bytes(reader.remaining), as: UTF8.self)
        switch name.lowercased() {
        case "itunsmpb":
            // " 00000000 00000840 000001CA 00000000003F31F6 ...": zero, priming, padding, length.
            let fields = text.split(separator: " ").map { Int64($0, radix: 16) }
            guard fields.count >= 4, let priming = fields[1], let padding = fields[2], let count = fields[3],
                  (0..<SampleTable.maxDuration).contains(priming), padding >= 0, (1..<SampleTable.maxDuration).contains(count) else {
                warnings.append("\(item.path): ignored a malformed iTunSMPB '\(text.prefix(80))'")
                return
            }
            gapless = ITunesGapless(priming: priming, padding: padding, sampleCount: count)
        default:
            let key = ["narrator", "narratedby", "narrated by"].contains(name.lowercased()) ? "narrator" : name.lowercased()
            guard !name.isEmpty else { return }
            for text in values.compactMap(\.text) where !text.isEmpty { tags.append(MP4Tag(key: key, value: text)) }
        }
    }

    struct DataValue {
        /// The well-known type (1 = UTF-8, 2 = UTF-16, 13 = JPEG, 14 = PNG, 0/21 = binary).
        let type: UInt32
        let payload: [UInt8]

        var text: String? {
            switch type {
            case 1: return String(decoding: payload, as: UTF8.self)
            case 2:
                let units = stride(from: 0, to: payload.count - 1, by: 2).map { (index: Int) -> UInt16 in
                    UInt16(payload[index]) << 8 | UInt16(payload[index + 1])
                }
                return String(decoding: units, as: UTF16.self)
            default: return nil
            }
        }
    }

    static func dataValue(_ data: Box, source: any ByteSource) throws(MP4Error) -> DataValue {
        var reader = try BinaryReader(readPayload(data, source: source, limit: 64 << 20), path: data.path)
        let type = try reader.uint32() & 0xFF_FFFF
        try reader.skip(4) // locale
        return DataValue(type: type, payload: Array(try reader.bytes(reader.remaining)))
    }

    static func pictureType(_ value: DataValue) -> String? {
        if value.type == 13 || value.payload.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if value.type == 14 || value.payload.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        return nil
    }
}
