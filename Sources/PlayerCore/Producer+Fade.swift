import Foundation

/// Fading out and pausing by itself (the sleep timer's end), on the decoder thread: `AutoPause`
/// keeps where and decides when, this drives the volume stage and the output. The fade is a ramp
/// of the volume stage, the last stage before the ring, so its length is wall time whatever the
/// speed.
extension Producer {
    /// The ramp applies to what is produced from now on, which is heard after what the ring
    /// and the sink hold: it is shortened by that much, so silence is heard `seconds` from now.
    func startFadeOut(seconds: Double) {
        guard state == .playing else { return }
        guard let ring, let volumeStage = dsp.volumeStage, let sink else {
            autoPause.fade = .waitingForOutput(seconds: seconds, gain: dsp.volumeGain)
            return
        }
        let queued = core.shared.withLock { ring.framesWritten - max(0, ring.framesRead - $0.latencyFrames) }
        let frames = max(1, Int(seconds * Double(sink.format.rate)) - queued)
        volumeStage.ramp(to: 0, overFrames: frames)
        autoPause.fade = .untilOutputFrame(ring.framesWritten + frames)
    }

    /// The output is about to close for a reopen (another format): a timed fade keeps going
    /// from its gain now, over the part of it not yet produced.
    func holdFadeForReopen() {
        guard case let .untilOutputFrame(silentFrom) = autoPause.fade, let ring, let volumeStage = dsp.volumeStage, let sink else { return }
        let left = Double(max(1, silentFrom - ring.framesWritten)) / Double(sink.format.rate)
        autoPause.fade = .waitingForOutput(seconds: left, gain: volumeStage.current)
    }

    /// The output opened: a fade asked for before goes on from there.
    func resumeFadeWaitingForOutput() {
        guard case let .waitingForOutput(seconds, gain) = autoPause.fade else { return }
        dsp.volumeStage?.reset(to: gain)
        startFadeOut(seconds: seconds)
    }

    /// Pauses once the silence a timed fade ended in is heard. Returns whether it paused.
    func pauseIfFadeHeard() -> Bool {
        guard case let .untilOutputFrame(silentFrom) = autoPause.fade, let ring else { return false }
        let heardOutput = core.shared.withLock { max(0, ring.framesRead - $0.latencyFrames) }
        guard heardOutput >= silentFrom else { return false }
        pauseAfterFade(at: core.position ?? reader.position)
        return true
    }

    /// The fade is over: paused at `place`, the silent rest of the ring dropped (the next play
    /// starts there), the volume back.
    func pauseAfterFade(at place: PlaybackPosition) {
        autoPause.fade = nil
        autoPause.point = nil
        pauseSink()
        dsp.resetVolume()
        jump(to: place)
        setState(.paused)
        core.emit.yield(.fadedOut(place))
    }

    /// Drops a fade under way and the pause point; the volume comes back with the short ramp.
    func cancelFade() {
        guard autoPause.cancel() else { return }
        dsp.restoreVolume()
        core.emit.yield(.fadeCancelled)
    }

    /// Near the pause point: starts the fade so that silence comes exactly at the point.
    func startFadeBeforePausePointIfDue(sourceRate: Int, itemFrames: Int64?) {
        guard let volumeStage = dsp.volumeStage,
              let left = autoPause.fadeDue(at: reader.position, itemFrames: itemFrames, sourceRate: sourceRate, speed: dsp.speed)
        else { return }
        volumeStage.ramp(to: 0, overFrames: Int(Double(left) / dsp.sourcePerOutput))
        autoPause.fade = .untilPausePoint
    }
}
