import Foundation

/// The engine's decoder thread: takes commands, owns the decoder and the sink, keeps the ring
/// buffer full, and reports what is heard. Everything here runs on that one thread (hence
/// `@unchecked Sendable`: it is handed once to the thread it then lives on).
///
/// It coordinates values that each own one concern: the play list and the decoder
/// (`ItemReader`), the DSP stages (`DSPChain`), pausing by itself (`AutoPause`), what the
/// listener was told (`PositionReporter`), and the sink with its ring (`Output`).
final class Producer: @unchecked Sendable {
    let core: EngineCore
    /// The sink and its ring (`Producer+Output.swift` decides when it opens and reopens).
    let output: Output
    /// The play list, its order, and the current item's decoder with the next frame it gives.
    var reader: ItemReader
    /// Speed -> format conversion -> volume, between the decoder and the ring.
    var dsp = DSPChain()
    /// Pausing by itself: the pause point, the fade before it, a fade under way.
    var autoPause = AutoPause()
    /// The position last published, and the opened items not yet announced.
    var reporter = PositionReporter()
    /// Set while the output is lost (or would not open): where to resume, retried until the
    /// output opens again.
    var awaitingOutput: PlaybackPosition?
    /// How long until the next try of a lost output: `reconnectSeconds`, doubled after each
    /// failed try up to `reconnectMaxSeconds`.
    var reconnectDelay = Producer.reconnectSeconds
    /// True when a write to the ring gave up on a command (`writeToRing`): the rest of what the
    /// chain produced was dropped. Cleared by anything that empties the ring; when the command
    /// kept the ring (a pause), decoding goes back to `continueFrom`.
    var writeAbandoned = false
    /// The source frame that follows the last one in the ring when a write gave up: where
    /// decoding continues, so that what the ring holds plays on seamlessly.
    var continueFrom: PlaybackPosition?
    /// False once the last frame is in the ring buffer: only draining is left.
    var producing = false
    var state = PlaybackState.stopped

    static let chunkFrames = ItemReader.chunkFrames
    /// How much audio the ring holds (`AudioAhead`).
    let ringSeconds: Double
    /// How soon a lost output is tried again; each failed try doubles the wait, up to the
    /// most (a server back is heard within that; a missing one costs a connect attempt).
    static let reconnectSeconds = 0.25
    static let reconnectMaxSeconds = 2.0

    init(core: EngineCore, decoders: any DecoderOpener, sinks: any SinkOpener, ahead: AudioAhead) {
        self.core = core
        ringSeconds = ahead.seconds
        reader = ItemReader(decoders: decoders)
        output = Output(opener: sinks)
    }

    func run() {
        while true {
            // One command at a time: those behind it stay queued, where a write waiting for the
            // sink (even one made while handling this command) sees them and gives up.
            if let command = core.takeCommand() {
                if case .shutdown = command {
                    closeAll()
                    core.emit.finish()
                    return
                }
                handle(command)
                core.commandHandled()
                continue
            }
            if writeAbandoned { resyncAfterAbandonedWrite() }
            if awaitingOutput != nil {
                // Waiting for a lost output: retry with backoff, or act on a command at once.
                if core.commandSignal.wait(timeout: .now() + reconnectDelay) == .timedOut { reconnect() }
            } else if state == .playing && producing {
                produce()
            } else if state == .playing {
                finish()
            } else {
                core.commandSignal.wait()
            }
        }
    }

    // MARK: Commands

