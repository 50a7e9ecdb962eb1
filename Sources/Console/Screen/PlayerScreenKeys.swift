/// What a key on the player screen asks for, as the command line typed at the prompt: one
/// grammar, so the player's own screen and a screen attached over the control socket (`now` in
/// a second terminal) do the same for the same key, and what a step means (its size, where it
/// stops) is the player's, not the screen's.
enum PlayerScreenKeys {
    /// The command line for `key`; nil for the keys that change what the screen shows (a cover,
    /// the bookmarks, the library, back) and for keys that mean nothing here.
    static func line(for key: Key) -> String? {
        switch key {
        case .character(" "): "toggle"
        case .left: "-"
        case .right: "+"
        case .shiftLeft, .character("h"): "-60"
        case .shiftRight, .character("l"): "+60"
        case .up: "volume +5"
        case .down: "volume -5"
        case .character("["): "speed -0.1"
        case .character("]"): "speed +0.1"
        case .character("n"): "next"
        case .character("p"): "prev"
        case .character("c"): "chapter next"
        case .character("C"): "chapter prev"
        case .character("b"): "bookmark"
        case .character("u"): "undo"
        // The sleep timer's own cycle: off, 15, 30, 45, 60 min, end of chapter.
        case .character("s"): "sleep cycle"
        default: nil
        }
    }
}
