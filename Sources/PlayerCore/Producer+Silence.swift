/// Skip silence on the decoder thread: the settings, and the mark where a silence was cut.
extension Producer {
    /// A silence was cut and sonic flushed: the next frame written to the ring is
    /// `cut.sourceFrameAfter` of the item being decoded. The clock is marked there (positions
    /// stay source frames), and the frames dropped are published for the time saved.
    func markCut(_ cut: SilenceCut) {
        // A write that gave up drops the rest of the chunk; decoding resumes before the cut.
        guard let ring, !writeAbandoned else { return }
        let position = PlaybackPosition(item: reader.index, frame: cut.sourceFrameAfter)
        let ratio = dsp.sourcePerOutput
        core.shared.withLock { $0.clock.mark(outputFrame: ring.framesWritten, at: position, sourcePerOutput: ratio) }
        let rate = reader.decoder?.info.format.rate ?? dsp.silenceStage?.format.rate ?? 0
        core.emit.yield(.silenceSkipped(item: reader.index, frames: cut.skippedFrames, sourceRate: rate))
    }

    /// Skip silence on, off or with another minimum, for audio decoded from now on. As for a
    /// speed change: while playing, what the stage holds goes out first (the next frame is then
    /// the reader's, no mark needed); while paused, the queue is dropped and decoding restarts
    /// from the frame heard (no flush can wait on a paused output).
    func changeSilenceSkipping(to skipping: SilenceSkipping?) {
        guard skipping != dsp.silenceSkipping else { return }
        let playingOn = state == .playing && ring != nil && awaitingOutput == nil
        if playingOn { dsp.flushSilenceStage(into: { writeToRing($0, frames: $1) }, cut: markCut) }
        dsp.setSilenceSkipping(skipping)
        if !playingOn, ring != nil, awaitingOutput == nil, let heard = core.position {
            jump(to: heard)
        }
    }
}
