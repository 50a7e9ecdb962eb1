import Foundation
import TestSupport
import Testing

/// The REPL keeps its library in step with the folders while it runs (`LibraryWatch`).
@Suite struct ReplLibraryWatchTests {
    @Test func aFileCopiedIntoABookFolderIsSaidInOneLine() throws {
        // Given a REPL on a pipe, with the book "Listen Book" (Part 1, Part 2) imported from its folder
        let (abplayer, library) = try ListenTests.libraryWithBook("repl-watch")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "null"])
        repl.send("ls")
        _ = try #require(repl.waitForLine(containing: "Listen Book"), "stderr: \(repl.stderrLines)")

        // When a third part is copied into the book's folder
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 4, vbr: false),
                                         to: abplayer.home.appending(path: "Listen Book/Part 3.mp3"))

        // Then the REPL says so in one line, and the book lists it last
        let line = repl.waitForLine(containing: "library: ")
        #expect(line == "library: Listen Book: 1 file added", "stdout: \(repl.stdoutLines) stderr: \(repl.stderrLines)")
        let before = repl.stdoutLines.count
        repl.send("book items \"Listen Book\"")
        #expect(repl.waitForLine(containing: "Part 3", after: before) != nil, "stdout: \(repl.stdoutLines)")
        #expect(repl.quit() == 0, "stderr: \(repl.stderrLines)")
    }

    @Test func theBookPlayingTakesAFileCopiedIntoItsFolderAndPlaysOn() throws {
        // Given a REPL playing "Listen Book" (Part 1, Part 2: 20 s each) from its start
        let (abplayer, library) = try ListenTests.libraryWithBook("repl-watch-playing")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "null"])
        repl.send("play \"Listen Book\"")
        _ = try #require(repl.waitForLine(containing: "playing #"), "stderr: \(repl.stderrLines)")

        // When a 4 s third part is copied into the book's folder
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 4, vbr: false),
                                         to: abplayer.home.appending(path: "Listen Book/Part 3.mp3"))

        // Then, once the REPL has said so, the book playing has three items and 44 s, and it
        // plays on in its first item
        #expect(repl.waitForLine(containing: "library: Listen Book: 1 file added") != nil, "stdout: \(repl.stdoutLines)")
        let status = try #require(repl.status(), "stdout: \(repl.stdoutLines)")
        #expect(status.itemCount == 3 && status.itemNumber == 1 && status.state == "playing", "\(status)")
        #expect(abs((status.bookDuration ?? 0) - 44) < 0.5, "\(status)")
        #expect(repl.quit() == 0, "stderr: \(repl.stderrLines)")
    }
}
