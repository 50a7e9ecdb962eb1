import Foundation

/// When the output opens, switches and reopens, on the decoder thread: opening the sink (and its
/// ring) for a format, switching to another output, and losing and regaining it. The sink's own
/// lifecycle is `Output`'s.
extension Producer {
    var sink: (any Sink)? { output.sink }
    var ring: RingBuffer? { output.ring }

    func resumeSink() { output.resume() }

    func pauseSink() { output.pause() }

    /// The ring of a sink for `format`, opened (or reopened when the format changed) with a fresh
    /// ring. When opening fails: quietly nil when `quiet` (a reconnect attempt), else it is the
    /// same as losing the output: reported, paused at the place, tried again until it opens.
    func ensureSink(for format: AudioFormat, quiet: Bool = false) -> RingBuffer? {
        if output.isOpen(for: format), let ring { return ring }
        if sink != nil {
            // A new format: let the old one play out first, so the previous item ends whole.
            holdFadeForReopen()
            startSinkIfStopped()
            flushSourceStages()
            flushConverter()
            // A command that ends the audio came while flushing: it goes first.
            if writeAbandoned { return nil }
            output.drain()
            output.close()
        }
        let capacity = max(Self.chunkFrames * 2, Int(Double(format.rate) * ringSeconds))
        let core = self.core
        do {
            try output.open(for: format, capacity: capacity, slack: Self.chunkFrames * 2) { status, generation in
                core.send(.sinkStatus(status, generation: generation))
            }
            try dsp.connect(source: format, sink: output.sink!.format)
        } catch {
            output.close()
            dsp.dropConverter()
            if quiet { return nil }
            waitForOutput(after: error)
            return nil
        }
        let position = reader.position
        let ratio = dsp.sourcePerOutput
        let newRing = output.ring!
        core.shared.withLock { shared in
            shared.ring = newRing
            shared.latencyFrames = 0
            shared.clock.reset(outputFrame: 0, at: position, sourcePerOutput: ratio)
        }
        resumeFadeWaitingForOutput()
        return newRing
    }

    func startSinkIfStopped() {
        do {
            try output.startIfStopped()
        } catch {
            reportFailure(error, kind: .device, subject: sink?.name ?? "output")
        }
    }

    // MARK: Changing and losing the output

    /// Where the listener is now, then the sink closed; the decoder stays for the restart.
    func closeSinkKeepingPosition() -> PlaybackPosition? {
        let heard = core.position
        output.close(stoppingFirst: true)
        writeAbandoned = false
        dsp.disconnect()
        core.shared.withLock { shared in
            shared.ring = nil
            shared.latencyFrames = 0
            if let heard { shared.lastPosition = heard }
        }
        return heard
    }

    /// Continues on another output from the frame being heard on this one.
    func switchOutput(to opener: any SinkOpener) {
        output.opener = opener
        guard sink != nil || awaitingOutput != nil else { return }
        let heard = closeSinkKeepingPosition() ?? awaitingOutput
        if awaitingOutput != nil {
            awaitingOutput = heard
            reconnect()
            return
        }
        if let heard, state != .stopped {
            jump(to: heard)
            if state == .paused { _ = openDecoderIfNeeded() }
        }
        core.emit.yield(.outputChanged)
    }

    func handleSinkStatus(_ status: SinkStatus) {
        switch status {
        case let .lost(message):
            // Keep the place; while playing, try the same output again until it answers. (Lost
            // while paused: the next play opens it again, or says why it cannot.)
            let heard = closeSinkKeepingPosition()
            if state == .playing {
                awaitingOutput = heard ?? reader.position
                reconnectDelay = Self.reconnectSeconds
                setState(.paused)
            } else if let heard {
                jump(to: heard)
            }
            core.emit.yield(.outputLost(message))
        case let .moved(message):
            // Not where the user chose to listen: stop there and let the caller decide.
            pauseSink()
            if state == .playing { setState(.paused) }
            core.emit.yield(.outputMoved(message))
        case .restored:
            break // a lost output is closed and reopened by reconnect(), not resumed in place
        }
    }

    /// The output would not open (at the start, or for the next item's format): the same rule
    /// as a lost one. Everything before the next frame to decode has played out (nothing, at
    /// the start), so that frame is the place kept; paused there, and tried again with backoff.
    func waitForOutput(after error: any Error) {
        let place = reader.position
        core.shared.withLock { shared in
            shared.ring = nil
            shared.latencyFrames = 0
            shared.lastPosition = place
        }
        awaitingOutput = place
        reconnectDelay = Self.reconnectSeconds
        setState(.paused)
        let audioError = error as? AudioError ?? AudioError(.device, subject: "output", reason: "\(error)")
        core.emit.yield(.outputLost("\(audioError)"))
    }

    /// Tries to reopen the lost output at the kept place; on success playback goes on. The
    /// decoder kept open says the format to ask for, so a failed try costs an open, not a seek.
    func reconnect() {
        guard let target = awaitingOutput else { return }
        if reader.decoder == nil { jump(to: target) }
        guard openDecoderIfNeeded(), let decoder = reader.decoder else {
            awaitingOutput = nil
            return
        }
        guard ensureSink(for: decoder.info.format, quiet: true) != nil else {
            reconnectDelay = min(reconnectDelay * 2, Self.reconnectMaxSeconds)
            return
        }
        awaitingOutput = nil
        reconnectDelay = Self.reconnectSeconds
        jump(to: target)
        setState(.playing)
        core.emit.yield(.outputRestored)
    }
}
