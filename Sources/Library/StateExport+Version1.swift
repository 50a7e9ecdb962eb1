/// Reading state files of version 1, whose settings had other units (StateExport.swift lists
/// the versions). Converted as migration v4 converts a library, so an old export imported into a
/// new library ends where the old library, migrated, would.
extension StateExport {
    /// This document with version 1's settings in today's units; a newer document as it is.
    func inCurrentUnits() -> StateExport {
        guard version < 2 else { return self }
        var converted = self
        converted.version = StateExport.currentVersion
        for index in converted.books.indices {
            guard let old = converted.books[index].settings else { continue }
            converted.books[index].settings = ExportedSettings(
                // A gain factor 0-4; the engine played anything above 150 % at 150.
                volume: min(150, (old.volume * 10_000).rounded() / 100),
                // 0.25-4; the engine played anything below 0.5 at 0.5.
                speed: max(0.5, old.speed),
                shuffle: old.shuffle,
                skipIntervalSeconds: old.skipIntervalSeconds,
                sleepTimerSeconds: old.sleepTimerMinutes.map { $0 * 60 },
                repeatMode: old.repeatMode)
        }
        return converted
    }
}
