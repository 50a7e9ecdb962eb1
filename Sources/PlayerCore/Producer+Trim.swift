/// Intro and outro skipping on the decoder thread (`ItemTrim`): where an item opened at its top
/// starts, and where a jump into an outro goes.
extension Producer {
    /// The item just opened at its top starts after its intro: the decoder is sought there and
    /// the clock marked (a mark at the same output frame replaces the one left at frame 0).
    func skipIntro(counting: Bool) {
        let start = reader.audibleRange.start
        guard start > reader.decodedFrame, reader.decoder?.info.isSeekable == true,
              let rate = reader.decoder?.info.format.rate else { return }
        let skipped = start - reader.decodedFrame
        do {
            try reader.seek(to: start)
        } catch {
            // Played from where it is: a decoder that cannot seek there plays its intro.
            reportFailure(error, subject: reader.path)
            return
        }
        markNextFrame()
        autoPause.decodingSkipped(to: reader.position)
        if counting { core.emit.yield(.trimmed(item: reader.index, frames: skipped, sourceRate: rate)) }
    }

    /// A jump landed in the current item's outro: on to the next item in the play order, after
    /// its intro; past the last one (or the end of the range) nothing is left to play, and the
    /// book ends as it would have there.
    func skipToNextItem(from frame: Int64) {
        guard !reader.rangeEndsHere, let next = reader.nextItem() else {
            reader.stop(at: frame)
            producing = false
            return
        }
        reader.closeDecoder()
        reader.begin(item: next)
        openDecoderIfNeeded()
    }
}
