import Foundation
import Synchronization

/// The per-process fixture directory and the record of what has been made in it.
///
/// Encoders take a second or more per file and tests run in parallel, so each fixture is made
/// once, by the first test to ask, while the others asking for the same name wait for it (other
/// names proceed in parallel). Files are written under a temporary name and renamed, so a
/// half-written file is never handed out. Nothing is reused across processes: a stale file from
/// an earlier run (same pid) would come from older code.
final class FixtureCache: Sendable {
    let directory: URL
    private let slots = Mutex<[String: Slot]>([:])
    private let opusRecipes = Mutex<[String: OpusRecipe]>([:])

    init() {
        directory = URL(fileURLWithPath: NSTemporaryDirectory())
            .appending(path: "abplayer-fixtures-\(ProcessInfo.processInfo.processIdentifier)")
    }

    /// The URL of fixture `name` (a relative path), calling `make` with a scratch URL to write it
    /// the first time. A failed `make` is not remembered: the next caller tries again.
    func file(named name: String, make: (URL) throws -> Void) throws -> URL {
        let slot = slots.withLock { slots in
            if let slot = slots[name] { return slot }
            let slot = Slot()
            slots[name] = slot
            return slot
        }
        return try slot.url.withLock { made in
            if let made { return made }
            let url = directory.appending(path: name)
            let folder = url.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // The scratch name keeps the extension: ffmpeg picks its output format from it.
            let scratch = folder.appending(path: ".partial-\(UUID().uuidString)-\(url.lastPathComponent)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            try make(scratch)
            try? FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: scratch, to: url)
            made = url
            return url
        }
    }

    func remember(_ recipe: OpusRecipe, for url: URL) {
        opusRecipes.withLock { $0[url.standardizedFileURL.path] = recipe }
    }

    func opusRecipe(for url: URL) -> OpusRecipe? {
        opusRecipes.withLock { $0[url.standardizedFileURL.path] }
    }

    private final class Slot: Sendable {
        let url = Mutex<URL?>(nil)
    }
}

/// A short stable digest (64-bit FNV-1a, hex) for putting a long description into a file name.
/// `Hasher` is seeded per process, so it cannot name files.
func stableDigest(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
    }
    return String(hash, radix: 16)
}
