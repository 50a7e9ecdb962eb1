/// Replacing the play list while it plays (files joined the book being played): nothing heard
/// changes. The ring, the sink, the DSP stages and the decoder stay as they are; only the item
/// numbers of everything that names an item are renumbered, on the decoder thread, between two
/// chunks.
extension Producer {
    func replaceItems(_ newItems: [String], renumbering: ItemRenumbering, order: ItemOrder?) {
        // Made for another list (a `load` came between): renumbering this one would be wrong.
        guard renumbering.newIndices.count == reader.items.count, renumbering.newCount == newItems.count else { return }
        reader.replace(newItems, renumbering: renumbering)
        if let order { reader.order = order }
        autoPause.renumber(renumbering)
        reporter.renumber(renumbering)
        continueFrom = continueFrom.map { renumbering($0) }
        awaitingOutput = awaitingOutput.map { renumbering($0) }
        core.shared.withLock { shared in
            shared.clock.renumber(renumbering)
            shared.lastPosition = shared.lastPosition.map { renumbering($0) }
            shared.itemListsReplaced += 1
        }
        // Before any event in the new numbering: the listener renumbers what came before it.
        // (Once the last item is decoded, `finish()` drains the output without taking commands:
        // an item joining in that last half second is not played in this pass; the book ends.)
        core.emit.yield(.itemsReplaced(renumbering))
    }
}
