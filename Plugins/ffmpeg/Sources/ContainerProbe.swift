import PluginKit

/// The catch-all's probe: the magic numbers of the containers FFmpeg reads, recognised in the
/// first bytes without FFmpeg (the host probes every file of an import with every decoder, and
/// probing must not map FFmpeg's libraries).
///
/// Its scores stay below every score a dedicated decoder gives (10 for a name it lists, more for
/// content it recognises), so it is first only for files no other decoder claims, and otherwise
/// reached when the claimant declines at open (an ALAC track in an .m4a, FLAC in an .ogg): the
/// host tries the next claimant then. It does not claim bare MP3 or FLAC streams, whose dedicated
/// decoders' refusals of a damaged file stand.
enum ContainerProbe {
    /// Content recognised as a container or stream FFmpeg reads.
    static let recognised: Int32 = 5
    /// Only the file's name says so.
    static let nameOnly: Int32 = 1

    static let extensions = [
        "wav", "wave", "w64", "rf64", "aif", "aiff", "aifc", "caf", "wma", "asf", "mka", "webm", "ac3", "eac3",
        "spx", "wv", "ape", "mpc", "tta", "au", "snd", "tak", "shn", "dsf", "dff",
    ]

    static func score(path: UnsafePointer<CChar>?, head: UnsafeBufferPointer<UInt8>) -> Int32 {
        if recognises(Array(head.prefix(64))) { return recognised }
        return extensionScore(path: path, extensions: extensions) > 0 ? nameOnly : 0
    }

    private static func recognises(_ head: [UInt8]) -> Bool {
        func ascii(_ text: String, at offset: Int = 0) -> Bool {
            let bytes = Array(text.utf8)
            return head.count >= offset + bytes.count && head[offset..<offset + bytes.count].elementsEqual(bytes)
        }
        // RIFF/RF64/BW64 WAVE, Sony Wave64, AIFF/AIFF-C, CAF, DSF and DSDIFF.
        if (ascii("RIFF") || ascii("RF64") || ascii("BW64")) && ascii("WAVE", at: 8) { return true }
        if ascii("riff") && head.count >= 16 && head[8..<16].elementsEqual([0x77, 0x61, 0x76, 0x65, 0xF3, 0xAC, 0xD3, 0x11]) { return true }
        if ascii("FORM") && (ascii("AIFF", at: 8) || ascii("AIFC", at: 8)) { return true }
        if ascii("caff") || ascii("DSD ") || ascii("FRM8") { return true }
        // ISO BMFF (MP4, M4A, M4B): ALAC or MP3 tracks, which the AAC decoder declines.
        if head.count >= 8, ["ftyp", "moov", "mdat", "free", "skip", "wide"].contains(where: { ascii($0, at: 4) }) { return true }
        // ASF (WMA), EBML (Matroska, WebM), Ogg (FLAC, Speex, or what the Ogg decoders decline).
        if head.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return true }
        if head.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) || ascii("OggS") { return true }
        // WavPack, Monkey's Audio, Musepack SV8 and SV7, TTA, TAK, Shorten, Sun AU.
        if ["wvpk", "MAC ", "MPCK", "MP+", "TTA1", "tBaK", "ajkg", ".snd"].contains(where: { ascii($0) }) { return true }
        // AC-3 and E-AC-3: the sync word.
        return head.starts(with: [0x0B, 0x77])
    }
}
