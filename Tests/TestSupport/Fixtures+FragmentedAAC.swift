public import Foundation

/// How ffmpeg lays out a fragmented MP4 (`-movflags`), each with fragments of `-frag_duration`
/// (ffmpeg cuts an audio-only file at keyframes only by duration: every AAC frame is one).
public enum FragmentLayout: String, Sendable, CaseIterable {
    /// moov holds no samples; every sample is in a moof, whose tfhd states its base offset.
    case emptyMoov = "frag_keyframe+empty_moov"
    /// As emptyMoov, with data offsets counted from each moof (tfhd's default-base-is-moof flag).
    case emptyMoovDefaultBaseMoof = "frag_keyframe+empty_moov+default_base_moof"
    /// moov's own tables hold the first fragment, moofs the rest: the shape of a file whose
    /// player reads only moov and stops early.
    case samplesInMoovThenFragments = "frag_keyframe"
}

extension Fixtures {
    /// The time-coded signal encoded by ffmpeg's AAC encoder without PNS (so every decode and
    /// seek is deterministic) and muxed as a fragmented MP4. The encoder does not know the muxer:
    /// these files hold the same AAC frames as `aac(seconds:, pns: false)`. ffmpeg writes no edit
    /// list here, so nothing states the encoder's 1024 frames of priming except, when moov holds
    /// samples, its sgpd 'roll' group.
    public static func fragmentedAAC(seconds: Int = 12, layout: FragmentLayout, fragmentSeconds: Int = 2) throws -> URL {
        let source = try timeCodedWAV(seconds: seconds)
        let name = "aac/fragmented-\(seconds)s-\(layout.rawValue.replacingOccurrences(of: "+", with: "-"))-\(fragmentSeconds)s.m4a"
        return try cache.file(named: name) { url in
            try Command.run("ffmpeg", ["-v", "error", "-y", "-i", source.path, "-c:a", "aac", "-b:a", "96k", "-aac_pns", "0",
                                       "-movflags", layout.rawValue, "-frag_duration", "\(fragmentSeconds * 1_000_000)", url.path]).requireSuccess()
        }
    }
}

