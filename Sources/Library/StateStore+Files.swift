import Foundation

/// The state as a file: `export FILE` and `import-state FILE`, in the REPL and on the command
/// line. Neither may touch the library's own files (`LibraryFiles`): `abplayer export
/// library.sqlite`, read as "export library.sqlite", replaced the whole library with its JSON;
/// and reading the database as a state file, in a process that has it open, drops SQLite's locks.
extension StateStore {
    /// Writes the state as JSON to `path`, whole or not at all (written beside it, then renamed).
    @discardableResult
    public func export(toFile path: String) throws -> StateExport {
        if ownFiles?.contains(path) == true {
            throw LibraryError.invalid("\(path) is this library's own database file: name a new file for the JSON")
        }
        let state = try export()
        do {
            try StateExport.encoder.encode(state).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw LibraryError.invalid("\(path): cannot write it (\(error.localizedDescription))")
        }
        return state
    }

    /// The state `export` wrote to `path`.
    public func read(fromFile path: String) throws(LibraryError) -> StateExport {
        if ownFiles?.contains(path) == true {
            throw LibraryError.invalid("\(path) is this library's own database file, not a state file: name the JSON file 'export' wrote")
        }
        do {
            return try StateExport.decoder.decode(StateExport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw LibraryError.invalid("\(path): not a readable abplayer state file (\(error.localizedDescription))")
        }
    }
}
