public import Foundation

/// The committed HE-AAC files in Tests/Fixtures/he-aac (their README says how they were made: no
/// encoder present at test time writes HE-AAC). Every one holds the same 12 s source: second k
/// is a sine of 300 + 25k Hz at amplitude 0.5, with continuous phase (unlike `TimeCodedSignal`,
/// no fades), so the second heard tells the place, as `AudioAnalysis.secondAt` reads it.
public enum HEAACFixture: String, Sendable, CaseIterable {
    case v1Explicit = "he-aac-v1-explicit.m4b"
    case v1Implicit = "he-aac-v1-implicit.m4a"
    case v2ParametricStereo = "he-aac-v2-ps.m4a"
    case v1At48k = "he-aac-v1-48k.m4a"
    /// Raw ADTS: no edit list, no priming information; 261 AUs of 2,048 frames.
    case adts = "he-aac-v1.aac"
    /// The ADTS stream in a 3GP file by `ffmpeg -c copy` (an edit list from media time 0).
    case threeGP = "he-aac-v1.3gp"

    public static let seconds = 12
    public static let chapters: [FixtureChapter] = [(0, "Один"), (4, "第二章"), (8, "Trois")]
    /// The four files whose edit list trims the encoder's delay and padding.
    public static let editListed: [HEAACFixture] = [.v1Explicit, .v1Implicit, .v2ParametricStereo, .v1At48k]

    /// Found from the package directory, as a fresh clone has it.
    public var url: URL { BuildProducts.packageDirectory.appending(path: "Tests/Fixtures/he-aac/\(rawValue)") }

    /// The rate the decoder gives (implicit SBR doubles the rate the container states).
    public var rate: Int { self == .v1At48k ? 48000 : 44100 }

    /// The title tag mp4mux.py wrote (nil for the ADTS and 3GP files, which have no tags).
    public var title: String? {
        switch self {
        case .v1Explicit: "HE-AAC v1 explicit"
        case .v1Implicit: "HE-AAC v1 implicit"
        case .v2ParametricStereo: "HE-AAC v2"
        case .v1At48k: "HE-AAC 48k"
        case .adts, .threeGP: nil
        }
    }

    /// The source, one channel, as make.sh renders it: phase is the running sum of the frequency.
    public static func source(rate: Int) -> [Float] {
        var phase = 0.0
        return (0..<seconds * rate).map { frame in
            phase += 2 * Double.pi * (300 + 25 * Double(frame / rate)) / Double(rate)
            return Float(0.5 * sin(phase))
        }
    }
}
