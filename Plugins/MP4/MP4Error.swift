/// Why a file could not be parsed, with the path of the box at fault
/// (`moov/trak/mdia/minf/stbl/stsz`), empty when the fault is the file itself.
public struct MP4Error: Error, Sendable, CustomStringConvertible, Equatable {
    public let box: String
    public let reason: String

    public init(box: String, reason: String) {
        self.box = box
        self.reason = reason
    }

    public var description: String { box.isEmpty ? reason : "\(box): \(reason)" }
}
