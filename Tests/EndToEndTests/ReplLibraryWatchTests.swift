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
}
