/// An audio track: its codec configuration, sample tables and edit.
public struct MP4AudioTrack: Sendable {
    let trak: Box
    /// `moov/trak` (which trak: the first with a sound handler), for error messages.
    public var trackPath: String { trak.path }
    public let trackID: UInt32
    /// Media time units per second (stts, elst media times and chapter mapping use them).
    public let timescale: Int64
    /// The sample entry's type: `mp4a` for AAC, `alac`, `Opus`, ...
    public let format: FourCC
    /// As the sample entry states them (for AAC with implicit SBR, half the output rate).
    public let channelCount: Int
    public let sampleRate: Int
    /// From esds, when the entry has one (mp4a): the object type indication and the
    /// DecoderSpecificInfo (for AAC, the AudioSpecificConfig).
    public let objectTypeIndication: UInt8?
    public let decoderConfig: [UInt8]
    public let samples: SampleTable
    /// The first non-empty edit (elst): where presentation starts in media time, and for how
    /// long (nil: to the end). nil when the track has no edit list.
    public let edit: MP4Edit?
    /// Why the samples that can be played end before the track the file describes (a sample
    /// table cut short, a movie fragment that cannot be read), in words for a user; nil when
    /// they are all there.
    public let incompleteBecause: String?
    /// What the tables say of the encoder's priming when there is no edit list (see PrimingBoxes):
    /// the first sample's composition offset (media time), the roll distance of its 'roll' group.
    public let firstCompositionOffset: Int64?
    public let firstRollDistance: Int?
    /// The track's length as the headers state it, in media time: the longer of mdhd's and, in
    /// a fragmented movie, mvex/mehd's; nil when neither states one. With `declaredEdit`, what a
    /// file whose samples end early claims to be (the plugin tells the user the difference).
    public let declaredMediaDuration: Int64?
    /// The first edit as elst states it, before `edit` clamps it to the samples there are.
    public let declaredEdit: MP4Edit?

    init(_ trak: Box, movieTimescale: Int64, fragments: MovieFragmentBoxes, source: any ByteSource,
         warnings: inout [String]) throws(MP4Error) {
        self.trak = trak
        trackID = try readTrackID(of: trak, source: source)
        timescale = try mediaTimescale(of: trak, source: source)
        guard let stbl = trak.find("mdia", "minf", "stbl") else {
            throw MP4Error(box: "\(trak.path)/mdia/minf/stbl", reason: "missing: the audio track has no sample table")
        }
        guard let stsd = stbl.first("stsd") else { throw MP4Error(box: "\(stbl.path)/stsd", reason: "missing") }
        let entry = try SampleEntry(stsd, source: source)
        format = entry.format
        channelCount = entry.channelCount
        sampleRate = entry.sampleRate
        objectTypeIndication = entry.descriptor?.objectTypeIndication
        decoderConfig = entry.descriptor?.decoderSpecificInfo ?? []
        var (table, incomplete) = try SampleTable.read(stbl, source: source, fragmented: fragments.mvex != nil)
        /// moov's own samples' length: an edit written for them alone does not end the fragments.
        let moovDuration = table.totalDuration
        let priming = PrimingBoxes(stbl, source: source, warnings: &warnings)
        var compositionOffset = table.sampleCount > 0 ? priming.firstCompositionOffset : nil
        // Fragments continue moov's samples: after a table cut short they would be misplaced.
        if !fragments.moofs.isEmpty && incomplete == nil {
            var defaults: TrackExtends?
            if let mvex = fragments.mvex { defaults = try TrackExtends.read(mvex, trackID: trackID, source: source) }
            var reader = MovieFragments(source: source, trackID: trackID, defaults: defaults)
            reader.read(fragments.moofs, into: &table)
            warnings += reader.warnings
            incomplete = reader.stoppedBecause
            compositionOffset = compositionOffset ?? reader.firstCompositionOffset
        }
        firstCompositionOffset = compositionOffset
        firstRollDistance = priming.firstRollDistance
        // (both below 2^40 and 2^32, the product may not fit: a length that long is no length)
        let mediaTimescale = timescale
        let fragmentedDuration = fragments.movieDuration.flatMap { duration -> Int64? in
            let (ticks, overflow) = duration.multipliedReportingOverflow(by: mediaTimescale)
            return overflow ? nil : ticks / movieTimescale
        }
        declaredMediaDuration = [mediaDuration(of: trak, source: source), fragmentedDuration].compactMap { $0 }.max()
        guard table.sampleCount > 0 else {
            throw MP4Error(box: "\(stbl.path)/stsz", reason: incomplete.map { "no samples in moov, and \($0)" } ?? "the track has no samples, in moov or in movie fragments")
        }
        samples = table
        incompleteBecause = incomplete
        if let elst = trak.find("edts", "elst"),
           let first = try MP4Edit.first(in: elst, source: source, mediaTimescale: timescale, movieTimescale: movieTimescale, warnings: &warnings) {
            declaredEdit = first
            // An edit cannot present media the track does not have: clamp it to the track, so
            // that callers can scale its times without overflow.
            let total = samples.totalDuration
            if first.mediaStart > total {
                warnings.append("\(elst.path): the edit starts at \(first.mediaStart), after the track's end (\(total)); ignored")
                edit = nil
            } else if let duration = first.duration, total > moovDuration, moovDuration > 0,
                      first.mediaStart + duration <= moovDuration + (timescale - 1) / movieTimescale {
                // A muxer that appends movie fragments after a moov of samples may leave its edit
                // to end with moov's samples (a 3GP of 15.00 s whose fragments go on to 16.35 s,
                // as mehd says): the fragments are presented after it, as ffmpeg plays them.
                edit = MP4Edit(mediaStart: first.mediaStart, duration: nil)
            } else {
                let left = total - first.mediaStart, tick = (timescale - 1) / movieTimescale
                edit = MP4Edit(mediaStart: first.mediaStart, duration: first.duration.map { duration in
                    // The edit's duration is in the movie's timescale (ffmpeg's is 1000), so it
                    // places the end only to the nearest movie tick: 163,613 frames at 44.1 kHz
                    // are 3,710 ms, read back as 163,611, and a book split into such files lost
                    // frames at every boundary. When the media (stts, whose last sample the
                    // muxer shortens to the source's end) ends less than a tick after it, that
                    // end is the exact one.
                    left >= duration && left - duration <= tick ? left : min(duration, left)
                })
            }
        } else {
            edit = nil
            declaredEdit = nil
        }
    }
}

