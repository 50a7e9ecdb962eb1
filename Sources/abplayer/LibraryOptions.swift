import ArgumentParser
import Console
import Foundation
import Library

/// The `--library DB` option every library command takes.
struct LibraryOptions: ParsableArguments {
    @Option(name: .customLong("library"), help: ArgumentHelp(
        "The library database (default: $XDG_DATA_HOME/abplayer/library.sqlite).", valueName: "DB"),
        completion: .file())
    var path: String?

    @Flag(help: "Plain, spoken-friendly output for screen readers and braille: whole lines only (no full screens, cursor movement, CR or colour), every change said on a line of its own. 'set plain on' keeps it on; automatic when TERM=dumb.")
    var plain = false

    /// Opens (creating and migrating) the library, or prints why not and fails.
    func open() throws -> LibraryDatabase {
        let path = try requirePath()
        do {
            return try LibraryDatabase(path: path)
        } catch {
            printError("abplayer: \(error)")
            throw ExitCode.failure
        }
    }
}

/// Runs a library action; a library or SQLite error becomes one line on standard error naming
/// the library file (`library`, when the caller has it open), and a failure exit.
func reportingLibraryErrors<T>(_ library: LibraryDatabase? = nil, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error where LibraryError.describing(error, library: library?.path) != nil {
        printError("abplayer: \(LibraryError.describing(error, library: library?.path)!)")
        throw ExitCode.failure
    }
}

/// Book durations as people read them: "1:02:03", "4:05".
func formatDuration(_ seconds: Double?) -> String { LibraryText.duration(seconds) }

extension JSONEncoder {
    /// Stable, readable JSON for scripts.
    static var forScripts: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Local time with its offset (2026-11-28T05:00:15+01:00), as the lines show times:
        // Foundation's .iso8601 writes UTC.
        encoder.dateEncodingStrategy = .custom { date, encoder in
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = .current
            var container = encoder.singleValueContainer()
            try container.encode(formatter.string(from: date))
        }
        return encoder
    }

    func line<T: Encodable>(_ value: T) -> String {
        String(decoding: (try? encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }
}
