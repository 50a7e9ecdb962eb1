import Foundation
import TestSupport

/// The event hooks of a test's player: `$XDG_CONFIG_HOME/abplayer/hooks` of its `AbplayerProcess`,
/// with hooks that record what they were given (their environment, one file a run) in `records`.
struct HookFolder {
    let directory: URL
    let records: URL

    init(_ abplayer: AbplayerProcess) throws {
        directory = abplayer.home.appending(path: "config/abplayer/hooks")
        records = abplayer.home.appending(path: "hook-records")
        for folder in [directory, records] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        // As the player requires: writable by nobody but us, whatever the runner's umask.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
    }

    /// A hook for `event` that writes its environment to a file of `records` named by the time
    /// it ran, whole or not at all (written aside, then renamed).
    func record(_ events: [String]) throws {
        for event in events {
            try write(event, """
                #!/bin/sh
                out='\(records.path)'
                env > "$out/.$$"
                mv "$out/.$$" "$out/$(date +%s%N).$$.$ABPLAYER_EVENT"
                """)
        }
    }

    /// A hook for `event` with this shell script, executable by us alone.
    func write(_ event: String, _ script: String, mode: Int = 0o755) throws {
        let file = directory.appending(path: event)
        try Data((script + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
    }

    /// What one run of a recording hook was given: its ABPLAYER_ variables.
    struct Record {
        let event: String
        let variables: [String: String]
        subscript(_ name: String) -> String? { variables["ABPLAYER_" + name] }
        func number(_ name: String) -> Double? { self[name].flatMap(Double.init) }
    }

    /// The runs recorded so far, in the order they ran.
    var all: [Record] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: records.path)) ?? []).filter { !$0.hasPrefix(".") }
        // Nanoseconds since 1970 first: 19 digits until 2286, so the names sort by time.
        return names.sorted().compactMap { name in
            guard let text = try? String(contentsOf: records.appending(path: name), encoding: .utf8) else { return nil }
            return Record(event: String(name.split(separator: ".").last ?? ""), variables: Self.variables(text))
        }
    }

    func records(of event: String) -> [Record] { all.filter { $0.event == event } }

    /// Waits until `count` runs of `event` were recorded; the last, or nil after `seconds`.
    func waitFor(_ event: String, count: Int = 1, seconds: Double = 30) -> Record? {
        var found: Record?
        _ = waitUntil(within: seconds) {
            let runs = records(of: event)
            found = runs.count >= count ? runs.last : nil
            return found != nil
        }
        return found
    }

    /// `env`'s lines: a line that does not start a variable goes on the value before (a
    /// message of several lines).
    private static func variables(_ text: String) -> [String: String] {
        var variables: [String: String] = [:]
        var last: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let equals = line.firstIndex(of: "="), line[..<equals].allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }), !line[..<equals].isEmpty {
                let name = String(line[..<equals])
                variables[name] = String(line[line.index(after: equals)...])
                last = name
            } else if let last {
                variables[last, default: ""] += "\n" + line
            }
        }
        return variables
    }
}
