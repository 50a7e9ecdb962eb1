/// Where each sample of a track is in the file and when it plays, from stsz, stco/co64, stsc and
/// stts, kept compact: sizes as one UInt32 each, the chunk and time tables as the run lists the
/// file stores. Locating a sample or a time is a binary search over runs, so seeking costs the
/// same at 19 hours as at 1 minute, and opening a 20-hour book costs one pass over the tables.
public struct SampleTable: Sendable {
    /// A run of chunks with the same number of samples (one stsc entry), with the first sample
    /// it holds counted from the start of the track.
    struct ChunkRun: Sendable {
        let firstChunk: Int // 0-based
        let samplesPerChunk: Int64
        let firstSample: Int64
    }

    /// A run of samples with the same duration (one stts entry), with its start time.
    struct TimeRun: Sendable {
        let firstSample: Int64
        let count: Int64
        let duration: Int64
        let startTime: Int64
    }

    public let sampleCount: Int
    /// Every sample's size, or empty when all are `uniformSize`.
    let sizes: [UInt32]
    let uniformSize: UInt32
    let chunkOffsets: [UInt64]
    /// The offset of every `checkpointInterval`-th sample (only with per-sample sizes), so that
    /// locating a sample never sums more than that many sizes, even when a muxer put the whole
    /// track in one chunk.
    let checkpoints: [UInt64]
    static let checkpointInterval = 256
    let chunkRuns: [ChunkRun]
    let timeRuns: [TimeRun]
    /// The sum of all sample durations, in the track's timescale (at most `maxDuration`).
    public let totalDuration: Int64
    public static let maxDuration: Int64 = 1 << 40

    public func size(ofSample index: Int) -> UInt32 { sizes.isEmpty ? uniformSize : sizes[index] }

    /// The byte offset of sample `index` (0 ..< sampleCount).
    public func offset(ofSample index: Int) -> UInt64 {
        let sample = Int64(index)
        let run = chunkRuns[lastIndex(in: chunkRuns, where: { $0.firstSample <= sample })]
        let chunkInRun = (sample - run.firstSample) / run.samplesPerChunk
        var first = Int(run.firstSample + chunkInRun * run.samplesPerChunk)
        var offset = chunkOffsets[run.firstChunk + Int(chunkInRun)]
        if sizes.isEmpty { return offset &+ UInt64(index - first) * UInt64(uniformSize) }
        let checkpoint = index / Self.checkpointInterval * Self.checkpointInterval
        if checkpoint > first {
            first = checkpoint
            offset = checkpoints[checkpoint / Self.checkpointInterval]
        }
        for earlier in first..<index { offset &+= UInt64(sizes[earlier]) }
        return offset
    }

    /// When sample `index` starts, in the track's timescale (`index == sampleCount` gives the end).
    public func startTime(ofSample index: Int) -> Int64 {
        guard index < sampleCount else { return totalDuration }
        let sample = Int64(index)
        let run = timeRuns[lastIndex(in: timeRuns, where: { $0.firstSample <= sample })]
        return run.startTime + (sample - run.firstSample) * run.duration
    }

    /// The sample playing at `time` (clamped to the track).
    public func sample(at time: Int64) -> Int {
        guard time > 0 else { return 0 }
        guard time < totalDuration else { return sampleCount - 1 }
        let run = timeRuns[lastIndex(in: timeRuns, where: { $0.startTime <= time && $0.count > 0 })]
        let within = run.duration > 0 ? (time - run.startTime) / run.duration : 0
        return Int(min(run.firstSample + within, run.firstSample + run.count - 1, Int64(sampleCount - 1)))
    }

    /// The last index whose element satisfies `predicate`, for a predicate true on a prefix.
    private func lastIndex<T>(in runs: [T], where predicate: (T) -> Bool) -> Int {
        var low = 0, high = runs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if predicate(runs[middle]) { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

extension SampleTable {
    /// Reads the tables of `stbl`, checking every count against the bytes its box holds and the
    /// tables against each other, so that later lookups cannot go out of range.
    static func read(_ stbl: Box, source: any ByteSource) throws(MP4Error) -> SampleTable {
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
                           checkpoints: checkpoints(sizes: sizes, chunkOffsets: chunkOffsets, runs: chunkRuns),
                           chunkRuns: chunkRuns, timeRuns: timeRuns, totalDuration: time)
    }

    /// One pass over the chunks: the offset of every checkpointInterval-th sample.
    private static func checkpoints(sizes: [UInt32], chunkOffsets: [UInt64], runs: [ChunkRun]) -> [UInt64] {
        guard !sizes.isEmpty else { return [] }
        var result: [UInt64] = []
        result.reserveCapacity(sizes.count / checkpointInterval + 1)
        var sample = 0
        for (index, run) in runs.enumerated() {
            let endChunk = index + 1 < runs.count ? runs[index + 1].firstChunk : chunkOffsets.count
            for chunk in run.firstChunk..<endChunk where sample < sizes.count {
                var offset = chunkOffsets[chunk]
                for _ in 0..<min(Int(run.samplesPerChunk), sizes.count - sample) {
                    if sample % checkpointInterval == 0 { result.append(offset) }
                    offset &+= UInt64(sizes[sample])
                    sample += 1
                }
            }
        }
        return result
    }
}

/// The whole payload of a leaf box. Its size is already known to fit in the file (the tree
/// checked it), so this allocates no more than the file holds; the cap keeps a lying 2 GB "table"
/// from being read at all.
func readPayload(_ box: Box, source: any ByteSource, limit: Int64 = 256 << 20) throws(MP4Error) -> [UInt8] {
    guard box.payloadSize <= limit else {
        throw MP4Error(box: box.path, reason: "box of \(box.payloadSize) bytes is larger than any sane \(box.type) (\(limit) bytes)")
    }
    do {
        return try source.read(at: box.payloadOffset, count: Int(box.payloadSize))
    } catch {
        throw MP4Error(box: box.path, reason: error.reason)
    }
}
