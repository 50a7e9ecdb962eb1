/// Which item the engine plays after the one that just ended. The items keep their place in the
/// list (positions stay item + frame); only the order they are heard in changes.
public enum ItemOrder: Sendable, Equatable {
    /// Each item once, in the list's order (the default).
    case inOrder
    /// The current item again and again.
    case repeatItem
    /// In order, and from the first item again after the last.
    case repeatList
    /// Every item once per pass, in a random order: the next one is picked among those not yet
    /// played in this pass. `repeating`: after the last one a new pass begins, else playback ends.
    case shuffled(repeating: Bool)

    /// The item to play after `current` of `count`, given the items already played in this pass
    /// (which a new pass empties); nil when playback ends.
    func next<Random: RandomNumberGenerator>(after current: Int, count: Int, played: inout Set<Int>,
                                             using random: inout Random) -> Int? {
        switch self {
        case .inOrder: return current + 1 < count ? current + 1 : nil
        case .repeatItem: return current
        case .repeatList: return current + 1 < count ? current + 1 : 0
        case let .shuffled(repeating):
            played.insert(current)
            var left = (0..<count).filter { !played.contains($0) }
            if left.isEmpty {
                guard repeating else { return nil }
                played = []
                // A new pass, but not the item just heard again first (unless it is the only one).
                left = (0..<count).filter { $0 != current || count == 1 }
            }
            guard let pick = left.randomElement(using: &random) else { return nil }
            played.insert(pick)
            return pick
        }
    }
}

/// Where the engine pauses by itself (a sleep timer set to the end of a chapter or an item).
/// Always inside the item being played: a jump to another item (or past the point) drops it.
public enum PausePoint: Sendable, Equatable {
    /// Just before this frame: what is heard last is the frame before it.
    case position(PlaybackPosition)
    /// At the end of this item, whatever its length turns out to be.
    case endOfItem(Int)

    public var item: Int {
        switch self {
        case let .position(position): position.item
        case let .endOfItem(item): item
        }
    }

    /// The frame of `item` where decoding must stop, when the point is inside that item.
    func stopFrame(inItem item: Int) -> Int64? {
        if case let .position(position) = self, position.item == item { return position.frame }
        return nil
    }

    /// True when `position` is in another item or already past the point.
    func isPassed(at position: PlaybackPosition) -> Bool {
        if position.item != item { return true }
        if case let .position(point) = self { return point.frame < position.frame }
        return false
    }
}
