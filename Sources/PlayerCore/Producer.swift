import Foundation

/// The engine's decoder thread: takes commands, owns the decoder and the sink, keeps the ring
/// buffer full, and reports what is heard. Everything here runs on that one thread.
final class Producer: @unchecked Sendable {
    private let core: EngineCore
    private let decoders: any DecoderOpener
    private let sinks: any SinkOpener

    private var items: [String] = []
    private var end: PlaybackPosition?
    private var itemIndex = 0
    private var decoder: (any Decoder)?
    /// The next frame the decoder will produce.
    private var decodedFrame: Int64 = 0
    private var sink: (any Sink)?
    private var ring: RingBuffer?
    private var sinkState = SinkState.closed
    private var scratch: [Float] = []
    /// False once the last frame is in the ring buffer: only draining is left.
    private var producing = false
    private var state = PlaybackState.stopped
    private var reported: PlaybackPosition?
    /// What each recently opened item turned out to be, kept until it is heard and announced.
    private var openedItems: [Int: ItemInfo] = [:]

    private enum SinkState { case closed, stopped, running, paused }

    private static let chunkFrames = 4096
    private static let ringSeconds = 0.5

    init(core: EngineCore, decoders: any DecoderOpener, sinks: any SinkOpener) {
        self.core = core
        self.decoders = decoders
        self.sinks = sinks
    }

    func run() {
        while true {
            let commands = core.shared.withLock { shared in
                defer { shared.commands.removeAll() }
                return shared.commands
            }
            for command in commands {
                if case .shutdown = command {
                    closeAll()
                    core.emit.finish()
                    return
                }
                handle(command)
            }
            guard commands.isEmpty else { continue }
            if state == .playing && producing {
                produce()
            } else if state == .playing {
                finish()
            } else {
                core.commandSignal.wait()
            }
        }
    }

    // MARK: Commands

    private func handle(_ command: EngineCore.Command) {
        switch command {
        case let .load(newItems, start, newEnd, play):
            closeAll()
            items = newItems
            end = newEnd
            jump(to: start)
            setState(play ? .playing : .paused)
        case .play:
            if state == .stopped && !items.isEmpty {
                jump(to: core.position ?? PlaybackPosition(item: 0, frame: 0))
            }
            resumeSink()
            if !items.isEmpty { setState(.playing) }
        case .pause:
            pauseSink()
            if state == .playing { setState(.paused) }
        case .toggle:
            handle(state == .playing ? .pause : .play)
        case .stop:
            closeAll()
            setState(.stopped)
        case let .seek(target):
            jump(to: target)
        case .shutdown:
            break
        }
    }

    /// Moves the source to `target`: discards what is queued and restarts the output from there.
    private func jump(to target: PlaybackPosition) {
        guard items.indices.contains(target.item) else { return }
        if let sink, sinkState != .stopped {
            try? sink.stop()
            sinkState = .stopped
        }
        ring?.discardUnread()
        if target.item != itemIndex || decoder == nil {
            decoder = nil
            itemIndex = target.item
        }
        decodedFrame = 0
        producing = true
        if openDecoderIfNeeded(), target.frame > 0 {
            do {
                try decoder?.seek(to: target.frame)
                decodedFrame = target.frame
            } catch {
                reportFailure(error, subject: items[itemIndex])
            }
        }
        let position = PlaybackPosition(item: itemIndex, frame: decodedFrame)
        core.shared.withLock { shared in
            shared.clock.reset(outputFrame: ring?.framesWritten ?? 0, at: position)
            shared.lastPosition = position
        }
        report(force: true)
    }

    private func resumeSink() {
        if sinkState == .paused, let sink {
            try? sink.resume()
            sinkState = .running
        }
    }

    private func pauseSink() {
        if sinkState == .running, let sink {
            try? sink.pause()
            sinkState = .paused
        }
    }

    private func setState(_ newState: PlaybackState) {
        guard newState != state else { return }
        state = newState
        core.shared.withLock { $0.state = newState }
        core.emit.yield(.stateChanged(newState))
    }

    // MARK: Producing

    /// Opens the current item's decoder unless open; on failure reports it and moves to the next
    /// item. Returns whether a decoder is open.
    @discardableResult
    private func openDecoderIfNeeded() -> Bool {
        while decoder == nil {
            guard items.indices.contains(itemIndex) else {
                producing = false
                return false
            }
            do {
                let opened = try decoders.openDecoder(path: items[itemIndex])
                decoder = opened
                openedItems[itemIndex] = ItemInfo(
                    index: itemIndex, path: items[itemIndex], stream: opened.info, metadata: opened.metadata)
            } catch {
                reportFailure(error, subject: items[itemIndex])
                itemIndex += 1
                decodedFrame = 0
                markItemStart()
            }
        }
        return true
    }

    private func markItemStart() {
        let position = PlaybackPosition(item: itemIndex, frame: decodedFrame)
        core.shared.withLock { $0.clock.mark(outputFrame: ring?.framesWritten ?? 0, at: position) }
    }