public struct MP4Edit: Sendable, Equatable {
    public let mediaStart: Int64
    public let duration: Int64?

    /// The first edit that maps media (an empty edit, media time -1, only delays the start).
    static func first(in elst: Box, source: any ByteSource, mediaTimescale: Int64, movieTimescale: Int64,
                      warnings: inout [String]) throws(MP4Error) -> MP4Edit? {
        var reader = try BinaryReader(readPayload(elst, source: source, limit: 1 << 20), path: elst.path)
        let (version, _) = try reader.versionAndFlags()
        let width = version == 1 ? 8 : 4
        let count = try reader.entryCount(entrySize: 2 * width + 4)
        var edits: [MP4Edit] = []
        for _ in 0..<count {
            let segmentDuration = try reader.uint(width)
            let rawTime = try reader.uint(width)
            try reader.skip(4) // media rate
            let mediaTime = width == 8 ? Int64(bitPattern: rawTime) : Int64(Int32(bitPattern: UInt32(rawTime)))
            guard mediaTime >= 0 else { continue }
            guard segmentDuration <= UInt64(Int64.max / mediaTimescale) else { throw reader.error("edit duration \(segmentDuration) is absurd") }
            let duration = segmentDuration == 0 ? nil : (Int64(segmentDuration) * mediaTimescale + movieTimescale / 2) / movieTimescale
            edits.append(MP4Edit(mediaStart: mediaTime, duration: duration))
        }
        if edits.count > 1 { warnings.append("\(elst.path): \(edits.count) edits; only the first is honoured") }
        return edits.first
    }
}

/// The first entry of stsd, as far as audio goes.
struct SampleEntry {
    let format: FourCC
    let channelCount: Int
    let sampleRate: Int
    let descriptor: ElementaryStreamDescriptor?

    init(_ stsd: Box, source: any ByteSource) throws(MP4Error) {
        var reader = try BinaryReader(readPayload(stsd, source: source, limit: 1 << 20), path: stsd.path)
        _ = try reader.versionAndFlags()
        guard try reader.uint32() > 0 else { throw reader.error("no sample description") }
        let entryStart = reader.position
        let size = Int(try reader.uint32())
        format = FourCC(try reader.uint32())
        guard size >= 36, size - 8 <= reader.remaining else { throw reader.error("the \(format) entry claims \(size) bytes, \(reader.remaining + 8) remain") }
        try reader.skip(8) // reserved, data reference index
        let version = try reader.uint16()
        try reader.skip(6) // revision, vendor
        channelCount = Int(try reader.uint16())
        try reader.skip(6) // sample size, compression id, packet size
        sampleRate = Int(try reader.uint32() >> 16)
        // QuickTime sound descriptions v1 and v2 carry extra fields before their child boxes.
        let extra = version == 1 ? 16 : version == 2 ? 36 : 0
        let childStart = reader.position + extra - entryStart
        var found: ElementaryStreamDescriptor?
        if childStart < size {
            let entryPath = "\(stsd.path)/\(format)"
            let childOffset = stsd.payloadOffset + Int64(entryStart + childStart)
            var tree = BoxTreeReader(source: source)
            let children = try tree.children(of: entryPath, from: childOffset, to: stsd.payloadOffset + Int64(entryStart + size))
            if let esds = children.first(where: { $0.type == "esds" }) ?? children.first(where: { $0.type == "wave" })?.first("esds") {
                found = try ElementaryStreamDescriptor(esds, source: source)
            }
        }
        descriptor = found
    }
}
