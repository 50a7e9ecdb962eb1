import Foundation

/// Fading out and pausing by itself (the sleep timer's end), on the decoder thread. The fade is
/// a ramp of the volume stage, the last stage before the ring, so its length is wall time
/// whatever the speed.
extension Producer {
    /// A fade-out under way.
    enum Fade {
        /// Asked for a duration: silence from this output frame (a count of ring frames written)
        /// on; playback pauses once it is heard.
        case untilOutputFrame(Int)
        /// Towards the pause point: silent when decoding reaches it, and `finish()` pauses there.
        case untilPausePoint
        /// Asked for while no output is open (just after `load`, or while one is reopened for
        /// another format): starts when it opens, from `gain`, over what is left.
        case waitingForOutput(seconds: Double, gain: Float)
    }

    /// The ramp applies to what is produced from now on, which is heard after what the ring
    /// and the sink hold: it is shortened by that much, so silence is heard `seconds` from now.
    func startFadeOut(seconds: Double) {
        guard state == .playing else { return }
        guard let ring, let volumeStage = dsp.volumeStage, let sink else {
            fade = .waitingForOutput(seconds: seconds, gain: dsp.volumeGain)
            return
        }
        let queued = core.shared.withLock { ring.framesWritten - max(0, ring.framesRead - $0.latencyFrames) }
        let frames = max(1, Int(seconds * Double(sink.format.rate)) - queued)
        volumeStage.ramp(to: 0, overFrames: frames)
        fade = .untilOutputFrame(ring.framesWritten + frames)
    }

    /// The output is about to close for a reopen (another format): a timed fade keeps going
    /// from its gain now, over the part of it not yet produced.
    func holdFadeForReopen() {
        guard case let .untilOutputFrame(silentFrom) = fade, let ring, let volumeStage = dsp.volumeStage, let sink else { return }
        let left = Double(max(1, silentFrom - ring.framesWritten)) / Double(sink.format.rate)
        fade = .waitingForOutput(seconds: left, gain: volumeStage.current)
    }

    /// The output opened: a fade asked for before goes on from there.
    func resumeFadeWaitingForOutput() {
        guard case let .waitingForOutput(seconds, gain) = fade else { return }
        dsp.volumeStage?.reset(to: gain)
        startFadeOut(seconds: seconds)
    }

    /// Pauses once the silence a timed fade ended in is heard. Returns whether it paused.
    func pauseIfFadeHeard() -> Bool {
        guard case let .untilOutputFrame(silentFrom) = fade, let ring else { return false }
        let heardOutput = core.shared.withLock { max(0, ring.framesRead - $0.latencyFrames) }
        guard heardOutput >= silentFrom else { return false }
        pauseAfterFade(at: core.position ?? reader.position)
        return true
    }

    /// The fade is over: paused at `place`, the silent rest of the ring dropped (the next play
    /// starts there), the volume back.
    func pauseAfterFade(at place: PlaybackPosition) {
        fade = nil
        pausePoint = nil
        pauseSink()
        dsp.resetVolume()
        jump(to: place)
        setState(.paused)
        core.emit.yield(.fadedOut(place))
    }

    /// Drops a fade under way and the pause point; the volume comes back with the short ramp.
    func cancelFade() {
        guard fade != nil || pausePoint != nil else { return }
        fade = nil
        pausePoint = nil
        dsp.restoreVolume()
        core.emit.yield(.fadeCancelled)
    }

    /// Near the pause point: starts the fade so that silence comes exactly at the point.
    func startFadeBeforePausePointIfDue(sourceRate: Int, itemFrames: Int64?) {
        guard fade == nil, let pausePoint, pausePoint.item == reader.index, pauseFadeSeconds > 0,
              let volumeStage = dsp.volumeStage, let stop = pausePoint.stopFrame(inItem: reader.index) ?? itemFrames else { return }
        let left = max(0, stop - reader.decodedFrame)
        guard Double(left) <= pauseFadeSeconds * Double(sourceRate) * dsp.speed else { return }
        volumeStage.ramp(to: 0, overFrames: Int(Double(left) / dsp.sourcePerOutput))
        fade = .untilPausePoint
    }
}
