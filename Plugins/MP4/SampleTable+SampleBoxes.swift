extension SampleTable {
    /// Reads the tables of `stbl`, checking every count against the bytes its box holds and the
    /// tables against each other, so that later lookups cannot go out of range. In a fragmented
    /// file (`fragmented`: moov has mvex) the tables may be empty: the samples are in the fragments.
    ///
    /// A table cut short — its box holds fewer entries than it counts, a count the file could
    /// hold (a 47-hour book whose stsz stops early) — is used as far as it goes: the track is the
    /// samples every table describes, and `endsEarly` says which table stopped them. A count the
    /// file cannot hold (an entry per byte and more) is a lie, and tables that are whole but
    /// disagree are refused: neither says which samples are real.
    static func read(_ stbl: Box, source: any ByteSource, fragmented: Bool = false) throws(MP4Error) -> (table: SampleTable, endsEarly: String?) {
        func payload(_ type: FourCC) throws(MP4Error) -> BinaryReader {
            guard let box = stbl.first(type) else { throw MP4Error(box: "\(stbl.path)/\(type)", reason: "missing") }
            return try BinaryReader(readPayload(box, source: source), path: box.path)
        }
        var cut: [String] = []
        /// The entries a table's box holds, at most the count it claims.
        func entries(_ reader: inout BinaryReader, size: Int, what: String) throws(MP4Error) -> Int {
            let claimed = try reader.uint32()
            let held = reader.remaining / size
            guard Int64(claimed) > Int64(held) else { return Int(claimed) }
            guard Int64(claimed) <= source.size else {
                throw reader.error("claims \(claimed) entries of \(size) bytes, but the box holds only \(reader.remaining) bytes")
            }
            cut.append("\(reader.path) lists \(held) of the \(claimed) \(what) it counts")
            return held
        }

        // stsz: sample sizes.
        var stsz = try payload("stsz")
        _ = try stsz.versionAndFlags()
        let uniformSize = try stsz.uint32()
        var count: Int
        var sizes: [UInt32] = []
        if uniformSize == 0 {
            count = try entries(&stsz, size: 4, what: "samples")
            sizes.reserveCapacity(count)
            for _ in 0..<count { sizes.append(try stsz.uint32()) }
        } else {
            let claimed = try stsz.uint32()
            // Nothing is allocated per sample here, but the samples must fit in the file.
            guard UInt64(claimed) * UInt64(uniformSize) <= UInt64(source.size) else {
                throw stsz.error("claims \(claimed) samples of \(uniformSize) bytes, more than the whole file holds")
            }
            count = Int(claimed)
        }
        if count == 0 && fragmented && cut.isEmpty { return (.empty, nil) }
        guard count > 0 else { throw stsz.error(cut.isEmpty ? "the track has no samples" : "the table ends before its first sample") }

        // stco or co64: chunk offsets.
        var chunkOffsets: [UInt64] = []
        if stbl.first("co64") != nil {
            var co64 = try payload("co64")
            _ = try co64.versionAndFlags()
            let chunks = try entries(&co64, size: 8, what: "chunks")
            chunkOffsets.reserveCapacity(chunks)
            for _ in 0..<chunks { chunkOffsets.append(try co64.uint64()) }
        } else {
            var stco = try payload("stco")
            _ = try stco.versionAndFlags()
            let chunks = try entries(&stco, size: 4, what: "chunks")
            chunkOffsets.reserveCapacity(chunks)
            for _ in 0..<chunks { chunkOffsets.append(UInt64(try stco.uint32())) }
        }
        let chunkPath = stbl.first("co64")?.path ?? "\(stbl.path)/stco"
        guard !chunkOffsets.isEmpty else { throw MP4Error(box: chunkPath, reason: "the track has no chunks") }

        // stsc: samples per chunk, as runs.
        var stsc = try payload("stsc")
        _ = try stsc.versionAndFlags()
        let stscEntries = try entries(&stsc, size: 12, what: "chunk runs")
        guard stscEntries > 0 else { throw stsc.error("no entries: the samples cannot be located") }
        var raw: [(firstChunk: Int, samplesPerChunk: Int64)] = []
        raw.reserveCapacity(stscEntries)
        for index in 0..<stscEntries {
            let firstChunk = try stsc.uint32()
            let samplesPerChunk = try stsc.uint32()
            _ = try stsc.uint32() // sample description index
            guard firstChunk >= 1, raw.last.map({ $0.firstChunk < Int(firstChunk) - 1 }) ?? (firstChunk == 1) else {
                throw stsc.error("entry \(index) starts at chunk \(firstChunk): chunks must start at 1, increase and exist (\(chunkOffsets.count) chunks)")
            }
            // A run that starts past a cut chunk table is past the samples that can be located.
            guard Int(firstChunk) <= chunkOffsets.count else {
                guard cut.isEmpty else { break }
                throw stsc.error("entry \(index) starts at chunk \(firstChunk): chunks must start at 1, increase and exist (\(chunkOffsets.count) chunks)")
            }
            guard samplesPerChunk > 0 else { throw stsc.error("entry \(index) has 0 samples per chunk") }
            raw.append((Int(firstChunk) - 1, Int64(samplesPerChunk)))
        }
        var chunkRuns: [ChunkRun] = []
        chunkRuns.reserveCapacity(raw.count)
        var firstSample: Int64 = 0
        for (index, entry) in raw.enumerated() where firstSample < Int64(count) {
            chunkRuns.append(ChunkRun(firstChunk: entry.firstChunk, samplesPerChunk: entry.samplesPerChunk, firstSample: firstSample))
            let nextChunk = index + 1 < raw.count ? raw[index + 1].firstChunk : chunkOffsets.count
            firstSample += Int64(nextChunk - entry.firstChunk) * entry.samplesPerChunk // both < 2^32: no overflow
        }
        if firstSample < Int64(count) {
            guard !cut.isEmpty else { throw stsc.error("the chunks hold only \(firstSample) of the \(count) samples in stsz") }
            count = Int(firstSample)
        }

        // stts: durations, as runs.
        var stts = try payload("stts")
        _ = try stts.versionAndFlags()
        let timeEntries = try entries(&stts, size: 8, what: "duration runs")
        var timeRuns: [TimeRun] = []
        timeRuns.reserveCapacity(timeEntries)
        var sample: Int64 = 0, time: Int64 = 0
        for _ in 0..<timeEntries where sample < Int64(count) {
            let runCount = min(Int64(try stts.uint32()), Int64(count) - sample)
            let duration = Int64(try stts.uint32())
            guard runCount > 0 else { continue }
            timeRuns.append(TimeRun(firstSample: sample, count: runCount, duration: duration, startTime: time))
            sample += runCount
            // Each product is below 2^64 but the sum could pass Int64: refuse a track that long
            // (2^40 ticks is 127 days at 96 kHz), which also keeps callers' time * rate in range.
            let (runTime, overflow) = runCount.multipliedReportingOverflow(by: duration)
            guard !overflow, runTime <= Self.maxDuration - time else {
                throw stts.error("the durations add up to more than \(Self.maxDuration) ticks: not a real track")
            }
            time += runTime
        }
        if sample < Int64(count) {
            guard !cut.isEmpty, sample > 0 else { throw stts.error("durations are given for \(sample) of the \(count) samples in stsz") }
            count = Int(sample)
        }
        if sizes.count > count { sizes.removeLast(sizes.count - count) }
        let table = SampleTable(sampleCount: count, sizes: sizes, uniformSize: uniformSize, chunkOffsets: chunkOffsets,
                                chunkRuns: chunkRuns, timeRuns: timeRuns, totalDuration: time)
        return (table, cut.isEmpty ? nil : "the sample table ends early (\(cut.joined(separator: "; ")))")
    }
}
