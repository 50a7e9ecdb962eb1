/// What `help TOPIC` groups the commands by: each command is in exactly one (`CommandHelp.topic`).
/// A topic named like a command (`library`, `bookmarks`, `chapters`, `sync`) holds that command,
/// so `help library` shows the command too.
public enum HelpTopic: String, CaseIterable, Equatable, Sendable {
    case playback, chapters, bookmarks, library, sync, settings, screens

    /// One line (of 66 cells at most: the overview's column at 80) for plain `help`.
    var summary: String {
        switch self {
        case .playback: "play, pause, skip, seek, items, undo, sleep timer, repeat, queue"
        case .chapters: "go to a chapter, list them, make your own, find them by silences"
        case .bookmarks: "mark the place heard with a note, list them, jump back to one"
        case .library: "shelves and books: list, find, import, edit; history, stats"
        case .sync: "your place and bookmarks on every computer, by a shared folder"
        case .settings: "speed, volume, silence skipping, loudness, rewind, output, defaults"
        case .screens: "the player screen, covers, clearing the terminal, this help"
        }
    }
}
