/// The sink the decoder thread writes to, the ring buffer it pulls from, and where the sink is in
/// its lifecycle. Decoder thread only. When to open, switch or reopen it is the producer's call
/// (`Producer+Output.swift`); this type only keeps the sink's calls in a valid order.
final class Output {
    enum State { case closed, stopped, running, paused }

    /// Where sinks are opened (`output NAME` replaces it).
    var opener: any SinkOpener
    private(set) var sink: (any Sink)?
    private(set) var ring: RingBuffer?
    private(set) var state = State.closed
    /// The source format the sink was opened for (a converter bridges it to the sink's format).
    private(set) var sourceFormat: AudioFormat?
    /// Counts opened sinks, so a status report from an output already closed is ignored.
    private(set) var generation = 0

    init(opener: any SinkOpener) { self.opener = opener }

    /// True when a sink is open for sources of `format`.
    func isOpen(for format: AudioFormat) -> Bool { sink != nil && ring != nil && sourceFormat == format }

    /// Opens a sink for `format` with a ring of about `capacity` frames, stopped. The sink may run
    /// at another rate (JACK, some ALSA devices) or channel count; the ring holds audio at the
    /// sink's format, so it is made once the sink says what that is. `onStatus` receives the
    /// sink's reports with this open's generation.
    func open(for format: AudioFormat, capacity: Int, slack: Int,
              onStatus: @escaping @Sendable (SinkStatus, _ generation: Int) -> Void) throws {
        close()
        generation += 1
        let generation = generation
        let opened = try openSinkAndRing(format: format, capacity: capacity, slack: slack) { onStatus($0, generation) }
        sink = opened.sink
        ring = opened.ring
        sourceFormat = format
        state = .stopped
    }

    /// Starts the sink pulling when it is open and stopped; a failure is the caller's to report.
    func startIfStopped() throws {
        guard state == .stopped, let sink else { return }
        try sink.start()
        state = .running
    }

    func pause() {
        guard state == .running, let sink else { return }
        try? sink.pause()
        state = .paused
    }

    func resume() {
        guard state == .paused, let sink else { return }
        try? sink.resume()
        state = .running
    }

    /// Stops the sink and drops what it holds (before a jump); emptying the ring is the caller's.
    func stop() {
        guard let sink, state != .stopped else { return }
        try? sink.stop()
        state = .stopped
    }

    /// Blocks until the sink has played what it was given.
    func drain() { try? sink?.drain() }

    /// Closes the sink; `stoppingFirst` drops what it still holds instead of letting it finish.
    func close(stoppingFirst: Bool = false) {
        if let sink {
            if stoppingFirst { try? sink.stop() }
            sink.close()
        }
        sink = nil
        ring = nil
        sourceFormat = nil
        state = .closed
    }

    /// Opens a sink asking for `format`; when it runs at another format, the ring it was given is
    /// the wrong shape, so the sink, not started yet, is handed a ring of its own format. Opened
    /// once: a pipe's reader sees the end of the stream at a close (`cat` leaves), and an
    /// exclusive device (ALSA `hw:`) may not open again at once. Only a sink that cannot take
    /// another ring is opened again on it.
    private func openSinkAndRing(format: AudioFormat, capacity: Int, slack: Int,
                                 onStatus: @escaping @Sendable (SinkStatus) -> Void) throws -> (sink: any Sink, ring: RingBuffer) {
        let firstRing = RingBuffer(channels: format.channels, capacityFrames: capacity)
        let first = try opener.openSink(format: format, source: firstRing, onStatus: onStatus)
        if first.format == format { return (first, firstRing) }
        let actual = first.format
        let ratio = Double(actual.rate) / Double(format.rate)
        let ring = RingBuffer(channels: actual.channels, capacityFrames: Int(Double(capacity) * ratio) + slack)
        if first.adopt(ring) { return (first, ring) }
        first.close()
        let second = try opener.openSink(format: actual, source: ring, onStatus: onStatus)
        guard second.format == actual else {
            second.close()
            throw AudioError(.unsupported, subject: second.name, reason: "changes its format on every open (\(actual), then \(second.format))")
        }
        return (second, ring)
    }
}
