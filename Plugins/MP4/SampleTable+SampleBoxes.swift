extension SampleTable {
    /// Reads the tables of `stbl`, checking every count against the bytes its box holds and the
    /// tables against each other, so that later lookups cannot go out of range. In a fragmented
    /// file (`fragmented`: moov has mvex) the tables may be empty: the samples are in the fragments.
    static func read(_ stbl: Box, source: any ByteSource, fragmented: Bool = false) throws(MP4Error) -> SampleTable {
        func payload(_ type: FourCC) throws(MP4Error) -> BinaryReader {
            guard let box = stbl.first(type) else { throw MP4Error(box: "\(stbl.path)/\(type)", reason: "missing") }
            return try BinaryReader(readPayload(box, source: source), path: box.path)
        }

        // stsz: sample sizes.
        var stsz = try payload("stsz")
        _ = try stsz.versionAndFlags()
        let uniformSize = try stsz.uint32()
        let count: Int
        var sizes: [UInt32] = []
        if uniformSize == 0 {
            count = try stsz.entryCount(entrySize: 4)
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
        if count == 0 && fragmented { return .empty }
        guard count > 0 else { throw stsz.error("the track has no samples") }

        // stco or co64: chunk offsets.
        var chunkOffsets: [UInt64] = []
        if stbl.first("co64") != nil {
            var co64 = try payload("co64")
            _ = try co64.versionAndFlags()
            let chunks = try co64.entryCount(entrySize: 8)
            chunkOffsets.reserveCapacity(chunks)
            for _ in 0..<chunks { chunkOffsets.append(try co64.uint64()) }
        } else {
            var stco = try payload("stco")
            _ = try stco.versionAndFlags()
            let chunks = try stco.entryCount(entrySize: 4)
            chunkOffsets.reserveCapacity(chunks)
            for _ in 0..<chunks { chunkOffsets.append(UInt64(try stco.uint32())) }
        }
        let chunkPath = stbl.first("co64")?.path ?? "\(stbl.path)/stco"
        guard !chunkOffsets.isEmpty else { throw MP4Error(box: chunkPath, reason: "the track has no chunks") }

        // stsc: samples per chunk, as runs.
        var stsc = try payload("stsc")
        _ = try stsc.versionAndFlags()
        let entries = try stsc.entryCount(entrySize: 12)
        guard entries > 0 else { throw stsc.error("no entries: the samples cannot be located") }
        var raw: [(firstChunk: Int, samplesPerChunk: Int64)] = []
        raw.reserveCapacity(entries)
        for index in 0..<entries {
            let firstChunk = try stsc.uint32()
            let samplesPerChunk = try stsc.uint32()
            _ = try stsc.uint32() // sample description index
            guard firstChunk >= 1, Int(firstChunk) <= chunkOffsets.count, raw.last.map({ $0.firstChunk < Int(firstChunk) - 1 }) ?? (firstChunk == 1) else {
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
        guard firstSample >= Int64(count) else {
            throw stsc.error("the chunks hold only \(firstSample) of the \(count) samples in stsz")
        }

        // stts: durations, as runs.
        var stts = try payload("stts")
        _ = try stts.versionAndFlags()
        let timeEntries = try stts.entryCount(entrySize: 8)
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
        guard sample == Int64(count) else {
            throw stts.error("durations are given for \(sample) of the \(count) samples in stsz")
        }
        return SampleTable(sampleCount: count, sizes: sizes, uniformSize: uniformSize, chunkOffsets: chunkOffsets,
                           chunkRuns: chunkRuns, timeRuns: timeRuns, totalDuration: time)
    }
}
