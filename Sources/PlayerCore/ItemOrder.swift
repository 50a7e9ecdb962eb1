/// Which item the engine plays after the one that just ended. The items keep their place in the
/// list (positions stay item + frame); only the order they are heard in changes. The engine
/// never decides an order itself: a shuffled order is planned by whoever drives it (the player
/// controller), so the automatic advance and a listener's `next` follow the same plan.
public enum ItemOrder: Sendable, Equatable {
    /// Each item once, in the list's order (the default).
    case inOrder
    /// The current item again and again.
    case repeatItem
    /// In order, and from the first item again after the last.
    case repeatList
    /// The items in this order (a permutation of them); after the last, the first again when
    /// `repeating`, else the end. An item not in it is followed by the first.
    case sequence([Int], repeating: Bool)

    /// The item to play after `current` of `count`; nil when playback ends.
    public func next(after current: Int, count: Int) -> Int? {
        switch self {
        case .inOrder: return current + 1 < count ? current + 1 : nil
        case .repeatItem: return current
        case .repeatList: return current + 1 < count ? current + 1 : 0
        case let .sequence(order, repeating):
            guard let place = order.firstIndex(of: current) else { return order.first }
            if place + 1 < order.count { return order[place + 1] }
            return repeating ? order.first : nil
        }
    }

    /// The item played before `current` in this order; nil at the start.
    public func previous(before current: Int, count: Int) -> Int? {
        switch self {
        case .inOrder, .repeatList: return current > 0 ? current - 1 : nil
        case .repeatItem: return current
        case let .sequence(order, _):
            guard let place = order.firstIndex(of: current), place > 0 else { return nil }
            return order[place - 1]
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
