/// Where each sample of a track is in the file and when it plays, from stsz, stco/co64, stsc and
/// stts, and from the track runs (trun) of movie fragments after them, kept compact: sizes as one
/// UInt32 each, the chunk and time tables as run lists (a trun is one chunk). Locating a sample or
/// a time is a binary search over runs, so seeking costs the same at 19 hours as at 1 minute, and
/// opening a 20-hour book costs one pass over the tables.
public struct SampleTable: Sendable {
    /// A run of chunks with the same number of samples (one stsc entry, or one trun), with the
    /// first sample it holds counted from the start of the track. It ends where the next run's
    /// samples start (a stsc run's last chunks may be counted beyond the samples there are).
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

    public private(set) var sampleCount: Int
    /// Every sample's size, or empty when all are `uniformSize`.
    private(set) var sizes: [UInt32]
    private(set) var uniformSize: UInt32
    private(set) var chunkOffsets: [UInt64]
    /// The offset of every `checkpointInterval`-th sample (only with per-sample sizes), so that
    /// locating a sample never sums more than that many sizes, even when a muxer put the whole
    /// track in one chunk.
    private(set) var checkpoints: [UInt64] = []
    static let checkpointInterval = 256
    private(set) var chunkRuns: [ChunkRun]
    private(set) var timeRuns: [TimeRun]
    /// The sum of all sample durations, in the track's timescale (at most `maxDuration`).
    public private(set) var totalDuration: Int64
    public static let maxDuration: Int64 = 1 << 40

    init(sampleCount: Int, sizes: [UInt32], uniformSize: UInt32, chunkOffsets: [UInt64], chunkRuns: [ChunkRun],
         timeRuns: [TimeRun], totalDuration: Int64) {
        self.sampleCount = sampleCount
        self.sizes = sizes
        self.uniformSize = uniformSize
        self.chunkOffsets = chunkOffsets
        self.chunkRuns = chunkRuns
        self.timeRuns = timeRuns
        self.totalDuration = totalDuration
        checkpoints = Self.checkpoints(sizes: sizes, chunkOffsets: chunkOffsets, runs: chunkRuns)
    }

    /// A track whose samples are all in movie fragments (`empty_moov`).
    static let empty = SampleTable(sampleCount: 0, sizes: [], uniformSize: 0, chunkOffsets: [], chunkRuns: [], timeRuns: [], totalDuration: 0)

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
    /// Appends samples that lie back to back from `offset` (a track run of a movie fragment):
    /// their sizes, and their durations as (count, duration) runs. The caller has checked the
    /// counts against the bytes that state them; the durations must keep the track within
    /// `maxDuration` (else nothing is appended). Call `finishAppending()` after the last run.
    mutating func appendRun(at offset: UInt64, sizes runSizes: [UInt32], durations: [(count: Int64, duration: Int64)]) -> Bool {
        var added: Int64 = 0
        for run in durations {
            let (time, overflow) = run.count.multipliedReportingOverflow(by: run.duration)
            guard !overflow, time <= Self.maxDuration - totalDuration - added else { return false }
            added += time
        }
        guard !runSizes.isEmpty else { return true }
        if sizes.isEmpty && sampleCount > 0 { sizes = Array(repeating: uniformSize, count: sampleCount) }
        chunkOffsets.append(offset)
        chunkRuns.append(ChunkRun(firstChunk: chunkOffsets.count - 1, samplesPerChunk: Int64(runSizes.count), firstSample: Int64(sampleCount)))
        sizes.append(contentsOf: runSizes)
        var sample = Int64(sampleCount)
        for run in durations where run.count > 0 {
            if let last = timeRuns.last, last.duration == run.duration, last.firstSample + last.count == sample {
                timeRuns[timeRuns.count - 1] = TimeRun(firstSample: last.firstSample, count: last.count + run.count, duration: last.duration, startTime: last.startTime)
            } else {
                timeRuns.append(TimeRun(firstSample: sample, count: run.count, duration: run.duration, startTime: totalDuration))
            }
            sample += run.count
            totalDuration += run.count * run.duration
        }
        sampleCount += runSizes.count
        return true
    }

    mutating func finishAppending() {
        checkpoints = Self.checkpoints(sizes: sizes, chunkOffsets: chunkOffsets, runs: chunkRuns)
    }

    /// Keeps only the first `count` samples (a table that ends early, or one that another table
    /// of the track does not cover): the rest of the track cannot be located or timed.
    mutating func truncate(to count: Int) {
        guard count < sampleCount else { return }
        sampleCount = count
        if !sizes.isEmpty { sizes.removeLast(sizes.count - count) }
        chunkRuns.removeAll { $0.firstSample >= Int64(count) }
        var kept: [TimeRun] = []
        for run in timeRuns where run.firstSample < Int64(count) {
            kept.append(TimeRun(firstSample: run.firstSample, count: min(run.count, Int64(count) - run.firstSample), duration: run.duration, startTime: run.startTime))
        }
        timeRuns = kept
        totalDuration = kept.last.map { $0.startTime + $0.count * $0.duration } ?? 0
        finishAppending()
    }

    /// One pass over the chunks: the offset of every checkpointInterval-th sample.
    private static func checkpoints(sizes: [UInt32], chunkOffsets: [UInt64], runs: [ChunkRun]) -> [UInt64] {
        guard !sizes.isEmpty else { return [] }
        var result: [UInt64] = []
        result.reserveCapacity(sizes.count / checkpointInterval + 1)
        for (index, run) in runs.enumerated() {
            let endSample = index + 1 < runs.count ? Int(runs[index + 1].firstSample) : sizes.count
            var sample = Int(run.firstSample)
            var chunk = run.firstChunk
            while sample < endSample && chunk < chunkOffsets.count {
                var offset = chunkOffsets[chunk]
                for _ in 0..<min(Int(run.samplesPerChunk), endSample - sample) {
                    if sample % checkpointInterval == 0 { result.append(offset) }
                    offset &+= UInt64(sizes[sample])
                    sample += 1
                }
                chunk += 1
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
