/// What a track without an edit list may say about its encoder's priming, in the sample tables:
/// a negative composition offset on its first sample (ctts: the first sample is presented before
/// the timeline starts), or an audio roll-recovery group (sgpd/sbgp 'roll') on it whose negative
/// distance says how many samples a decoder needs before the first one it can present.
/// Neither is read as more than that: the player decides what to skip (an edit list first).
struct PrimingBoxes {
    /// The composition offset of the track's first sample, in media time; nil without ctts.
    let firstCompositionOffset: Int64?
    /// The roll distance, in samples, of the 'roll' group sample 0 belongs to; nil without one.
    let firstRollDistance: Int?

    static let none = PrimingBoxes(firstCompositionOffset: nil, firstRollDistance: nil)

    private init(firstCompositionOffset: Int64?, firstRollDistance: Int?) {
        self.firstCompositionOffset = firstCompositionOffset
        self.firstRollDistance = firstRollDistance
    }

    /// Reads them from `stbl`; a damaged ctts or roll group is a warning, not a reason to refuse
    /// the track (it only says what to skip).
    init(_ stbl: Box, source: any ByteSource, warnings: inout [String]) {
        do throws(MP4Error) {
            self = try Self(stbl, source: source)
        } catch {
            warnings.append("\(error.description): what it says of the encoder's priming is ignored")
            self = .none
        }
    }

    private init(_ stbl: Box, source: any ByteSource) throws(MP4Error) {
        firstCompositionOffset = try stbl.first("ctts").flatMap { ctts throws(MP4Error) in try Self.firstOffset(ctts, source: source) }
        firstRollDistance = try Self.rollDistance(stbl, source: source)
    }

    /// Version 1 offsets are signed; version 0 ones are unsigned by the letter of the standard,
    /// but muxers write negative offsets there too, and no real offset is 2^31 ticks or more.
    private static func firstOffset(_ ctts: Box, source: any ByteSource) throws(MP4Error) -> Int64? {
        var reader = try BinaryReader(readPayload(ctts, source: source), path: ctts.path)
        _ = try reader.versionAndFlags()
        let count = try reader.entryCount(entrySize: 8)
        for _ in 0..<count {
            let samples = try reader.uint32()
            let offset = Int64(Int32(bitPattern: try reader.uint32()))
            if samples > 0 { return offset }
        }
        return nil
    }

    private static func rollDistance(_ stbl: Box, source: any ByteSource) throws(MP4Error) -> Int? {
        guard let sgpd = stbl.all("sgpd").first(where: { (try? groupingType($0, source: source)) == "roll" }),
              let sbgp = stbl.all("sbgp").first(where: { (try? groupingType($0, source: source)) == "roll" }) else { return nil }
        // sbgp: which description sample 0 belongs to (1-based; 0 is none).
        var groups = try BinaryReader(readPayload(sbgp, source: source), path: sbgp.path)
        let (groupsVersion, _) = try groups.versionAndFlags()
        try groups.skip(groupsVersion == 1 ? 8 : 4) // grouping type (and its parameter)
        let runs = try groups.entryCount(entrySize: 8)
        var index: UInt32 = 0
        for _ in 0..<runs {
            let samples = try groups.uint32()
            let description = try groups.uint32()
            if samples > 0 {
                index = description
                break
            }
        }
        guard index > 0 else { return nil }
        // sgpd: the descriptions; a roll entry is one signed 16-bit distance.
        var descriptions = try BinaryReader(readPayload(sgpd, source: source), path: sgpd.path)
        let (version, _) = try descriptions.versionAndFlags()
        try descriptions.skip(4) // grouping type
        let defaultLength = version == 1 ? try descriptions.uint32() : 2
        if version >= 2 { try descriptions.skip(4) } // default description index
        let entries = try descriptions.entryCount(entrySize: 2)
        guard Int(index) <= entries else { throw descriptions.error("sbgp names roll description \(index) of \(entries)") }
        for entry in 1...Int(index) {
            let length = version == 1 && defaultLength == 0 ? try descriptions.uint32() : defaultLength
            guard length >= 2 else { throw descriptions.error("a roll description of \(length) bytes") }
            let distance = Int(Int16(bitPattern: try descriptions.uint16()))
            if entry == Int(index) { return distance }
            try descriptions.skip(Int(length) - 2)
        }
        return nil
    }

    private static func groupingType(_ box: Box, source: any ByteSource) throws(MP4Error) -> FourCC {
        guard box.payloadSize >= 8 else { throw MP4Error(box: box.path, reason: "ends early") }
        let head = try source.read(at: box.payloadOffset, count: 8)
        return FourCC(head[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }
}
