/// What the listener has been told: the position heard last reported, and the items opened but
/// not yet heard (each is announced once it is). A value owned by `Producer`, on the decoder
/// thread.
struct PositionReporter {
    private var reported: PlaybackPosition?
    /// What each recently opened item turned out to be, kept until it is heard and announced.
    private var openedItems: [Int: ItemInfo] = [:]

    /// An item was opened (it is heard later, after what the ring and the sink hold).
    mutating func opened(_ info: ItemInfo) { openedItems[info.index] = info }

    /// What was reported and the items waiting to be announced, in a replaced list's numbering.
    mutating func renumber(_ renumbering: ItemRenumbering) {
        reported = reported.map { renumbering($0) }
        openedItems = Dictionary(uniqueKeysWithValues: openedItems.values.map { info in
            let index = renumbering(info.index)
            return (index, ItemInfo(index: index, path: info.path, stream: info.stream, metadata: info.metadata))
        })
    }

    /// Publishes `heard` when it moved by a tenth of a second (always when `force`), and the
    /// item when the heard item changed. `sinkRate` measures the tenth when the item's own rate
    /// is no longer known.
    mutating func report(_ heard: PlaybackPosition, force: Bool, sinkRate: Int?,
                         to emit: EventEmitter) {
        if reported?.item != heard.item, let info = openedItems[heard.item] {
            emit.yield(.itemChanged(info))
            // Only this one is done with: with repeat or shuffle, the next item may be any other.
            openedItems[heard.item] = nil
        }
        let tenth = Int64(openedItems[heard.item]?.stream.format.rate ?? sinkRate ?? 48000) / 10
        if force || reported == nil || reported?.item != heard.item || abs(heard.frame - reported!.frame) >= tenth {
            emit.yield(.position(heard))
            reported = heard
        }
    }
}
