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

    public init(_ kind: Kind, subject: String, reason: String) {
        self.kind = kind
        self.subject = subject
        self.reason = reason
    }

    public var description: String { "\(subject): \(reason)" }
}
