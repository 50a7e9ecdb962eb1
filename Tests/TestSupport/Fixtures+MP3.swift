public import Foundation

extension Fixtures {
    /// The time-coded signal encoded by lame: VBR `-V 4` or CBR `-b 128`.
    ///
    /// `xingHeader: false` passes `-t`, so there is no Xing/Info frame and no LAME tag: a decoder
    /// then cannot know the length of a VBR file without scanning it, nor the encoder delay and
    /// padding (ffmpeg then plays 1105 extra frames at the start: lame's 576 plus the decoder's 529).
    public static func mp3(
        seconds: Int = 20, rate: Int = 44100, channels: Int = 2,
        vbr: Bool, xingHeader: Bool = true, id3: ID3Options? = nil
    ) throws -> URL {
        let source = try timeCodedWAV(seconds: seconds, rate: rate, channels: channels)
        var name = "timecoded-\(seconds)s-\(rate)hz-\(channels)ch-\(vbr ? "vbr" : "cbr128")"
        if !xingHeader { name += "-noxing" }
        if let id3 { name += "-id3-\(stableDigest(id3.description))" }
        return try cache.file(named: name + ".mp3") { url in
            var arguments = ["--quiet", "--nohist"] + (vbr ? ["-V", "4"] : ["-b", "128"])
            if !xingHeader { arguments.append("-t") }
            arguments += id3?.lameArguments ?? []
            try Command.run("lame", arguments + [source.path, url.path]).requireSuccess()
        }
    }
}
