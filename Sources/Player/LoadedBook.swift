public import Library

/// The book loaded, as a front end needs it for its own views.
public struct LoadedBook: Sendable {
    public let book: Book
    public let itemTitles: [String]
    public let speed: Double
    public let volumePercent: Double
}