    func handle(_ command: EngineCore.Command) {
        switch command {
        case let .load(newItems, start, newEnd, play):
            awaitingOutput = nil
            closeAll()
            reader.load(newItems, end: newEnd)
            autoPause.clear()
            dsp.resetVolume()
            jump(to: start)
            setState(play ? .playing : .paused)
        case .play:
            if autoPause.fade != nil { cancelFade() }
            if awaitingOutput != nil {
                // Asked to play while the output is away: try it now rather than at the next try.
                reconnect()
                return
            }
            if state == .stopped && !reader.items.isEmpty {
                jump(to: core.position ?? PlaybackPosition(item: 0, frame: 0))
            }
            resumeSink()
            if !reader.items.isEmpty { setState(.playing) }
        case .pause:
            if autoPause.fade != nil { cancelFade() }
            awaitingOutput = nil
            pauseSink()
            if state == .playing {
                // The place where it stopped, before the state: whoever saves at a pause (the
                // recorder) saves exactly this, not the last tenth-of-a-second report.
                updateLatencyAndReport(force: true)
                setState(.paused)
            }
        case .toggle:
            handle(state == .playing ? .pause : .play)
        case .stop:
            cancelFade()
            awaitingOutput = nil
            closeAll()
            setState(.stopped)
        case let .setOutput(opener):
            switchOutput(to: opener)
        case let .sinkStatus(status, generation):
            guard generation == output.generation, sink != nil else { return }
            handleSinkStatus(status)
        case let .seek(target):
            if autoPause.fade != nil || autoPause.point?.isPassed(at: target) == true { cancelFade() }
            // Before the jump's own report: that report is the first from the new place.
            core.emit.yield(.jumped(target))
            jump(to: target)
            // While the output is away, it resumes from the new place, not the one kept before.
            if awaitingOutput != nil, let place = core.position { awaitingOutput = place }
        case let .setSpeed(newSpeed):
            changeSpeed(to: newSpeed)
        case let .setSilenceSkipping(skipping):
            changeSilenceSkipping(to: skipping)
        case let .setReferenceLoudness(lufs):
            dsp.setReferenceLoudness(lufs)
        case let .setVolume(percent):
            dsp.setVolume(Float(percent / 100))
            core.emit.yield(.volumeChanged(percent))
        case let .setLoudnessGain(gain):
            dsp.setLoudnessGain(gain, fading: autoPause.fade != nil)
        case let .fadeOut(seconds):
            startFadeOut(seconds: seconds)
        case let .setPausePoint(point, fadeSeconds):
            if point == nil { cancelFade() }
            autoPause.point = point
            autoPause.fadeSeconds = fadeSeconds
        case .cancelFade:
            cancelFade()
        case let .setOrder(newOrder):
            reader.order = newOrder
        case let .setItemTrim(trim):
            reader.trim = trim
        case let .replaceItems(newItems, renumbering, newOrder):
            replaceItems(newItems, renumbering: renumbering, order: newOrder)
        case .shutdown:
            break
        }
    }

    /// Moves the source to `target`: discards what is queued and restarts the output from there.
    func jump(to target: PlaybackPosition) {
        guard reader.items.indices.contains(target.item) else { return }
        output.stop()
        ring?.discardUnread()
        writeAbandoned = false
        dsp.reset()
        placeReader(at: target)
        let position = reader.position
        let ratio = dsp.sourcePerOutput
        core.shared.withLock { shared in
            shared.clock.reset(outputFrame: ring?.framesWritten ?? 0, at: position, sourcePerOutput: ratio)
            shared.lastPosition = position
        }
        report(force: true)
    }

    /// Puts the reader at `target` (a valid item), opening or seeking its decoder.
    func placeReader(at target: PlaybackPosition) {
        var kept = reader.jump(toItem: target.item)
        if kept, target.frame == 0, reader.decoder?.info.isSeekable != true {
            // A stream that cannot seek gets back to its top by being opened again.
            reader.closeDecoder()
            kept = false
        }
        producing = true
        // A target frame belongs to its item: when that item fails to open and a later one
        // plays instead, the later one starts at its top. A kept decoder is wherever decoding
        // was, so it is sought even to frame 0 (`prev` after an item's first seconds). A target
        // in the item's trimmed intro lands at its end; in its outro, at the next item's start.
        guard openDecoderIfNeeded(countingIntro: false), reader.index == target.item else { return }
        guard let frame = reader.audibleRange.landing(target.frame) else {
            skipToNextItem(from: target.frame)
            return
        }
        let introSkipped = frame - target.frame
        if introSkipped > 0, let rate = reader.decoder?.info.format.rate {
            core.emit.yield(.trimmed(item: reader.index, frames: introSkipped, sourceRate: rate))
        }
        if frame != reader.decodedFrame || kept {
            do {
                try reader.seek(to: frame)
            } catch {
                reportFailure(error, subject: reader.path)
            }
        }
        if introSkipped > 0 { autoPause.decodingSkipped(to: reader.position) }
    }

    func setState(_ newState: PlaybackState) {
        guard newState != state else { return }
        state = newState
        core.shared.withLock { $0.state = newState }
        core.emit.yield(.stateChanged(newState))
    }

    // MARK: Producing

    /// Opens the current item's decoder unless open; on failure reports it and moves to the next
    /// item. Returns whether a decoder is open.
    /// An item opened at its top starts after its trimmed intro (`countingIntro`: reported as
    /// skipped; a jump reports what it skipped itself).
    @discardableResult
    func openDecoderIfNeeded(countingIntro: Bool = true) -> Bool {
        while reader.decoder == nil {
            guard reader.hasItem else {
                producing = false
                return false
            }
            do {
                reporter.opened(try reader.openCurrent())
                skipIntro(counting: countingIntro)
            } catch {
                reportFailure(error, subject: reader.path)
                reader.begin(item: reader.index + 1)
                markNextFrame()
            }
        }
        return true
    }

