import Foundation
import TestSupport
import Testing

/// `abplayer sync` as a user runs it: two libraries of the same book at different paths, one
/// folder between them; a bookmark and a place travel; mistakes get one line; a running player
/// keeps `sync now` out.
@Suite struct SyncCommandTests {
    @Test func aBookmarkAndAPlaceTravelBetweenTwoLibrariesThroughTheSyncFolder() throws {
        // Given library B (the fixture's, "Code") and library A of a copy of the same book elsewhere
        let fixture = try ControlFixture("sync-cli")
        defer { fixture.cleanUp() }
        let pair = try SyncPair(fixture)
        let (libraryA, shared) = (pair.libraryA, pair.shared)
        func run(_ arguments: [String], on library: String) throws -> CommandResult { try pair.run(arguments, on: library) }

        // When sync is used before a folder is named, or with one that does not exist
        let unset = try run(["sync", "status"], on: libraryA)
        let missing = try run(["sync", "dir", shared.path + "/nope"], on: libraryA)

        // Then each says so in one line and fails
        #expect(unset.status == 1 && unset.stderr.split(separator: "\n").count == 1 && unset.stderr.contains("sync dir"))
        #expect(missing.status == 1 && missing.stderr.split(separator: "\n").count == 1 && missing.stderr.contains("no such folder"))

        // When both name the folder, A bookmarks the book and both sync
        for library in [libraryA, fixture.library] {
            #expect(try run(["sync", "dir", shared.path], on: library).stdoutString.contains("syncing through \(shared.path)"))
        }
        _ = try run(["bookmarks", "add", "Code", "--at", "5", "--note", "the duel"], on: libraryA).requireSuccess()
        _ = try run(["sync", "now"], on: libraryA).requireSuccess()
        let received = try run(["sync", "now"], on: fixture.library).requireSuccess()

        // Then B has A's bookmark
        #expect(received.stdoutString.contains("bookmarks from other devices: 1 added"))
        #expect(try run(["bookmarks", "Code"], on: fixture.library).stdoutString.contains("the duel"))

        // When A listens to 0:07 and both sync
        _ = try Command.run(BuildProducts.abplayer.path, ["repl", "--library", libraryA, "--output", "null", "-c", "play Code; seek 0:07; pause"],
                            environment: fixture.environment, timeout: 60).requireSuccess()
        _ = try run(["sync", "now"], on: libraryA).requireSuccess()
        let moved = try run(["sync", "now"], on: fixture.library).requireSuccess()

        // Then B is told its place moved there, saves it, and its status shows A's place
        #expect(moved.stdoutString.contains("Code: now at 0:07"), "stdout: \(moved.stdoutString)")
        #expect(try fixture.savedSeconds().map { abs($0 - 7) < 0.05 } == true)
        let status = try run(["sync", "status"], on: fixture.library).stdoutString
        #expect(status.contains("Code") && status.contains("0:07"), "status: \(status)")
        // and so does its book list, A told apart by the first characters of its id (both libraries
        // are on this computer, of one name)
        let deviceA = try #require(try run(["sync", "dir", shared.path], on: libraryA).stdoutString
            .split(separator: "(").last?.split(separator: ")").first.map { String($0.prefix(4)) })
        let books = try run(["books", "--brief"], on: fixture.library).stdoutString
        #expect(books.contains("    elsewhere: ") && books.contains("(\(deviceA)) 0:07 (today "), "books: \(books)")
        // and its JSON, for scripts: the device, seconds into the book, and when
        struct Listed: Decodable {
            struct Place: Decodable { let device: String; let position: Double?; let listenedAt: Double }
            let title: String
            let elsewhere: [Place]?
        }
        let listed = try JSONDecoder().decode(Listed.self, from: Data(try run(["books", "--json"], on: fixture.library).stdoutString.utf8))
        let place = try #require(listed.elsewhere?.first, "\(listed)")
        #expect(listed.title == "Code" && place.device.contains(deviceA) && abs((place.position ?? 0) - 7) < 0.05)
        #expect(abs(place.listenedAt - Date().timeIntervalSince1970) < 600)

        // When auto-jump is turned off, then it says what that means
        let off = try run(["sync", "auto-jump", "off"], on: fixture.library).requireSuccess()
        #expect(off.stdoutString.hasPrefix("sync auto-jump off: "))
        #expect(try run(["sync", "auto-jump", "maybe"], on: fixture.library).status != 0)

        // When a player runs on B, `sync now` there waits for it to stop, in one line
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket { fixture.socketPath() })
        let refused = try run(["sync", "now"], on: fixture.library)
        #expect(refused.status == 1 && refused.stderr.contains("a player is running") && refused.stderr.split(separator: "\n").count == 1)
        // and the player's own, asked through remote as that line says, exchanges
        let remote = try Command.run(BuildProducts.abplayer.path, ["remote", "--library", fixture.library, "sync", "now"],
                                     environment: fixture.environment, timeout: 60)
        #expect(remote.status == 0 && remote.stdoutString.contains("in step with the other devices"), "out: \(remote.stdoutString) err: \(remote.stderr)")
        #expect(daemon.stop() == 0)
    }

    @Test func changingTheSyncSettingsWhileAPlayerRunsIsRefusedAndNamesTheRemoteForm() throws {
        // Given a library syncing through a folder, and a player running on it
        let fixture = try ControlFixture("sync-busy", seconds: 4)
        defer { fixture.cleanUp() }
        let shared = fixture.abplayer.home.appending(path: "shared")
        let other = fixture.abplayer.home.appending(path: "other")
        for folder in [shared, other] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        func run(_ arguments: [String]) throws -> CommandResult {
            try Command.run(BuildProducts.abplayer.path, arguments + ["--library", fixture.library], environment: fixture.environment, timeout: 60)
        }
        _ = try run(["sync", "dir", shared.path]).requireSuccess()
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket { fixture.socketPath() }, "\(daemon.log)")

        // When another process changes the folder, stops syncing, or turns auto-jump off
        let changes: [([String], String)] = [
            (["sync", "dir", other.path], "'abplayer remote sync dir \(other.path)'"),
            (["sync", "dir", "off"], "'abplayer remote sync dir off'"),
            (["sync", "auto-jump", "off"], "'abplayer remote sync auto-jump off'"),
            (["sync", "name", "den"], "'abplayer remote sync name den'"),
        ]
        for (command, remoteForm) in changes {
            let refused = try run(command)
            // Then each is refused in one line naming the remote form that makes the change
            #expect(refused.status == 1 && refused.stderr.split(separator: "\n").count == 1, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains("a player is running") && refused.stderr.contains(remoteForm), "\(command): \(refused.stderr)")
        }
        // And reading the status is still allowed
        let status = try run(["sync", "status"])
        #expect(status.status == 0, "\(status.stderr)")

        // And the player still syncs through the first folder, which its remote form changes
        let now = try fixture.remote(["sync", "now"])
        #expect(now.status == 0 && now.stdoutString.contains("in step with the other devices"), "out: \(now.stdoutString) err: \(now.stderr)")
        let renamed = try fixture.remote(["sync", "name", "den"])
        #expect(renamed.status == 0 && renamed.stdoutString.contains("this computer is called den "), "out: \(renamed.stdoutString) err: \(renamed.stderr)")
        let moved = try fixture.remote(["sync", "dir", other.path])
        #expect(moved.status == 0 && moved.stdoutString.contains("syncing through \(other.path)"), "out: \(moved.stdoutString) err: \(moved.stderr)")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }
}
