/// The samples of one track that movie fragments add after moov's tables: each top-level `moof`
/// holds a `traf` per track, whose `tfhd` gives the defaults and the base of the data offsets,
/// `tfdt` where the fragment starts, and each `trun` a run of samples lying back to back in the
/// file. `mvex/trex` holds the defaults a tfhd does not give; `mvex/mehd` the whole length.
///
/// A fragment that cannot be read (a download cut inside it, a lying run) ends the track there:
/// what came before still plays, and `stoppedBecause` says why the rest does not.
struct MovieFragments {
    let source: any ByteSource
    let trackID: UInt32
    let defaults: TrackExtends?
    /// Why the track stops before the file's last fragment, in words for a user; nil when every
    /// fragment was read.
    private(set) var stoppedBecause: String?
    /// Things wrong but played through (a tfdt that disagrees with the samples before it).
    private(set) var warnings: [String] = []
    /// The composition offset of the track's first sample, when a fragment holds it and its
    /// run gives offsets (priming, as ctts states it in moov).
    private(set) var firstCompositionOffset: Int64?
    /// The bytes of the samples the fragments stated by default sizes so far: real samples never
    /// overlap, so together they fit in the file, and a lying run cannot make the parser allocate
    /// more entries than the file has bytes.
    private var claimedBytes: UInt64 = 0

    init(source: any ByteSource, trackID: UInt32, defaults: TrackExtends?) {
        self.source = source
        self.trackID = trackID
        self.defaults = defaults
    }

    /// Appends the track's samples from every `moof` in `moofs` (top-level boxes, in file order).
    mutating func read(_ moofs: [Box], into table: inout SampleTable) {
        for moof in moofs {
            // (a count, not a copy of the table: a copy would make every append copy the sizes)
            let samplesBefore = table.sampleCount
            do throws(MP4Error) {
                try read(moof, into: &table)
            } catch {
                table.truncate(to: samplesBefore)
                stoppedBecause = "the movie fragment at byte \(moof.offset) cannot be read (\(error.description))"
                break
            }
        }
        table.finishAppending()
    }

    private mutating func read(_ moof: Box, into table: inout SampleTable) throws(MP4Error) {
        var tree = BoxTreeReader(source: source)
        let children = try tree.children(of: moof.path, from: moof.payloadOffset, to: moof.payloadOffset + moof.payloadSize)
        // The default base of a traf that states none is the end of the previous traf's data
        // (ISO/IEC 14496-12, 8.8.7.1); the first one's is the moof.
        var previousDataEnd = UInt64(moof.offset)
        for traf in children where traf.type == "traf" {
            guard let tfhdBox = traf.first("tfhd") else { throw MP4Error(box: "\(traf.path)/tfhd", reason: "missing") }
            let header = try FragmentHeader(tfhdBox, source: source)
            let base = header.baseDataOffset ?? (header.defaultBaseIsMoof ? UInt64(moof.offset) : previousDataEnd)
            let ours = header.trackID == trackID
            if ours, let tfdt = traf.first("tfdt") {
                try checkDecodeTime(tfdt, against: table.totalDuration)
            }
            var cursor = base
            for trun in traf.all("trun") where !header.durationIsEmpty {
                let run = try TrackRun(trun, header: header, defaults: defaults, base: base, cursor: cursor, source: source)
                cursor = run.dataOffset &+ run.byteCount
                guard ours else { continue }
                if table.sampleCount == 0 { firstCompositionOffset = run.firstCompositionOffset }
                if run.sizesAreDefault {
                    claimedBytes += run.byteCount
                    guard claimedBytes <= UInt64(source.size) else {
                        throw MP4Error(box: trun.path, reason: "the fragments' samples add up to more bytes than the file holds")
                    }
                }
                guard table.appendRun(at: run.dataOffset, sizes: run.sizes, durations: run.durations) else {
                    throw MP4Error(box: trun.path, reason: "the durations add up to more than \(SampleTable.maxDuration) ticks: not a real track")
                }
            }
            previousDataEnd = cursor
        }
    }

    /// Samples are laid back to back whatever tfdt says (a decoder's timeline has no holes);
    /// one that disagrees is worth a line.
    private mutating func checkDecodeTime(_ tfdt: Box, against time: Int64) throws(MP4Error) {
        var reader = try BinaryReader(readPayload(tfdt, source: source, limit: 64), path: tfdt.path)
        let (version, _) = try reader.versionAndFlags()
        let start = try reader.uint(version == 1 ? 8 : 4)
        if start != UInt64(time) && warnings.isEmpty {
            warnings.append("\(tfdt.path): a fragment says it starts at \(start), after \(time) of samples; its samples are played right after them")
        }
    }
}

/// The boxes of a fragmented movie: moov's mvex and the top-level moofs, in file order.
struct MovieFragmentBoxes {
    let mvex: Box?
    let moofs: [Box]
    /// mvex/mehd: the whole movie's length, in the movie's timescale.
    let movieDuration: Int64?

    init(mvex: Box?, moofs: [Box], source: any ByteSource, warnings: inout [String]) {
        self.mvex = mvex
        self.moofs = moofs
        do throws(MP4Error) {
            movieDuration = try mvex.flatMap { mvex throws(MP4Error) in try fragmentedMovieDuration(mvex, source: source) }
        } catch {
            warnings.append("\(error.description): the length it states is ignored")
            movieDuration = nil
        }
    }
}

/// mvex/trex: what a track's fragments leave out.
struct TrackExtends: Sendable {
    let defaultDuration: UInt32
    let defaultSize: UInt32

