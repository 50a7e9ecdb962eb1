import Library
import PlayerCore

/// The book's items as the session numbers them (by media id), and the renumberings given to
/// the engine that it has not announced taking yet: until its `.itemsReplaced`, the engine's
/// events number the items as the list before, and are read through what is still pending.
struct ItemNumbering {
    private(set) var mediaIds: [Int64]
    /// The renumberings given to the engine and not yet announced taken, oldest first.
    private var pending: [ItemRenumbering] = []
    /// How many the engine announced taking.
    private var announced = 0

    init(mediaIds: [Int64]) { self.mediaIds = mediaIds }

    mutating func replace(with newIds: [Int64], _ renumbering: ItemRenumbering) {
        mediaIds = newIds
        pending.append(renumbering)
    }

    /// `event` numbered as the session numbers the items now; nil for the engine's
    /// announcement that it took a new list (nothing to follow: it is consumed here).
    mutating func current(_ event: PlaybackEvent) -> PlaybackEvent? {
        if case .itemsReplaced = event {
            if !pending.isEmpty {
                pending.removeFirst()
                announced += 1
            }
            return nil
        }
        guard let waiting = Self.composed(pending[...]) else { return event }
        return event.renumbered(waiting)
    }

    /// A position read from the engine (`numberedPosition`) numbered as the session numbers the
    /// items now: the engine may have taken a list it has not announced yet, or not taken it.
    func current(_ position: PlaybackPosition, itemListsReplaced taken: Int) -> PlaybackPosition {
        guard let waiting = Self.composed(pending.dropFirst(max(0, taken - announced))) else { return position }
        return waiting(position)
    }

    private static func composed(_ renumberings: ArraySlice<ItemRenumbering>) -> ItemRenumbering? {
        guard let first = renumberings.first else { return nil }
        return renumberings.dropFirst().reduce(first) { $0.then($1) }
    }
}

extension PlayerSession {
    /// Takes the book's new item list (files joined it while it plays; `renumbering` says where
    /// the known ones went) without touching what is heard: the timeline, the place, the recorder
    /// and the shuffle plan are renumbered here, and the engine is given the list with the order
    /// that goes with it. Chapters found when items were opened are kept.
    func replaceItems(with media: [Media], _ renumbering: ItemRenumbering) {
        var newTimeline = BookTimeline(media: media, userChapters: timeline.userChapters)
        for (old, item) in timeline.items.enumerated() where !item.chapters.isEmpty {
            newTimeline.items[renumbering(old)].chapters = item.chapters
        }
        timeline = newTimeline
        numbering.replace(with: media.map { $0.id! }, renumbering)
        renumberPlace(renumbering)
        recorder.renumber(mediaIds: mediaIds, renumbering)
        // The items that joined are heard later in this shuffled pass, in an order of their own.
        shufflePlan = shufflePlan.map { $0.map { renumbering($0) } + renumbering.joined.shuffled() }
        recorder.lastItemInOrder = shufflePlan?.last ?? media.count - 1
        engine.replaceItems(media.map(\.path), renumbering: renumbering, order: order)
    }
}
