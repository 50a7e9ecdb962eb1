import Foundation
import TestSupport
import Testing

extension OutputTests.ControlSocketTests {
    /// A player takes the library's lock some milliseconds before its control socket listens: a
    /// second REPL started at the same moment found the lock held and nothing answering, blamed
    /// an `abplayer listen` and exited 1 (13 rounds of 20), its commands never run.
    @Test func twoReplsStartedAtTheSameMomentBothRunTheirCommands() throws {
        // Given a library with the book Code and no player on it
        let fixture = try ControlFixture("control-together", seconds: 4)
        defer { fixture.cleanUp() }
        for round in 1...10 {
            // When two REPLs on pipes start at once and each lists the library
            let pair = try (0..<2).map { _ in
                try ReplPipeProcess(fixture.abplayer, arguments: ["--library", fixture.library, "--output", "null"],
                                    environment: ["XDG_RUNTIME_DIR": fixture.runtime])
            }
            for repl in pair { repl.send("ls") }

            // Then both answer (one is the player, the other its client), and both exit 0
            for repl in pair {
                #expect(repl.waitForLine(containing: "Code", timeout: 30) != nil, "round \(round): \(repl.stdoutLines) \(repl.stderrLines)")
            }
            let exits = pair.map { $0.quit() }
            #expect(exits == [0, 0], "round \(round): \(pair.map(\.stderrLines))")
        }
    }
}