    /// Marks the position clock: the next frame written to the ring is the reader's next frame,
    /// at the chain's ratio now (a new item, a new speed).
    func markNextFrame() {
        let position = reader.position
        let ratio = dsp.sourcePerOutput
        core.shared.withLock { $0.clock.mark(outputFrame: ring?.framesWritten ?? 0, at: position, sourcePerOutput: ratio) }
    }

    /// Decodes one chunk into the ring buffer, or sleeps until there is room for one.
    func produce() {
        if pauseIfFadeHeard() { return }
        guard openDecoderIfNeeded(), let decoder = reader.decoder else { return }
        let format = decoder.info.format
        startFadeBeforePausePointIfDue(sourceRate: format.rate, itemFrames: reader.audibleRange.end ?? decoder.info.totalFrames)
        guard let ring = ensureSink(for: format) else { return }
        // Slowed down or resampled, a chunk of input may come out longer: read only what fits.
        var room = Self.chunkFrames
        while room >= Self.chunkFrames / 4 && dsp.maxOutputFrames(forInput: room) > ring.freeFrames { room /= 2 }
        if room < Self.chunkFrames / 4 {
            startSinkIfStopped()
            // Reported before the rest too: a consumer that waits for the producer to rest
            // (the tests' clocked sink) then finds what it took already reported.
            updateLatencyAndReport()
            ring.waitForSpace(timeout: 0.2)
            updateLatencyAndReport()
            return
        }
        let wanted = autoPause.framesBeforePoint(atMost: reader.framesBeforeEnd(atMost: room), from: reader.position)
        do {
            let frames = try reader.read(maxFrames: wanted)
            if frames == 0 {
                if let outro = reader.outroReached {
                    core.emit.yield(.trimmed(item: reader.index, frames: outro, sourceRate: format.rate))
                }
                advanceToNextItem()
                return
            }
            dsp.prepareSilenceStage(for: format)
            do {
                try dsp.prepareSpeedStage(for: format)
            } catch {
                // Without a speed stage the chunk plays unstretched; the next one tries again.
                reportFailure(error, subject: "speed")
            }
            let first = reader.position.frame
            reader.withDecoded { dsp.process($0, frames: frames, firstSourceFrame: first, into: { writeToRing($0, frames: $1) }, cut: markCut) }
            reader.advance(by: frames)
        } catch {
            reportFailure(error, subject: reader.path)
            advanceToNextItem()
        }
        updateLatencyAndReport()
    }

    func advanceToNextItem() {
        reader.closeDecoder()
        // What skip silence and sonic hold is the end of this item: out with it, so the next
        // item's mark is exact.
        flushSourceStages()
        if reader.rangeEndsHere {
            producing = false
            return
        }
        if autoPause.decodingStopped(at: reader.position, next: reader.nextItem()) {
            // The pause point was in this item: nothing more is decoded; finish() pauses.
            producing = false
            return
        }
        guard let next = reader.nextItem() else {
            producing = false
            return
        }
        reader.begin(item: next)
        markNextFrame()
    }


    /// Everything is in the ring buffer: play it out, then stop.
    func finish() {
        if let sink {
            flushSourceStages()
            flushConverter()
            // A command that ends the audio is waiting: it decides, not a drain of a sink
            // that may never take another frame.
            if writeAbandoned { return }
            startSinkIfStopped()
            try? sink.drain()
            updateLatencyAndReport()
        }
        closeAll()
        if let target = autoPause.target {
            autoPause.target = nil
            pauseAfterFade(at: target)
            return
        }
        autoPause.fade = nil
        dsp.resetVolume()
        setState(.stopped)
        core.emit.yield(.ended)
    }

    func closeAll() {
        output.close()
        writeAbandoned = false
        dsp.close()
        reader.closeDecoder()
        producing = false
        core.shared.withLock { shared in
            if let ring = shared.ring {
                // What was heard last is where a later play resumes.
                shared.lastPosition = shared.clock.position(atOutputFrame: max(0, ring.framesRead - shared.latencyFrames))
                    ?? shared.lastPosition
            }
            shared.ring = nil
        }
    }

    // MARK: The DSP chain's end: the ring

