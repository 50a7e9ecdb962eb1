/// A failure of a decoder or an output, already phrased for the user: what went wrong with which
/// file or device. Made by the plugin host from the C ABI's codes and messages.
public struct AudioError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case io, format, unsupported, outOfMemory, seek, invalidArgument, device, internalError
        case noDecoder
    }

    public let kind: Kind
    /// The file or output the error is about.
    public let subject: String
    public let reason: String
    /// What a file that does not play still showed its decoder (tags, chapters), so that probe
    /// can show it with the reason; nil when the decoder found nothing.
    public var unplayable: UnplayableMedia?

    public init(_ kind: Kind, subject: String, reason: String) {
        self.kind = kind
        self.subject = subject
        self.reason = reason
    }

    public var description: String { "\(subject): \(reason)" }
}

/// The metadata of a file whose decoder could not open its audio (an MP4 whose sample tables are
/// unusable still has its tags and chapters), and the stream's format when the decoder knew it:
/// chapter starts are frames at that rate.
public struct UnplayableMedia: Sendable {
    public let pluginID: String
    public let format: AudioFormat?
    public let metadata: MediaMetadata

    public init(pluginID: String, format: AudioFormat?, metadata: MediaMetadata) {
        self.pluginID = pluginID
        self.format = format
        self.metadata = metadata
    }
}
