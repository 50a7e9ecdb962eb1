import Foundation
import TestSupport
import Testing

/// Two libraries of one book that sync through one folder: the fixture's (B, "Code") and A, of
/// a copy of the same book elsewhere, as two computers would have it.
struct SyncPair {
    let fixture: ControlFixture
    /// Library A's file; B's is `fixture.library`.
    let libraryA: String
    /// The folder both exchange through (not named to either yet).
    let shared: URL

    init(_ fixture: ControlFixture) throws {
        self.fixture = fixture
        let home = fixture.abplayer.home
        libraryA = home.appending(path: "a/library.sqlite").path
        try FileManager.default.createDirectory(at: home.appending(path: "a"), withIntermediateDirectories: true)
        let copy = home.appending(path: "Elsewhere/Code")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: home.appending(path: "Code"), to: copy)
        _ = try fixture.abplayer.run(["import", "--library", libraryA, copy.path]).requireSuccess()
        shared = home.appending(path: "shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    }

    /// `abplayer ARGUMENTS --library library`.
    func run(_ arguments: [String], on library: String) throws -> CommandResult {
        try Command.run(BuildProducts.abplayer.path, arguments + ["--library", library], environment: fixture.environment, timeout: 60)
    }

    /// Both name the shared folder.
    func nameTheFolder() throws {
        for library in [libraryA, fixture.library] { _ = try run(["sync", "dir", shared.path], on: library).requireSuccess() }
    }

    /// A REPL script on library A (its player writes A's journal as it quits).
    func onA(_ script: String) throws -> CommandResult {
        try Command.run(BuildProducts.abplayer.path, ["repl", "--library", libraryA, "--output", "null", "-c", script],
                        environment: fixture.environment, timeout: 60).requireSuccess()
    }

    /// This library's device id, as `sync name` says it.
    func device(of library: String) throws -> String {
        try #require(try run(["sync", "name"], on: library).stdoutString
            .split(separator: "(device ").last?.split(separator: ")").first.map(String.init))
    }
}
