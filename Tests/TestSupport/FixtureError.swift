public import Foundation

/// Why a fixture could not be made.
public enum FixtureError: Error, CustomStringConvertible {
    case invalidArgument(String)
    /// `withChapters` was given a file whose format it cannot add chapters to.
    case unsupportedFormat(URL)
    /// `withChapters` needs to re-encode an Opus file from its recipe, and only knows the recipes
    /// of files `Fixtures.opus` made in this process.
    case notMadeByFixtures(URL)
    /// A corruption step did not produce the damage it promises (for example, no "OpusTags").
    case corruptionFailed(URL, String)
    /// ffprobe/ffmpeg output that could not be understood.
    case unreadableProbe(URL, String)
    /// A server a test needs (Syncthing) did not start or answer as it should.
    case serverFailed(String)

    public var description: String {
        switch self {
        case let .invalidArgument(message):
            "invalid fixture argument: \(message)"
        case let .unsupportedFormat(url):
            "\(url.lastPathComponent): chapters can only be added to .mp3 and .opus fixtures"
        case let .notMadeByFixtures(url):
            "\(url.path): not an Opus file made by Fixtures.opus in this process; pass `chapters:` to Fixtures.opus instead"
        case let .corruptionFailed(url, message):
            "\(url.lastPathComponent): \(message)"
        case let .serverFailed(message):
            "test server failed: \(message)"
        case let .unreadableProbe(url, output):
            "\(url.path): could not read ffprobe's answer \(output.debugDescription)"
        }
    }
}