extension Fixtures {
    /// `fragmentedAAC(seconds:layout: .samplesInMoovThenFragments, fragmentSeconds: 2)` with an
    /// mvex/mehd that states the whole length (ffmpeg writes none; the shape of a 3GP whose mehd
    /// says 16.35 s) and a last trun whose sample count its box cannot hold: a player plays every
    /// fragment before it, short of what the file declares. moov keeps its size (udta makes room
    /// for mehd, a free box fills the rest), so every offset in the file stays true.
    public static func fragmentedAACWithDamagedLastFragment(seconds: Int = 12) throws -> URL {
        let whole = try fragmentedAAC(seconds: seconds, layout: .samplesInMoovThenFragments, fragmentSeconds: 2)
        return try cache.file(named: "aac/fragmented-\(seconds)s-mehd-last-trun-damaged.m4a") { url in
            // key=value lines: ffprobe prints the fields in its own order, not the order asked for
            let probe = try Command.run("ffprobe", ["-v", "error", "-select_streams", "a:0", "-show_entries", "stream=duration_ts,time_base",
                                                    "-of", "default=noprint_wrappers=1", whole.path]).requireSuccess()
            var fields: [String: String] = [:]
            for line in probe.stdoutString.split(whereSeparator: \.isNewline) {
                let parts = line.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            guard let mediaDuration = fields["duration_ts"].flatMap({ UInt64($0) }),
                  let mediaRate = fields["time_base"].flatMap({ $0.split(separator: "/").last }).flatMap({ UInt64($0) }) else {
                throw FixtureError.invalidArgument("ffprobe: \(probe.stdoutString)")
            }
            var editor = try MP4BoxEditor(whole)
            guard let moovIndex = editor.boxes.firstIndex(where: { $0.type == "moov" }), let mvhd = editor.node("moov/mvhd"),
                  let udta = editor.node("moov/udta") else { throw FixtureError.invalidArgument("\(whole.path): no moov/mvhd/udta") }
            let moovSize = editor.boxes[moovIndex].bytes.count
            let movieTimescale = UInt64(MP4BoxEditor.be32(mvhd.payload, mvhd.payload[0] == 1 ? 20 : 12))
            let mehd = MP4BoxEditor.Node.full("mehd", MP4BoxEditor.be32(UInt32((mediaDuration * movieTimescale + mediaRate - 1) / mediaRate))).bytes
            try editor.remove("moov/udta")
            try editor.modify("moov/mvex") { $0.payload += mehd }
            try editor.append(MP4BoxEditor.Node("free", payload: [UInt8](repeating: 0, count: udta.bytes.count - mehd.count - 8)), to: "moov")
            guard editor.boxes[moovIndex].bytes.count == moovSize else { throw FixtureError.invalidArgument("moov changed size") }
            var bytes = editor.boxes.flatMap(\.bytes)
            let trun = Array("trun".utf8)
            guard let last = stride(from: bytes.count - 4, through: 0, by: -1).first(where: { bytes[$0..<$0 + 4].elementsEqual(trun) }) else {
                throw FixtureError.invalidArgument("\(whole.path): no trun")
            }
            // type, version and flags, then the sample count
            bytes.replaceSubrange(last + 8..<last + 12, with: MP4BoxEditor.be32(0x00FF_FFFF))
            try Data(bytes).write(to: url)
        }
    }
}

extension Fixtures {
    /// `fragmentedAAC(seconds:layout: .samplesInMoovThenFragments, fragmentSeconds: 2)` with an edit
    /// list whose one edit skips the encoder's 1024 frames of priming and ends with moov's own
    /// samples, as some 3GP muxers leave it (mutagen's no-tags.3g2: an edit of 15.00 s, fragments
    /// on to 16.35 s). moov keeps its size (udta makes room, a free box fills the rest).
    public static func fragmentedAACWithEditEndingAtMoov(seconds: Int = 12) throws -> URL {
        let whole = try fragmentedAAC(seconds: seconds, layout: .samplesInMoovThenFragments, fragmentSeconds: 2)
        return try cache.file(named: "aac/fragmented-\(seconds)s-edit-ends-at-moov.m4a") { url in
            var editor = try MP4BoxEditor(whole)
            guard let moovIndex = editor.boxes.firstIndex(where: { $0.type == "moov" }), let mvhd = editor.node("moov/mvhd"),
                  let mdhd = editor.node("moov/trak/mdia/mdhd"), let stts = editor.node("moov/trak/mdia/minf/stbl/stts"),
                  let udta = editor.node("moov/udta") else { throw FixtureError.invalidArgument("\(whole.path): no moov/mvhd/mdhd/stts/udta") }
            let moovSize = editor.boxes[moovIndex].bytes.count
            let movieTimescale = UInt64(MP4BoxEditor.be32(mvhd.payload, mvhd.payload[0] == 1 ? 20 : 12))
            let mediaTimescale = UInt64(MP4BoxEditor.be32(mdhd.payload, mdhd.payload[0] == 1 ? 20 : 12))
            // moov's samples: the stts runs (count, delta) after version/flags and the entry count
            let entries = Int(MP4BoxEditor.be32(stts.payload, 4))
            let moovTicks = (0..<entries).reduce(UInt64(0)) { sum, entry in
                sum + UInt64(MP4BoxEditor.be32(stts.payload, 8 + entry * 8)) * UInt64(MP4BoxEditor.be32(stts.payload, 12 + entry * 8))
            }
            let segment = UInt32((moovTicks - 1024) * movieTimescale / mediaTimescale)
            let elst = MP4BoxEditor.Node.full("elst", MP4BoxEditor.be32(1) + MP4BoxEditor.be32(segment) + MP4BoxEditor.be32(1024) + MP4BoxEditor.be32(0x0001_0000))
            let edts = MP4BoxEditor.Node("edts", payload: elst.bytes)
            try editor.remove("moov/udta")
            try editor.append(edts, to: "moov/trak")
            try editor.append(MP4BoxEditor.Node("free", payload: [UInt8](repeating: 0, count: udta.bytes.count - edts.bytes.count - 8)), to: "moov")
            guard editor.boxes[moovIndex].bytes.count == moovSize else { throw FixtureError.invalidArgument("moov changed size") }
            try Data(editor.boxes.flatMap(\.bytes)).write(to: url)
        }
    }
}
