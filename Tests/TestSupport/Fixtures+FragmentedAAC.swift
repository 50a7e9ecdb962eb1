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
