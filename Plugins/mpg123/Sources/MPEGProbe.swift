/// How sure the content of a file's first bytes makes us that it is MPEG audio. Magic first, the
/// name last: an ID3v2 tag followed by frames, or two consecutive frame headers at the start, is
/// certain; a name ending in .mp3 over content we cannot recognise only earns a low score, so a
/// text file named .mp3 never outranks a decoder that knows what it is.
enum MPEGProbe {
    static let certain: Int32 = 100
    /// A valid tag or header whose confirmation lies beyond the bytes we were given.
    static let likely: Int32 = 80
    static let nameOnly: Int32 = 10

    static func score(path: UnsafePointer<CChar>?, head: UnsafePointer<UInt8>?, length: Int) -> Int32 {
        let bytes = UnsafeRawBufferPointer(start: head, count: head == nil ? 0 : max(0, length))
        let named = path.map { hasMPEGExtension(String(cString: $0)) } ?? false
        let fallback = named ? nameOnly : 0
        if let tag = ID3v2Header(bytes) {
            let audioStart = tag.totalSize
            // The tag runs past what we can see: trust the tag (it is rarely anything but MP3).
            guard audioStart + 4 <= bytes.count else { return likely }
            // Some taggers leave padding after the declared size; look a little further.
            guard let frame = MPEGFrameHeader.firstFrame(in: bytes, from: audioStart, window: 512) else { return fallback }
            return frame.confirmed ? certain : likely
        }
        guard let first = MPEGFrameHeader(bytes, at: 0) else { return fallback }
        let next = first.frameLength
        guard next + 4 <= bytes.count else { return likely }
        guard let second = MPEGFrameHeader(bytes, at: next), second.isCompatible(with: first) else { return fallback }
        return certain
    }

    private static func hasMPEGExtension(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return ["mp3", "mp2", "mpga"].contains(path[path.index(after: dot)...].lowercased())
    }
}
