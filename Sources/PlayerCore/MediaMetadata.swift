/// What a decoder found out when it opened a file: the stream's shape and everything tagged in it.
public struct StreamInfo: Sendable, Equatable {
    public let format: AudioFormat
    /// Exact length after gapless trimming; nil when the stream does not say (never a guess).
    public let totalFrames: Int64?
    public let isSeekable: Bool
    /// The codec's name as the decoder gives it ("MP3", "HE-AAC v2"); nil when it does not say.
    public var codec: String?
    /// The bits per sample the source stores (lossless and PCM streams); nil for a lossy codec
    /// or when the decoder does not say. What is decoded is float either way.
    public var bitsPerSample: Int?

    public init(format: AudioFormat, totalFrames: Int64?, isSeekable: Bool, codec: String? = nil, bitsPerSample: Int? = nil) {
        self.format = format
        self.totalFrames = totalFrames
        self.isSeekable = isSeekable
        self.codec = codec
        self.bitsPerSample = bitsPerSample
    }
}

/// A chapter as an offset into one media item (BookPlayer's shape: a start and a title; the end
/// is the next chapter's start or the item's end).
public struct Chapter: Sendable, Equatable {
    public let startFrame: Int64
    public let title: String

    public init(startFrame: Int64, title: String) {
        self.startFrame = startFrame
        self.title = title
    }
}

public struct Picture: Sendable, Equatable {
    /// ID3v2 APIC / FLAC picture type; 3 is the front cover.
    public let type: Int
    public let mimeType: String
    public let data: [UInt8]

    public init(type: Int, mimeType: String, data: [UInt8]) {
        self.type = type
        self.mimeType = mimeType
        self.data = data
    }
}

public struct MediaMetadata: Sendable, Equatable {
    public var tags = Tags()
    /// Sorted by start frame.
    public var chapters: [Chapter] = []
    public var pictures: [Picture] = []

    public init() {}

    public var cover: Picture? { pictures.first { $0.type == 3 } ?? pictures.first }
}
