/// The play list and where decoding is in it: the items, where the range ends, the order they
/// follow each other in, and the open decoder of the current item with the next frame it gives.
/// A value owned by `Producer`, on the decoder thread; opening, seeking and reading decoders
/// happens here only.
struct ItemReader {
    /// The most frames decoded at once.
    static let chunkFrames = 4096

    let decoders: any DecoderOpener
    private(set) var items: [String] = []
    /// Playback stops after the frame before this one, when given.
    private(set) var end: PlaybackPosition?
    /// Which item follows the one that ends (repeat, shuffle).
    var order = ItemOrder.inOrder
    /// The start and end of every item not played (intro and outro skipping).
    var trim = ItemTrim.none
    private(set) var index = 0
    private(set) var decoder: (any Decoder)?
    /// The next frame the decoder will produce.
    private(set) var decodedFrame: Int64 = 0
    /// What `read` decodes into: a chunk at the current item's channel count, made again only
    /// when that changes.
    private var buffer: [Float] = []

    init(decoders: any DecoderOpener) { self.decoders = decoders }

    /// The next frame to decode: the item and its frame.
    var position: PlaybackPosition { PlaybackPosition(item: index, frame: decodedFrame) }

    /// True when the index points at an item of the list (not past its end).
    var hasItem: Bool { items.indices.contains(index) }

    /// The current item's file (only while `hasItem`).
    var path: String { items[index] }

    /// True when the range given to `load` ends in the current item or before it.
    var rangeEndsHere: Bool {
        guard let end else { return false }
        return end.item <= index
    }

    /// A new play list; the decoder must be closed first, and a `jump` says where to start.
    mutating func load(_ newItems: [String], end newEnd: PlaybackPosition?) {
        items = newItems
        end = newEnd
    }

    /// A longer or reordered play list while playing on: the decoder stays open on the current
    /// item, wherever that is in the new list, and decoding goes on where it was.
    mutating func replace(_ newItems: [String], renumbering: ItemRenumbering) {
        items = newItems
        index = renumbering(index)
        end = end.map { renumbering($0) }
        order = order.renumbered(renumbering)
    }

    /// Points at the top of `item` for a jump. The decoder stays open when it is that item's
    /// (the caller must then seek it, even to frame 0: it is wherever decoding was); another
    /// item's is closed. True when the decoder was kept.
    @discardableResult
    mutating func jump(toItem item: Int) -> Bool {
        let keeps = item == index && decoder != nil
        if !keeps {
            decoder = nil
            index = item
        }
        decodedFrame = 0
        return keeps
    }

    /// Points at the top of `item`, its decoder not open yet (the next in the play order, or the
    /// next in the list after one that failed to open).
    mutating func begin(item: Int) {
        decoder = nil
        index = item
        decodedFrame = 0
    }

    /// Opens the current item's decoder (only while `hasItem`); returns what the item turned
    /// out to be. Throws the decoder's error, leaving the decoder closed.
    mutating func openCurrent() throws -> ItemInfo {
        let opened = try decoders.openDecoder(path: items[index])
        decoder = opened
        return ItemInfo(index: index, path: items[index], stream: opened.info, metadata: opened.metadata)
    }

    mutating func closeDecoder() { decoder = nil }

    /// Closes the decoder with nothing more to decode in the current item, `frame` being where
    /// it stopped (a jump into the last item's outro: the book ends there).
    mutating func stop(at frame: Int64) {
        decoder = nil
        decodedFrame = frame
    }

    /// Makes the next read start at `frame` of the current item. Throws the decoder's error,
    /// leaving the position as it was.
    mutating func seek(to frame: Int64) throws {
        try decoder?.seek(to: frame)
        decodedFrame = frame
    }

    /// The frames of the current item that are played, its trim taken off (only while a decoder
    /// is open; all of it otherwise).
    var audibleRange: AudibleRange {
        guard let info = decoder?.info else { return AudibleRange(start: 0, end: nil) }
        return trim.audibleRange(totalFrames: info.totalFrames, rate: info.format.rate)
    }

    /// Whether decoding reached the start of the current item's outro (the trim's end, before
    /// the item's own): the frames it leaves out, else nil.
    var outroReached: Int64? {
        guard let total = decoder?.info.totalFrames, let end = audibleRange.end, end < total, decodedFrame >= end else { return nil }
        return total - end
    }

    /// `wanted`, or fewer when the range, or the current item's audible part, ends sooner.
    func framesBeforeEnd(atMost wanted: Int) -> Int {
        var left = Int64(wanted)
        if let end, end.item == index { left = min(left, end.frame - decodedFrame) }
        if let audibleEnd = audibleRange.end { left = min(left, audibleEnd - decodedFrame) }
        return Int(max(0, left))
    }

    /// The item after the current one in the play order (repeat, shuffle); nil at the end.
    func nextItem() -> Int? {
        let next = order.next(after: index, count: items.count)
        return next.flatMap { items.indices.contains($0) ? $0 : nil }
    }

    /// Decodes up to `maxFrames` (at most `chunkFrames`) of the current item into the buffer;
    /// returns how many, 0 at the item's end (or when `maxFrames` is 0: nothing is read). They
    /// are counted as decoded only by `advance(by:)`, after `withDecoded` hands them on.
    mutating func read(maxFrames: Int) throws -> Int {
        guard maxFrames > 0, let decoder else { return 0 }
        let samples = Self.chunkFrames * decoder.info.format.channels
        if buffer.count != samples { buffer = [Float](repeating: 0, count: samples) }
        return try buffer.withUnsafeMutableBufferPointer { buffer in
            try decoder.read(into: buffer.baseAddress!, maxFrames: maxFrames)
        }
    }

    /// Hands what the last `read` decoded to `body`. Not mutating: `body` may read this value
    /// (the failure report names the current item) while the frames go down the DSP chain.
    func withDecoded(_ body: (UnsafePointer<Float>) -> Void) {
        buffer.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// Counts `frames` more as decoded (once they are in the ring).
    mutating func advance(by frames: Int) { decodedFrame += Int64(frames) }
}