    /// Writes all `frames` into the ring, waiting for the sink to make room if it must (only while
    /// playing: produce() reads no more than its estimate says fits, so waits happen when a stage
    /// flushes, or when the resampler gives out more than the estimate at once).
    ///
    /// The wait must have a way out: a sink whose server died takes nothing more, and its
    /// report of that is a command like any other. So every command that ends the audio (stop,
    /// pause, seek, load, another output, the output lost, shutdown; `EngineCore.send` wakes
    /// this wait for each) ends the write: the rest is dropped and `writeAbandoned` set, and
    /// later writes of the same chunk are dropped too until the run loop has handled it.
    func writeToRing(_ samples: UnsafePointer<Float>, frames: Int) {
        guard let ring, !writeAbandoned else { return }
        var done = 0
        while done < frames {
            done += ring.write(from: samples + done * ring.channels, frames: frames - done)
            if done < frames {
                if core.hasCommandEndingTheAudio(outputGeneration: output.generation) {
                    writeAbandoned = true
                    let end = ring.framesWritten
                    continueFrom = core.shared.withLock { $0.clock.position(ahead: end) }
                    return
                }
                startSinkIfStopped()
                ring.waitForSpace(timeout: 0.2)
            }
        }
    }

    /// After a write gave up and the commands are handled: when the ring is still the one the
    /// write was for (a pause keeps it), what it holds stays (resuming is seamless, nothing is
    /// heard twice), and the decoder goes back to the frame after its last one, with the stages
    /// emptied of the rest that was dropped.
    func resyncAfterAbandonedWrite() {
        writeAbandoned = false
        defer { continueFrom = nil }
        guard ring != nil, state != .stopped, let next = continueFrom else { return }
        dsp.reset()
        placeReader(at: next)
        markNextFrame()
    }

    /// Puts what skip silence and sonic hold through the rest of the chain into the ring (then
    /// every source frame given to them has come out).
    func flushSourceStages() {
        guard ring != nil else { return }
        dsp.flushSilenceStage(into: { writeToRing($0, frames: $1) }, cut: markCut)
        dsp.flushSpeedStage { writeToRing($0, frames: $1) }
    }

    /// Puts what the resampler still holds into the ring (the end of the audio, or of a format).
    func flushConverter() {
        guard ring != nil else { return }
        dsp.flushConverter { writeToRing($0, frames: $1) }
    }

    /// Applies a new speed and marks the position clock where it starts.
    ///
    /// Sonic's latency: it holds back a few pitch periods of input. While playing, it is flushed
    /// first, so the audio already given comes out at the old speed and the next output frame is
    /// exactly the reader's `decodedFrame` (less the resampler's few milliseconds, as for any mark): the new
    /// mark, with the new ratio, goes there. What is in the ring still plays at the old speed,
    /// so the change is heard within the ring's latency. While paused (or not yet playing), the
    /// queued audio is thrown away instead and decoding restarts from the frame heard, at the new
    /// speed: nothing stale is heard on resume, and no flush can wait on a paused output.
    func changeSpeed(to newSpeed: Double) {
        guard newSpeed != dsp.speed else { return }
        let playingOn = state == .playing && ring != nil && awaitingOutput == nil
        if playingOn { flushSourceStages() }
        dsp.setSpeed(newSpeed)
        if playingOn {
            // Once the last frame is in the ring nothing more plays at the new speed: no mark (it
            // would point past the last item).
            if producing { markNextFrame() }
        } else if ring != nil, awaitingOutput == nil, let heard = core.position {
            jump(to: heard)
        }
        core.emit.yield(.speedChanged(newSpeed))
    }

    // MARK: Reporting

    /// Publishes a failure of the current item or the output. Decoders and sinks throw
    /// `AudioError`; anything else is wrapped as `kind`, about `subject`.
    func reportFailure(_ error: any Error, kind: AudioError.Kind = .internalError, subject: String) {
        let audioError = error as? AudioError ?? AudioError(kind, subject: subject, reason: "\(error)")
        core.emit.yield(.failed(item: reader.index, error: audioError))
    }

    func updateLatencyAndReport(force: Bool = false) {
        if let sink { core.shared.withLock { $0.latencyFrames = Int(sink.latencyFrames) } }
        report(force: force)
    }

    /// Publishes the heard position when it moved by a tenth of a second, and the item when the
    /// heard item changed.
    func report(force: Bool) {
        guard let heard = core.position else { return }
        reporter.report(heard, force: force, sinkRate: sink?.format.rate, to: core.emit)
    }
}
