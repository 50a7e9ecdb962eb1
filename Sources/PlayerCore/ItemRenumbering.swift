/// Where each item of a play list went when the list was replaced by a longer or reordered one
/// while playing (files that joined the book, the library put them in order): old index -> new
/// index. Every old item is in the new list; the new list may hold more.
///
/// The engine renumbers what it holds with it (the item being decoded, the positions in the ring,
/// the range's end, a pause point); the player renumbers the events sent before the engine took
/// the new list (`PlaybackEvent.itemsReplaced` says when).
public struct ItemRenumbering: Sendable, Equatable {
    /// The new index of each old item, by old index.
    public let newIndices: [Int]
    /// How many items the new list has.
    public let newCount: Int

    /// Nil unless every old item has one distinct place in a list of `newCount`.
    public init?(newIndices: [Int], newCount: Int) {
        guard Set(newIndices).count == newIndices.count, newIndices.allSatisfy({ (0..<newCount).contains($0) }) else {
            return nil
        }
        self.init(checked: newIndices, newCount: newCount)
    }

    private init(checked newIndices: [Int], newCount: Int) {
        self.newIndices = newIndices
        self.newCount = newCount
    }

    /// Where the items of `old` are in `new`, matched by identity (a library's media ids); nil
    /// when an item of `old` is not in `new` (an item left the list: not a renumbering).
    public init?<ID: Hashable>(from old: [ID], to new: [ID]) {
        var places: [ID: Int] = [:]
        for (index, id) in new.enumerated() { places[id] = index }
        let indices = old.compactMap { places[$0] }
        guard indices.count == old.count else { return nil }
        self.init(newIndices: indices, newCount: new.count)
    }

    /// True when nothing moves and nothing joins.
    public var isIdentity: Bool { newCount == newIndices.count && newIndices.enumerated().allSatisfy { $0 == $1 } }

    /// The new index of old item `item`. An index past the old list's end (decoding ran past
    /// the last item) stays that far past the new list's end.
    public func callAsFunction(_ item: Int) -> Int {
        if newIndices.indices.contains(item) { return newIndices[item] }
        return item < 0 ? item : newCount + (item - newIndices.count)
    }

    public func callAsFunction(_ position: PlaybackPosition) -> PlaybackPosition {
        PlaybackPosition(item: self(position.item), frame: position.frame)
    }

    /// The items that joined: those of the new list no old item went to, in list order.
    public var joined: [Int] {
        let taken = Set(newIndices)
        return (0..<newCount).filter { !taken.contains($0) }
    }

    /// This renumbering, then `next` (two replacements in a row: `next` starts from this one's
    /// new list, so each of two distinct places here goes to a distinct place there).
    public func then(_ next: ItemRenumbering) -> ItemRenumbering {
        ItemRenumbering(checked: newIndices.map { next($0) }, newCount: next.newCount)
    }
}

extension PausePoint {
    func renumbered(_ renumbering: ItemRenumbering) -> PausePoint {
        switch self {
        case let .position(position): .position(renumbering(position))
        case let .endOfItem(item): .endOfItem(renumbering(item))
        }
    }
}

extension ItemOrder {
    /// The same order over the renumbered items; a sequence gets the new items at its end, in
    /// list order (the player gives the engine its own plan with the new list anyway).
    public func renumbered(_ renumbering: ItemRenumbering) -> ItemOrder {
        guard case let .sequence(order, repeating) = self else { return self }
        return .sequence(order.map { renumbering($0) } + renumbering.joined, repeating: repeating)
    }
}

extension PlaybackEvent {
    /// The event with its item indices renumbered: an event the engine sent before it took a
    /// new list, read in the numbering of that list.
    public func renumbered(_ renumbering: ItemRenumbering) -> PlaybackEvent {
        switch self {
        case let .position(position): .position(renumbering(position))
        case let .itemChanged(info):
            .itemChanged(ItemInfo(index: renumbering(info.index), path: info.path, stream: info.stream, metadata: info.metadata))
        case let .failed(item, error): .failed(item: renumbering(item), error: error)
        case let .fadedOut(position): .fadedOut(renumbering(position))
        case let .jumped(position): .jumped(renumbering(position))
        case let .silenceSkipped(item, frames, rate): .silenceSkipped(item: renumbering(item), frames: frames, sourceRate: rate)
        case let .trimmed(item, frames, rate): .trimmed(item: renumbering(item), frames: frames, sourceRate: rate)
        case .stateChanged, .ended, .outputLost, .outputRestored, .outputMoved, .outputChanged, .speedChanged,
             .volumeChanged, .fadeCancelled, .itemsReplaced:
            self
        }
    }
}
