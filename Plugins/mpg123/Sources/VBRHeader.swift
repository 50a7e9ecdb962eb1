/// The header an encoder puts in the first frame of a VBR stream, in place of audio: a Xing/Info
/// header (LAME, ffmpeg) or a VBRI header (Fraunhofer's encoders). Either gives the stream's frame
/// count and its length in bytes, which tells a truncated file. libmpg123 knows only Xing: it
/// skips that frame itself, but decodes a VBRI frame as a frame of silence.
struct VBRHeader: Equatable {
    enum Kind: String { case xing = "Xing", vbri = "VBRI" }

    let kind: Kind
    /// MPEG frames in the stream (nil when absent or 0).
    let frames: UInt32?
    /// Bytes of MPEG audio the encoder wrote (nil when absent).
    let bytes: UInt32?

    /// The header in the Layer III frame `frame` starting at `offset` of `bytes`, or nil.
    init?(in bytes: UnsafeRawBufferPointer, frame: MPEGFrameHeader, at offset: Int) {
        guard frame.layer == 3 else { return nil }
        func u32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        func magic(at tag: Int) -> String? {
            guard tag >= 0, tag + 4 <= bytes.count else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[tag..<tag + 4]), as: UTF8.self)
        }
        // Xing follows the side information; VBRI always starts 32 bytes after the header.
        let sideInfo = frame.version == .mpeg1 ? (frame.channels == 1 ? 17 : 32) : (frame.channels == 1 ? 9 : 17)
        let xing = offset + 4 + sideInfo, vbri = offset + 4 + 32
        if let name = magic(at: xing), name == "Xing" || name == "Info", xing + 16 <= bytes.count {
            let flags = u32(xing + 4)
            var field = xing + 8
            var frames: UInt32?
            if flags & 1 != 0 {
                frames = u32(field)
                field += 4
            }
            kind = .xing
            self.frames = frames == 0 ? nil : frames
            self.bytes = flags & 2 != 0 && field + 4 <= bytes.count ? u32(field) : nil
        } else if magic(at: vbri) == "VBRI", vbri + 18 <= bytes.count {
            // "VBRI", version, delay, quality (2 bytes each), then bytes and frames
            kind = .vbri
            self.bytes = u32(vbri + 10)
            let frames = u32(vbri + 14)
            self.frames = frames == 0 ? nil : frames
        } else {
            return nil
        }
    }
}
