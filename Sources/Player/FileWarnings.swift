/// What the player has warned about in this run, file by file: a listener hears about a missing
/// or broken file once, not at every play of the book, every loop of a repeat, or once from the
/// load and again from the engine that skips it.
struct FileWarnings {
    /// What a warning about a file says: the file itself (missing, skipped), or that the book's
    /// loudness could not be measured because of it (another fact, said once too).
    enum Topic: Hashable { case file, loudness }

    private var warned: Set<Key> = []

    private struct Key: Hashable {
        let path: String
        let topic: Topic
    }

    /// True the first time `path` is warned about on `topic` in this run.
    mutating func isFirst(about path: String, topic: Topic = .file) -> Bool {
        warned.insert(Key(path: path, topic: topic)).inserted
    }
}
