@testable import Console
import Foundation
import Testing

/// The control socket's naming and line handling, without a player.
@Suite struct ControlProtocolTests {
    @Test func theDefaultLibraryHasTheIssuesSocketNameAndOthersAHashOfTheirRealPath() throws {
        // Given a runtime folder and a folder reached through a symbolic link
        let base = FileManager.default.temporaryDirectory.appending(path: "abp-ctl-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: base.appending(path: "real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: base.appending(path: "link"), withDestinationURL: base.appending(path: "real"))
        defer { try? FileManager.default.removeItem(at: base) }
        let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        let defaultLibrary = base.appending(path: "real/library.sqlite").path

        // Then the default library's socket is `control`, another library's `control-HASH`, the
        // same file reached through the link gets the same name, and two files get two names
        let main = ControlSocketPath(library: defaultLibrary, environment: environment, defaultLibrary: defaultLibrary)
        #expect(main.path == "/run/user/1000/abplayer/control" && !main.isFallback)
        let other = ControlSocketPath(library: base.appending(path: "real/other.sqlite").path, environment: environment, defaultLibrary: defaultLibrary)
        let linked = ControlSocketPath(library: base.appending(path: "link/other.sqlite").path, environment: environment, defaultLibrary: defaultLibrary)
        #expect(other.path.hasPrefix("/run/user/1000/abplayer/control-") && other.path.count == main.path.count + 17)
        #expect(linked.path == other.path)
        #expect(ControlSocketPath(library: defaultLibrary, environment: environment, defaultLibrary: "/elsewhere.sqlite").path != main.path)

        // And without XDG_RUNTIME_DIR it is a folder of this user's in /tmp
        let fallback = ControlSocketPath(library: defaultLibrary, environment: [:], defaultLibrary: defaultLibrary)
        #expect(fallback.isFallback && fallback.path == "/tmp/abplayer-\(getuid())/control")
    }

    @Test func theHashIsFNV1aAndStable() {
        // FNV-1a 64 of "" and "a", the published test vectors
        #expect(ControlSocketPath.hash("") == "cbf29ce484222325")
        #expect(ControlSocketPath.hash("a") == "af63dc4c8601ec8c")
    }

    @Test func linesAreCommandsSubscribeOrRefusedWithAReason() {
        #expect(ControlSocketServer.parse(.bytes(Array("  status --json ".utf8))) == .command("status --json"))
        #expect(ControlSocketServer.parse(.bytes(Array("subscribe".utf8))) == .subscribe)
        #expect(ControlSocketServer.parse(.bytes([])) == .refused("empty line: send a command, e.g. 'status --json' (or 'help')"))
        #expect(ControlSocketServer.parse(.bytes([0x61, 0xff])) == .refused("the line is not UTF-8 text"))
        #expect(ControlSocketServer.parse(.tooLong) == .dropped("line longer than 16384 bytes: refused, and the connection closed"))
    }

    @Test func aClientReplKeepsQuitAndFullScreensToItselfAndTogglesOnEnter() {
        #expect(RemoteRepl.check("quit", typed: true) == .quit)
        #expect(RemoteRepl.check("status; quit", typed: false) == .quit)
        #expect(RemoteRepl.check("", typed: true) == .send("toggle"))
        #expect(RemoteRepl.check("", typed: false) == .skip)
        // A note typed at the client's prompt is the rest of its line, `;` included: sent
        // quoted, as the player reads socket lines like a script's
        #expect(RemoteRepl.check("bookmark the duel; at dawn", typed: true) == .send(#""bookmark" "the duel; at dawn""#))
        #expect(RemoteRepl.check("bookmark the duel; at dawn", typed: false) == .send("bookmark the duel; at dawn"))
        #expect(RemoteRepl.check("status; +30", typed: true) == .send("status; +30"))
        #expect(RemoteRepl.check("play Dune; now", typed: false) == .refuse("now: on a line of its own, it shows the player's screen here"))
        #expect(RemoteRepl.check("now", typed: true) == .screen(showingLibrary: false))
        #expect(RemoteRepl.check("library", typed: true) == .screen(showingLibrary: true))
        // help alone is shown (and paged) by the client itself; with other commands it goes as they do
        #expect(RemoteRepl.check("help all", typed: true) == .help(.all))
        #expect(RemoteRepl.check("help all; status", typed: true) == .send("help all; status"))
        #expect(RemoteRepl.check("help nonsense", typed: true) == .send("help nonsense"))
        #expect(RemoteRepl.check("ls; library", typed: true) == .refuse("library: on a line of its own, it shows the library screen here"))
        #expect(RemoteRepl.check("art", typed: true)
            == .refuse("art: this screen shows only on the player's own terminal; here 'now' shows the player, 'library' the books"))
        #expect(RemoteRepl.check("seek +30", typed: true) == .send("seek +30"))
        // A line the tokenizer refuses goes to the player, which says why in its reply
        #expect(RemoteRepl.check("play \"Dune", typed: true) == .send("play \"Dune"))
    }

    @Test func eventsHaveOneStableJSONShape() throws {
        let changed = String(decoding: RemoteEventJSON.line(.changed(nil)), as: UTF8.self)
        #expect(changed == "{\"event\":\"changed\",\"status\":null}\n")
        let engine = String(decoding: RemoteEventJSON.line(.engine(.stateChanged(.paused))), as: UTF8.self)
        #expect(engine == "{\"engine\":{\"state\":\"paused\",\"type\":\"stateChanged\"},\"event\":\"engine\"}\n")
        // A change of the library's books or shelves carries nothing but its name
        let library = String(decoding: RemoteEventJSON.line(.libraryChanged), as: UTF8.self)
        #expect(library == "{\"event\":\"library\"}\n")
    }
}
