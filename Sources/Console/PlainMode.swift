public import Foundation
import Synchronization

/// Whether the REPL's terminal gets plain, spoken-friendly output: whole lines appended and
/// nothing else (no full screen, no cursor movement, no CR, no colour), the line read by the
/// terminal's own editing (`PlainLineReader`), and every change a screen would have shown said as
/// a line of its own (`PlayerNotice.isAnnouncement`, and what other clients did). On where the
/// terminal cannot do more (TERM=dumb), with `--plain`, or with the library's kept default
/// (`set plain on`), which may change while the REPL runs: the reader's thread and the service's
/// task both read it.
public final class PlainMode: Sendable {
    /// The terminal cannot move the cursor (TERM=dumb, no TERM).
    let terminalAsksForIt: Bool
    /// `--plain` on the command line.
    let forced: Bool
    /// `set plain on|off`.
    private let chosen: Atomic<Bool>

    public init(forced: Bool, chosen: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        terminalAsksForIt = ScreenStyle(environment: environment, isTerminal: true).mode == .plain
        self.forced = forced
        self.chosen = Atomic(chosen)
    }

    public var isOn: Bool { terminalAsksForIt || forced || chosen.load(ordering: .relaxed) }

    /// `set plain on|off` (nil: not set, off).
    func choose(_ on: Bool?) { chosen.store(on ?? false, ordering: .relaxed) }

    /// `style` as this mode lets it draw: plain when on, else as the terminal allows.
    func restricting(_ style: ScreenStyle) -> ScreenStyle {
        isOn ? ScreenStyle(mode: .plain, coverColors: style.coverColors) : style
    }
}
