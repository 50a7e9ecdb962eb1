/// An open audio output. It pulls frames from a `RingBuffer` on its own thread; these calls come
/// from the engine's thread.
public protocol Sink: AnyObject {
    /// The format the output really runs at (may differ in rate from the one asked for).
    var format: AudioFormat { get }
    var name: String { get }

    func start() throws
    func pause() throws
    func resume() throws
    /// Frames pulled but not heard yet.
    var latencyFrames: Int64 { get }
    /// Plays everything pulled until the ring buffer runs dry, then returns.
    func drain() throws
    /// Stops at once, discarding what is queued; the ring buffer is no longer read.
    func stop() throws
    func close()
    /// Before `start`, pulls from `ring` instead of the ring it was opened with: for a sink that
    /// runs at another format than the one asked for, whose ring must be of its own format. True
    /// when it did; false (the default) when the sink must be opened again for that.
    func adopt(_ ring: RingBuffer) -> Bool
}

extension Sink {
    public func adopt(_ ring: RingBuffer) -> Bool { false }
}

/// Opens outputs: the plugin registry with the user's choice of output, in the running program.
public protocol SinkOpener: Sendable {
    func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink
    /// Opens an output that reports its status (lost, moved, back) to `onStatus`.
    func openSink(format: AudioFormat, source: RingBuffer,
                  onStatus: @escaping @Sendable (SinkStatus) -> Void) throws -> any Sink
}

/// What an open output tells the engine about itself, from any thread.
public enum SinkStatus: Sendable, Equatable {
    /// The device or server stopped working (unplugged, server died). The message is one line.
    case lost(String)
    /// The server moved the stream to another device (the chosen one went away); it still plays.
    case moved(String)
    /// The device or server works again.
    case restored(String)
}

extension SinkOpener {
    /// Openers whose outputs cannot fail while playing (files, tests) ignore `onStatus`.
    public func openSink(format: AudioFormat, source: RingBuffer,
                         onStatus: @escaping @Sendable (SinkStatus) -> Void) throws -> any Sink {
        try openSink(format: format, source: source)
    }
}

