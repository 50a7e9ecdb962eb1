import Foundation
import TestSupport
import Testing

/// `listen` is a player like the REPL: it watches the library's folders while it plays.
@Suite struct ListenLibraryWatchTests {
    @Test func aFileCopiedIntoTheBookPlayingIsSaidOnStandardErrorAndJoinsTheBook() async throws {
        // Given `listen` playing "Listen Book" (Part 1, two minutes, Part 2, ten) in real time:
        // long enough that it is still playing when this task, starved by blocking tests of other
        // suites (45 s seen; over 4 minutes with a build beside a loaded run), copies the file in
        let abplayer = try AbplayerProcess("listen-watch")
        let folder = abplayer.home.appending(path: "Listen Book")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (part, seconds) in [(1, 120), (2, 600)] {
            try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: seconds, rate: 22050, channels: 1, vbr: false),
                                             to: folder.appending(path: "Part \(part).mp3"))
        }
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        // The file to copy in is made first: encoding it while the book plays could take longer
        // than the book on a loaded machine (fixtures of other suites are made at the same time).
        let third = try Fixtures.mp3(seconds: 4, vbr: false)
        let listening = try ListeningProcess(abplayer, arguments: ["listen", "--output", "null", "--library", library, "Listen Book"])
        _ = try #require(await listening.waitForLine(containing: "playing"), "stderr: \(listening.errorOutput)")

        // When a third part is copied into the book's folder
        try FileManager.default.copyItem(at: third, to: folder.appending(path: "Part 3.mp3"))

        // Then listen says so in one line, in the REPL's words
        let said = await listening.waitForLine(containing: "library: ")
        #expect(said?.line == "abplayer: library: Listen Book: 1 file added", "stderr: \(listening.errorOutput)")
        // and the library has it as the book's last item
        let items = try Command.run("sqlite3", [library, """
            SELECT media.path FROM bookItem JOIN media ON media.id = bookItem.mediaId ORDER BY bookItem.position
            """]).requireSuccess().stdoutString.split(separator: "\n").map { ($0 as NSString).lastPathComponent }
        #expect(items == ["Part 1.mp3", "Part 2.mp3", "Part 3.mp3"])
        // and listen plays on, exiting cleanly when told to
        listening.signal(SIGTERM)
        #expect(await listening.waitForExit() == 0, "stderr: \(listening.errorOutput)")
        #expect(!listening.errorOutput.contains("library watch off"), "stderr: \(listening.errorOutput)")
    }
}