    /// The trex of `trackID` in `mvex`, nil when it has none.
    static func read(_ mvex: Box, trackID: UInt32, source: any ByteSource) throws(MP4Error) -> TrackExtends? {
        for trex in mvex.all("trex") {
            var reader = try BinaryReader(readPayload(trex, source: source, limit: 64), path: trex.path)
            _ = try reader.versionAndFlags()
            guard try reader.uint32() == trackID else { continue }
            _ = try reader.uint32() // default sample description index
            return TrackExtends(defaultDuration: try reader.uint32(), defaultSize: try reader.uint32())
        }
        return nil
    }
}

/// traf/tfhd.
struct FragmentHeader {
    let trackID: UInt32
    let baseDataOffset: UInt64?
    let defaultDuration: UInt32?
    let defaultSize: UInt32?
    let durationIsEmpty: Bool
    let defaultBaseIsMoof: Bool

    init(_ tfhd: Box, source: any ByteSource) throws(MP4Error) {
        var reader = try BinaryReader(readPayload(tfhd, source: source, limit: 64), path: tfhd.path)
        let (_, flags) = try reader.versionAndFlags()
        trackID = try reader.uint32()
        baseDataOffset = flags & 0x01 != 0 ? try reader.uint64() : nil
        if flags & 0x02 != 0 { _ = try reader.uint32() } // sample description index
        defaultDuration = flags & 0x08 != 0 ? try reader.uint32() : nil
        defaultSize = flags & 0x10 != 0 ? try reader.uint32() : nil
        durationIsEmpty = flags & 0x01_0000 != 0
        defaultBaseIsMoof = flags & 0x02_0000 != 0
    }
}

/// One trun: samples back to back from `dataOffset`.
struct TrackRun {
    let dataOffset: UInt64
    let sizes: [UInt32]
    let durations: [(count: Int64, duration: Int64)]
    /// No per-sample size in the run: every sample has the default (see `claimedBytes`).
    let sizesAreDefault: Bool
    /// The first sample's composition offset, when the run gives offsets (signed in version 1;
    /// read as signed in version 0 too, as for ctts).
    let firstCompositionOffset: Int64?
    let byteCount: UInt64

    init(_ trun: Box, header: FragmentHeader, defaults: TrackExtends?, base: UInt64, cursor: UInt64,
         source: any ByteSource) throws(MP4Error) {
        var reader = try BinaryReader(readPayload(trun, source: source), path: trun.path)
        let (_, flags) = try reader.versionAndFlags()
        let claimed = try reader.uint32()
        if flags & 0x01 != 0 {
            let relative = Int64(Int32(bitPattern: try reader.uint32()))
            let (offset, overflow) = Int64(bitPattern: base).addingReportingOverflow(relative)
            guard !overflow, offset >= 0, base <= UInt64(Int64.max) else {
                throw reader.error("data offset \(relative) from \(base) is outside the file")
            }
            dataOffset = UInt64(offset)
        } else {
            dataOffset = cursor
        }
        if flags & 0x04 != 0 { _ = try reader.uint32() } // first sample flags
        let hasDuration = flags & 0x100 != 0, hasSize = flags & 0x200 != 0
        let perSample = 4 * [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count
        let defaultDuration = header.defaultDuration ?? defaults?.defaultDuration
        let defaultSize = header.defaultSize ?? defaults?.defaultSize
        guard hasDuration || defaultDuration != nil else { throw reader.error("no sample duration: neither the run, tfhd nor trex gives one") }
        guard hasSize || (defaultSize ?? 0) > 0 else { throw reader.error("no sample size: neither the run, tfhd nor trex gives one") }
        if perSample > 0 {
            guard UInt64(claimed) * UInt64(perSample) <= UInt64(reader.remaining) else {
                throw reader.error("claims \(claimed) samples of \(perSample) bytes, but the box holds only \(reader.remaining) bytes")
            }
        } else if let defaultSize, UInt64(claimed) * UInt64(defaultSize) > UInt64(source.size) {
            throw reader.error("claims \(claimed) samples of \(defaultSize) bytes, more than the whole file holds")
        }
        let count = Int(claimed)
        var sizes: [UInt32] = []
        sizes.reserveCapacity(count)
        var durations: [(count: Int64, duration: Int64)] = []
        var bytes: UInt64 = 0
        var firstOffset: Int64?
        for index in 0..<count {
            let duration = Int64(hasDuration ? try reader.uint32() : defaultDuration!)
            let size = hasSize ? try reader.uint32() : defaultSize!
            if flags & 0x400 != 0 { _ = try reader.uint32() } // sample flags
            if flags & 0x800 != 0 {
                let offset = Int64(Int32(bitPattern: try reader.uint32()))
                if index == 0 { firstOffset = offset }
            }
            sizes.append(size)
            bytes += UInt64(size)
            if let last = durations.last, last.duration == duration {
                durations[durations.count - 1].count += 1
            } else {
                durations.append((1, duration))
            }
        }
        self.sizes = sizes
        self.durations = durations
        sizesAreDefault = !hasSize
        byteCount = bytes
        firstCompositionOffset = firstOffset
    }
}

/// mvex/mehd: the length of the whole fragmented movie, in the movie's timescale.
func fragmentedMovieDuration(_ mvex: Box, source: any ByteSource) throws(MP4Error) -> Int64? {
    guard let mehd = mvex.first("mehd") else { return nil }
    var reader = try BinaryReader(readPayload(mehd, source: source, limit: 64), path: mehd.path)
    let (version, _) = try reader.versionAndFlags()
    let duration = try reader.uint(version == 1 ? 8 : 4)
    // (all ones, the "unknown" some muxers write, is above maxDuration)
    return duration > 0 && duration < UInt64(SampleTable.maxDuration) ? Int64(duration) : nil
}
