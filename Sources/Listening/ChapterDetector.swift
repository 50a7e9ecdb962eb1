import Foundation
public import PlayerCore

/// Proposes chapters for a book that has none: decodes its files with the loaded decoders and
/// starts a chapter after each long silence. "Silence" is relative to the book's own level — the
/// loud end of its 50 ms blocks (the 95th percentile of their RMS) less `depth` decibels — so a
/// quietly mastered book and a loud one are read alike, and room tone or hiss under the narration
/// counts as silence where a fixed dBFS threshold would miss it.
///
/// Blocking and CPU-bound (a 10-hour book decodes in tens of seconds): run it on a thread of its
/// own, never on the audio thread or a front end's.
public struct ChapterDetector: Sendable {
    /// A chapter proposed: where it starts, and the silence before it (nil for the book's start).
    public struct Proposal: Sendable, Equatable {
        public let place: PlaybackPosition
        public let bookSeconds: Double
        public let silenceSeconds: Double?
    }

    public struct Result: Sendable, Equatable {
        /// The first starts the book; one follows each silence long enough.
        public let chapters: [Proposal]
        public let bookSeconds: Double
        /// The level under which a block counted as silence, in dB below full scale.
        public let thresholdDecibels: Double
    }

    /// The length of a block whose RMS is measured.
    static let blockSeconds = 0.05
    /// A chapter starts this long before the sound that ends its silence (or at the silence's
    /// start when it is shorter): a jump to it lands in a breath of quiet, the first word whole.
    public static let leadSeconds = 0.5

    public let decoders: any DecoderOpener
    public let minimumSilence: Double
    public let depth: Double

    public init(decoders: any DecoderOpener, minimumSilence: Double = 2, depth: Double = 30) {
        self.decoders = decoders
        self.minimumSilence = minimumSilence
        self.depth = depth
    }

    /// Reads every file of the book (`paths`, in play order); `progress` hears the share done
    /// (0-1) as it goes. Throws the first file that does not decode, naming it.
    public func detect(paths: [String], progress: (Double) -> Void = { _ in }) throws -> Result {
        var levels: [ItemLevels] = []
        for (index, path) in paths.enumerated() {
            levels.append(try ItemLevels(path: path, decoders: decoders) { share in
                progress((Double(index) + share) / Double(paths.count))
            })
        }
        let loud = Self.percentile(levels.flatMap(\.decibels), 0.95) ?? -120
        let threshold = loud - depth
        var chapters = [Proposal(place: PlaybackPosition(item: 0, frame: 0), bookSeconds: 0, silenceSeconds: nil)]
        // The blocks in book order, across files: a silence that ends one file and opens the next
        // is one silence, and its chapter starts in the file where the sound comes back.
        var quiet: (item: Int, seconds: Double)?   // the file the silence under way started in, and its length
        // A silence before the first sound opens the book: no chapter break.
        var heardSound = false
        var itemStart = 0.0
        for (index, item) in levels.enumerated() {
            for (block, level) in item.decibels.enumerated() {
                if Double(level) < threshold {
                    quiet = (quiet?.item ?? index, (quiet?.seconds ?? 0) + item.blockSeconds)
                    continue
                }
                if let silence = quiet, heardSound, silence.seconds >= minimumSilence {
                    let soundAt = Double(block) * item.blockSeconds
                    let silenceStart = silence.item == index ? soundAt - silence.seconds : 0
                    let start = max(silenceStart, soundAt - Self.leadSeconds)
                    chapters.append(Proposal(place: PlaybackPosition(item: index, frame: Int64(start * Double(item.sampleRate))),
                                             bookSeconds: itemStart + start, silenceSeconds: silence.seconds))
                }
                quiet = nil
                heardSound = true
            }
            itemStart += item.seconds
        }
        // A silence still under way at the end closes the book: no chapter break either.
        return Result(chapters: chapters, bookSeconds: itemStart, thresholdDecibels: threshold)
    }

    static func percentile(_ values: [Float], _ share: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * share))])
    }
}

/// One file's loudness, block by block.
struct ItemLevels {
    /// The RMS of each whole block, in dB below full scale (a partial last block is left out).
    let decibels: [Float]
    let sampleRate: Int
    let blockFrames: Int
    /// Every frame decoded, the partial block included.
    let frames: Int64

    var blockSeconds: Double { Double(blockFrames) / Double(sampleRate) }
    var seconds: Double { Double(frames) / Double(sampleRate) }

    init(path: String, decoders: any DecoderOpener, progress: (Double) -> Void) throws {
        let decoder = try decoders.openDecoder(path: path)
        let channels = decoder.info.format.channels
        sampleRate = decoder.info.format.rate
        blockFrames = max(1, Int(Double(sampleRate) * ChapterDetector.blockSeconds))
        let total = decoder.info.totalFrames
        let chunk = 8192
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunk * channels)
        defer { buffer.deallocate() }
        var decibels: [Float] = []
        var sum = 0.0, inBlock = 0, frames: Int64 = 0
        while true {
            let read = try decoder.read(into: buffer, maxFrames: chunk)
            if read <= 0 { break }
            for frame in 0..<read {
                for channel in 0..<channels {
                    let sample = Double(buffer[frame * channels + channel])
                    sum += sample * sample
                }
                inBlock += 1
                if inBlock == blockFrames {
                    let meanSquare = sum / Double(blockFrames * channels)
                    decibels.append(Float(10 * log10(max(meanSquare, 1e-20))))
                    sum = 0
                    inBlock = 0
                }
            }
            frames += Int64(read)
            if let total, total > 0 { progress(min(1, Double(frames) / Double(total))) }
        }
        self.decibels = decibels
        self.frames = frames
        progress(1)
    }
}
