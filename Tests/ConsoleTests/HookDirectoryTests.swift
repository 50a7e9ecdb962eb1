@testable import Console
import Foundation
import Player
import TestSupport
import Testing

/// Which files of a hooks folder run: only executables named after events, that nobody but us
/// could have written (the plugins' rule), each refusal one line naming the file and why.
@Suite struct HookDirectoryTests {
    /// A hooks folder (mode 755) with these files: name -> mode (a nil mode: a folder of that name).
    static func folder(_ name: String, files: [String: Int?], mode: Int = 0o755) throws -> String {
        let directory = try BuildProducts.temporaryDirectory(name).appending(path: "hooks")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (file, fileMode) in files {
            let path = directory.appending(path: file).path
            if let fileMode {
                try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: path))
                try FileManager.default.setAttributes([.posixPermissions: fileMode], ofItemAtPath: path)
            } else {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            }
        }
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: directory.path)
        return directory.path
    }

    @Test func onlyExecutablesNamedAfterEventsThatOnlyWeCanWriteAreHooks() throws {
        // Given a folder with good hooks, one writable by others, a folder named like an event,
        // and files named after no event
        let directory = try Self.folder("hooks-kinds", files: [
            "started": 0o755, "output-lost": 0o700, "chapter": 0o757, "paused": nil,
            "started.sh": 0o755, "README": 0o644,
        ])

        // When it is read
        let hooks = HookDirectory(directory)

        // Then the good ones are hooks, each bad one is refused in a line naming it and why, and
        // the others are not looked at
        #expect(hooks.hooks == [.started: directory + "/started", .outputLost: directory + "/output-lost"])
        #expect(hooks.refusals == [
            "abplayer: hook \(directory)/paused refused: not a regular file",
            "abplayer: hook \(directory)/chapter refused: the file is writable by other users (mode 757); running it would run their code: chmod o-w",
        ], "\(hooks.refusals)")
    }

    @Test func aFolderItsGroupCanWriteRunsNoneOfItsHooks() throws {
        // Given a folder of good hooks that its group may write
        let directory = try Self.folder("hooks-group-folder", files: ["started": 0o755], mode: 0o775)

        // When it is read
        let hooks = HookDirectory(directory)

        // Then none is a hook, and one line says why
        #expect(hooks.hooks.isEmpty)
        #expect(hooks.refusals == [
            "abplayer: hooks in \(directory) refused: its directory is writable by its group (mode 775); running its hooks would run the group's code: chmod g-w",
        ], "\(hooks.refusals)")
    }

    @Test func noFolderIsNoHooksAndNothingToSay() throws {
        let hooks = HookDirectory(try BuildProducts.temporaryDirectory("hooks-none").appending(path: "absent").path)
        #expect(hooks.hooks.isEmpty && hooks.refusals.isEmpty)
    }
}
