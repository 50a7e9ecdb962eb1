import Foundation

/// The output's lifecycle on the decoder thread: opening the sink (and its ring) for a format,
/// starting, pausing and resuming it, switching to another output, and losing and regaining it.
extension Producer {
    func resumeSink() {
        if sinkState == .paused, let sink {
            try? sink.resume()
            sinkState = .running
        }
    }

    func pauseSink() {
        if sinkState == .running, let sink {
            try? sink.pause()
            sinkState = .paused
        }
    }

    /// The sink for `format`, opened (or reopened when the format changed) with a fresh ring.
    /// When opening fails: quietly nil when `quiet` (a reconnect attempt), else the failure is
    /// reported and playback stops.
    func ensureSink(for format: AudioFormat, quiet: Bool = false) -> RingBuffer? {
        if sink != nil, let ring, sinkSourceFormat == format { return ring }
        if let sink {
            // A new format: let the old one play out first, so the previous item ends whole.
            startSinkIfStopped()
            flushSpeedStage()
            flushConverter()
            try? sink.drain()
            sink.close()
            self.sink = nil
        }
        // The sink may run at another rate (JACK, some ALSA devices) or channel count; the ring
        // holds audio at the sink's format, so it is made once the sink says what that is.
        let capacity = max(Self.chunkFrames * 2, Int(Double(format.rate) * Self.ringSeconds))
        sinkGeneration += 1
        let generation = sinkGeneration
        let core = self.core
        do {
            let opened = try openSinkAndRing(format: format, capacity: capacity) { status in
                core.send(.sinkStatus(status, generation: generation))
            }
            sink = opened.sink
            ring = opened.ring
            converter = opened.sink.format == format ? nil : try FormatConverter(from: format, to: opened.sink.format)
            volumeStage = VolumeStage(gain: volumeGain, channels: opened.sink.format.channels, rate: opened.sink.format.rate)
        } catch {
            sink?.close()
            sink = nil
            ring = nil
            converter = nil
            if quiet { return nil }
            reportFailure(error, kind: .device, subject: "output")
            closeAll()
            setState(.stopped)
            return nil
        }
        sinkSourceFormat = format
        let position = PlaybackPosition(item: itemIndex, frame: decodedFrame)
        let ratio = sourcePerOutput
        let newRing = ring!
        core.shared.withLock { shared in
            shared.ring = newRing
            shared.latencyFrames = 0
            shared.clock.reset(outputFrame: 0, at: position, sourcePerOutput: ratio)
        }
        sinkState = .stopped
        scratch = [Float](repeating: 0, count: Self.chunkFrames * format.channels)
        return newRing
    }

    /// Opens a sink asking for `format`; when it runs at another format, the ring it was given is
    /// the wrong shape, so it is opened again on a ring of its own format (a second open of a
    /// device is cheap, and a sink's ring cannot change once it pulls from it).
    func openSinkAndRing(format: AudioFormat, capacity: Int,
                                 onStatus: @escaping @Sendable (SinkStatus) -> Void) throws -> (sink: any Sink, ring: RingBuffer) {
        let firstRing = RingBuffer(channels: format.channels, capacityFrames: capacity)
        let first = try sinks.openSink(format: format, source: firstRing, onStatus: onStatus)
        if first.format == format { return (first, firstRing) }
        let actual = first.format
        first.close()
        let ratio = Double(actual.rate) / Double(format.rate)
        let ring = RingBuffer(channels: actual.channels, capacityFrames: Int(Double(capacity) * ratio) + Self.chunkFrames * 2)
        let second = try sinks.openSink(format: actual, source: ring, onStatus: onStatus)
        guard second.format == actual else {
            second.close()
            throw AudioError(.unsupported, subject: second.name, reason: "changes its format on every open (\(actual), then \(second.format))")
        }
        return (second, ring)
    }

    func startSinkIfStopped() {
        guard sinkState == .stopped, let sink else { return }
        do {
            try sink.start()
            sinkState = .running
        } catch {
            reportFailure(error, kind: .device, subject: sink.name)
        }
    }

    // MARK: Changing and losing the output

    /// Where the listener is now, then the sink closed; the decoder stays for the restart.
    func closeSinkKeepingPosition() -> PlaybackPosition? {
        let heard = core.position
        if let sink {
            try? sink.stop()
            sink.close()
        }
        sink = nil
        sinkState = .closed
        sinkSourceFormat = nil
        converter = nil
        speedStage?.reset()
        ring = nil
        core.shared.withLock { shared in
            shared.ring = nil
            shared.latencyFrames = 0
            if let heard { shared.lastPosition = heard }
        }
        return heard
    }

    /// Continues on another output from the frame being heard on this one.
    func switchOutput(to opener: any SinkOpener) {
        sinks = opener
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
                awaitingOutput = heard ?? PlaybackPosition(item: itemIndex, frame: decodedFrame)
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

    /// Tries to reopen the lost output at the kept place; on success playback goes on.
    func reconnect() {
        guard let target = awaitingOutput else { return }
        jump(to: target)
        guard openDecoderIfNeeded(), let decoder else {
            awaitingOutput = nil
            return
        }
        guard ensureSink(for: decoder.info.format, quiet: true) != nil else { return }
        awaitingOutput = nil
        setState(.playing)
        core.emit.yield(.outputRestored)
    }
}
