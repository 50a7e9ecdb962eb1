/// The full-screen commands: the player screen, the cover gallery and the library browser.
public enum ScreenCommand: Equatable, Sendable {
    /// `now`: the player screen (resumes the last book when nothing plays).
    case now
    /// `art [SHELF]`: the covers of the books in a shelf and below (nil: the current shelf).
    case art(shelf: String?)
    /// `library`: the shelves and books, to pick one to play.
    case library

    static let help: [CommandHelp] = [
        CommandHelp(name: "now", usage: "now", summary: "the player screen: single keys (space, arrows, [ ], n/p, c/C, b, u, s, a, L library, q)"),
        CommandHelp(name: "art", usage: "art [SHELF]", summary: "the covers of the books in a shelf and below: ←/→ move, Enter plays, q back"),
        CommandHelp(name: "library", usage: "library", summary: "the shelves and books on one screen, in-progress books first: ↑/↓ j/k move, Tab switches panes, / searches, Enter plays, q back"),
    ]

    init(name: String, arguments: [String]) throws(CommandError) {
        switch name {
        case "now":
            guard arguments.isEmpty else { throw CommandError("now takes no arguments") }
            self = .now
        case "library":
            guard arguments.isEmpty else { throw CommandError("library takes no arguments") }
            self = .library
        default:
            self = .art(shelf: arguments.isEmpty ? nil : arguments.joined(separator: " "))
        }
    }
}
