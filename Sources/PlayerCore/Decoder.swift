/// An open audio stream that produces interleaved float32 frames. Used from one thread at a time.
public protocol Decoder: AnyObject {
    var info: StreamInfo { get }
    var metadata: MediaMetadata { get }
    /// Which plugin decodes this stream.
    var pluginID: String { get }

    /// Decodes up to `maxFrames` frames into `buffer` (room for maxFrames * channels floats).
    /// Returns the frames written, 0 at the end. Throws `AudioError`.
    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws -> Int

    /// Makes the next read start exactly at `frame`. Throws `AudioError` (kind `.seek` when the
    /// stream cannot seek or the frame is out of range).
    func seek(to frame: Int64) throws
}

/// Opens decoders for files: the plugin registry, in the running program.
public protocol DecoderOpener: Sendable {
    func openDecoder(path: String) throws -> any Decoder

    /// Opens `path` and hands back, instead of logging them, the warnings its decoder gave while
    /// opening it (a file truncated against its own header): for a caller that reports them
    /// itself, naming the file (the importer).
    func openDecoderKeepingWarnings(path: String) throws -> (decoder: any Decoder, warnings: [String])

    /// Tells the opener that warnings it handed back (`openDecoderKeepingWarnings`) were said to
    /// the listener: the same warning from a later open in this run is not said again.
    func markWarningsSaid(_ warnings: [String])
}

extension DecoderOpener {
    /// Openers that have no log of their own have nothing to hand back.
    public func openDecoderKeepingWarnings(path: String) throws -> (decoder: any Decoder, warnings: [String]) {
        (try openDecoder(path: path), [])
    }

    public func markWarningsSaid(_ warnings: [String]) {}
}