    /// Decodes one chunk into the ring buffer, or sleeps until there is room for one.
    private func produce() {
        guard openDecoderIfNeeded(), let decoder else { return }
        let format = decoder.info.format
        guard let ring = ensureSink(for: format) else { return }
        let room = min(ring.freeFrames, Self.chunkFrames)
        if room < Self.chunkFrames / 4 {
            startSinkIfStopped()
            ring.waitForSpace(timeout: 0.2)
            updateLatencyAndReport()
            return
        }
        var wanted = room
        if let end, end.item == itemIndex { wanted = Int(min(Int64(wanted), max(0, end.frame - decodedFrame))) }
        do {
            let frames = wanted == 0 ? 0 : try scratch.withUnsafeMutableBufferPointer { buffer in
                try decoder.read(into: buffer.baseAddress!, maxFrames: wanted)
            }
            if frames == 0 {
                advanceToNextItem()
                return
            }
            scratch.withUnsafeBufferPointer { _ = ring.write(from: $0.baseAddress!, frames: frames) }
            decodedFrame += Int64(frames)
        } catch {
            reportFailure(error, subject: items[itemIndex])
            advanceToNextItem()
        }
        updateLatencyAndReport()
    }

    private func advanceToNextItem() {
        decoder = nil
        if let end, end.item <= itemIndex {
            producing = false
            return
        }
        itemIndex += 1
        decodedFrame = 0
        if items.indices.contains(itemIndex) { markItemStart() } else { producing = false }
    }

    /// The sink for `format`, opened (or reopened when the format changed) with a fresh ring.
    private func ensureSink(for format: AudioFormat) -> RingBuffer? {
        if let sink, let ring, sink.format == format { return ring }
        if let sink {
            // A new format: let the old one play out first, so the previous item ends whole.
            startSinkIfStopped()
            try? sink.drain()
            sink.close()
            self.sink = nil
        }
        let capacity = max(Self.chunkFrames * 2, Int(Double(format.rate) * Self.ringSeconds))
        let newRing = RingBuffer(channels: format.channels, capacityFrames: capacity)
        do {
            let opened = try sinks.openSink(format: format, source: newRing)
            guard opened.format == format else {
                opened.close()
                throw AudioError(.unsupported, subject: opened.name,
                                 reason: "runs at \(opened.format), the stream is \(format); resampling is not available yet")
            }
            sink = opened
        } catch {
            reportFailure(error, kind: .device, subject: "output")
            closeAll()
            setState(.stopped)
            return nil
        }
        let position = PlaybackPosition(item: itemIndex, frame: decodedFrame)
        core.shared.withLock { shared in
            shared.ring = newRing
            shared.latencyFrames = 0
            shared.clock.reset(outputFrame: 0, at: position)
        }
        ring = newRing
        sinkState = .stopped
        scratch = [Float](repeating: 0, count: Self.chunkFrames * format.channels)
        return newRing
    }

    private func startSinkIfStopped() {
        guard sinkState == .stopped, let sink else { return }
        do {
            try sink.start()
            sinkState = .running
        } catch {
            reportFailure(error, kind: .device, subject: sink.name)
        }
    }

    /// Everything is in the ring buffer: play it out, then stop.
    private func finish() {
        if let sink {
            startSinkIfStopped()
            try? sink.drain()
            updateLatencyAndReport()
        }
        closeAll()
        setState(.stopped)
        core.emit.yield(.ended)
    }

    private func closeAll() {
        if let sink {
            sink.close()
            self.sink = nil
        }
        sinkState = .closed
        decoder = nil
        producing = false
        core.shared.withLock { shared in
            if let ring = shared.ring {
                // What was heard last is where a later play resumes.
                shared.lastPosition = shared.clock.position(atOutputFrame: max(0, ring.framesRead - shared.latencyFrames))
                    ?? shared.lastPosition
            }
            shared.ring = nil
        }
        ring = nil
    }

    // MARK: Reporting

    /// Publishes a failure of the current item or the output. Decoders and sinks throw
    /// `AudioError`; anything else is wrapped as `kind`, about `subject`.
    private func reportFailure(_ error: any Error, kind: AudioError.Kind = .internalError, subject: String) {
        let audioError = error as? AudioError ?? AudioError(kind, subject: subject, reason: "\(error)")
        core.emit.yield(.failed(item: itemIndex, error: audioError))
    }

    private func updateLatencyAndReport() {
        if let sink { core.shared.withLock { $0.latencyFrames = Int(sink.latencyFrames) } }
        report(force: false)
    }

    /// Publishes the heard position when it moved by a tenth of a second, and the item when the
    /// heard item changed.
    private func report(force: Bool) {
        guard let heard = core.position else { return }
        if reported?.item != heard.item, let info = openedItems[heard.item] {
            core.emit.yield(.itemChanged(info))
            openedItems = openedItems.filter { $0.key > heard.item }
        }
        let tenth = Int64(openedItems[heard.item]?.stream.format.rate ?? sink?.format.rate ?? 48000) / 10
        if force || reported == nil || reported?.item != heard.item || abs(heard.frame - reported!.frame) >= tenth {
            core.emit.yield(.position(heard))
            reported = heard
        }
    }
}
