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
}

/// Opens outputs: the plugin registry with the user's choice of output, in the running program.
public protocol SinkOpener: Sendable {
    func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink
}
