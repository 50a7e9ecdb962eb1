import Foundation
import TestSupport
import Testing

extension OutputTests.ControlSocketTests {
    /// A library edit from another process while a player holds the library goes through that
    /// player or is refused, never under it (it used to delete the book playing, and the player
    /// then printed "FOREIGN KEY constraint failed" once a second).
    @Test func anEditFromOutsideIsRefusedAndTheSameEditThroughThePlayerWorks() throws {
        // Given a daemon playing the library's one book
        let fixture = try ControlFixture("edit-while-playing", seconds: 20)
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        _ = try fixture.remote(["play", "Code"]).requireSuccess()

        // When another process deletes the book, renames it, moves an item, or imports
        let attempts = [["book", "rm", "#1"], ["book", "rename", "#1", "Other"], ["book", "settings", "#1", "--volume", "50"],
                        ["shelf", "new", "Shelf"], ["import", fixture.abplayer.home.appending(path: "Code").path]]
        for arguments in attempts {
            let result = try fixture.abplayer.run(arguments + ["--library", fixture.library])
            // Then each is refused in one line saying how, and nothing changed
            #expect(result.status == 1, "\(arguments): \(result.stdoutString)")
            #expect(result.stderr.hasPrefix("abplayer: a player is running on \(fixture.library): make this change through it"),
                    "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        // while reading the library still works, and the book plays on
        let listed = try fixture.abplayer.run(["books", "--json", "--library", fixture.library]).requireSuccess()
        #expect(try JSONDecoder().decode(ListenTests.BookJSON.self, from: listed.stdout).title == "Code")
        #expect(try fixture.status().state == "playing")

        // When the same deletion goes through the player
        let removed = try fixture.remote(["book", "rm", "#1"])
        // Then the player stops the book first and deletes it, and says so without errors after
        #expect(removed.status == 0, "\(removed.stdoutString) \(removed.stderr)")
        let books = try fixture.abplayer.run(["books", "--json", "--library", fixture.library]).requireSuccess()
        #expect(books.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(books.stdoutString)")
        #expect(daemon.stop(SIGTERM) == 0, "\(daemon.log)")
        #expect(!daemon.log.contains("FOREIGN KEY"), "\(daemon.log)")
    }
}
