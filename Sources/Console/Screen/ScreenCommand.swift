/// The full-screen commands: the player screen, the cover gallery and the library browser; and
/// clearing the terminal, which is the terminal's too.
public enum ScreenCommand: Equatable, Sendable {
    /// `now`: the player screen (resumes the last book when nothing plays).
    case now
    /// `art [SHELF]`: the covers of the books in a shelf and below (nil: the current shelf).
    case art(shelf: String?)
    /// `library`: the shelves and books, to pick one to play.
    case library
    /// `clear`: an empty terminal, the prompt at its top (nothing where it cannot move the cursor).
    case clear

    static let help: [CommandHelp] = [
        CommandHelp(name: "now", topic: .screens, usage: "now", summary: "the player screen: single keys (space, arrows, [ ], n/p, c/C, b, u, s, a, L library, q)"),
        CommandHelp(name: "art", topic: .screens, usage: "art [SHELF]", summary: "the covers of the books in a shelf and below: ←/→ move, Enter plays, q back"),
        CommandHelp(name: "clear", topic: .screens, usage: "clear", summary: "clear the terminal (nothing where it cannot: a pipe, a script, TERM=dumb)"),
    ]

    init(name: String, arguments: [String]) throws(CommandError) {
        switch name {
        case "now":
            guard arguments.isEmpty else { throw CommandError("now takes no arguments") }
            self = .now
        case "library":
            guard arguments.isEmpty else { throw CommandError("library takes no arguments") }
            self = .library
        case "clear":
            guard arguments.isEmpty else { throw CommandError("clear takes no arguments") }
            self = .clear
        default:
            self = .art(shelf: arguments.isEmpty ? nil : arguments.joined(separator: " "))
        }
    }
}
