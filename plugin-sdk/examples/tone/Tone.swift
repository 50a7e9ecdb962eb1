// An abplayer decoder in Swift, built out of tree from the installed SDK: it "decodes" a one-line
// text file, `abplayer-tone HZ SECONDS`, into a sine tone at 44.1 kHz stereo. Small on purpose:
// what it shows is the shape of a Swift plugin (PluginKit's descriptor and ops, the entry point),
// not a codec. Built with the Makefile beside it (swiftc) or the Package.swift (SwiftPM).
public import ABPluginABI
#if canImport(PluginKit)
import PluginKit // a SwiftPM build: PluginKit is a module of its own; with swiftc it is compiled in
#endif
#if canImport(Glibc)
import Glibc
#endif

private let magic = "abplayer-tone "
private let rate: UInt32 = 44100

/// One open file: the tone's frequency and length, and where the next read starts.
private final class Tone: DecoderInstance {
    let hertz: Double
    let totalFrames: Int64
    var next: Int64 = 0
    let lastError = LastError()

    init(hertz: Double, totalFrames: Int64) {
        self.hertz = hertz
        self.totalFrames = totalFrames
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int64) -> Int64 {
        let count = min(maxFrames, totalFrames - next)
        guard count > 0 else { return 0 }
        for index in 0..<Int(count) {
            let sample = Float(0.5 * sin(2 * Double.pi * hertz * Double(next + Int64(index)) / Double(rate)))
            buffer[2 * index] = sample
            buffer[2 * index + 1] = sample
        }
        next += count
        return count
    }

    func seek(to frame: Int64) -> abp_status {
        guard (0...totalFrames).contains(frame) else { return lastError.fail(ABP_ERR_SEEK, "frame \(frame) is past the end") }
        next = frame
        return ABP_OK
    }
}

/// The file's one line, or why it is not a tone file (no file name: the host adds it).
private func parse(_ path: String) throws(DecoderOpenError) -> Tone {
    guard let file = fopen(path, "r") else { throw DecoderOpenError(ABP_ERR_IO, "cannot open: \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, Int32(line.count), file) != nil else { throw DecoderOpenError(ABP_ERR_FORMAT, "empty file") }
    let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let words = text.dropFirst(magic.count).split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard text.hasPrefix(magic), words.count == 2, let hertz = Double(words[0]), let seconds = Double(words[1]),
          hertz > 0, hertz < Double(rate) / 2, seconds > 0, seconds < 86400 else {
        throw DecoderOpenError(ABP_ERR_FORMAT, "not `\(magic)HZ SECONDS`")
    }
    return Tone(hertz: hertz, totalFrames: Int64(seconds * Double(rate)))
}

private let descriptor = PluginDescriptor(
    id: "tone", name: "Tone (an SDK example)", version: "1.0.0",
    description: "Plays `abplayer-tone HZ SECONDS` files as a sine tone",
    capabilities: ABP_CAP_SEEK | ABP_CAP_GAPLESS, extensions: ["tone"],
    decoder: decoderOps(
        // plugin.h's scale: 100 when the content says so, 10 for the name alone.
        probe: { path, head, length in
            let bytes = UnsafeBufferPointer(start: head, count: head == nil ? 0 : length)
            if bytes.starts(with: magic.utf8) { return 100 }
            return extensionScore(path: path, extensions: ["tone"])
        },
        open: { _, path, _, _, _, out, info, error, errorSize in
            openDecoder(path: path, out: out, info: info, error: error, errorSize: errorSize) { (path) throws(DecoderOpenError) in
                let tone = try parse(path)
                return OpenedDecoder(tone, format: abp_format(rate: rate, channels: 2), totalFrames: tone.totalFrames,
                                     seekable: true, codec: "Tone")
            }
        })
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
