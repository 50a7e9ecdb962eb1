import Foundation
import GRDB

/// This library as sync knows it: its device, and the folder its journal goes to.
public struct SyncSettings: Equatable, Sendable {
    public var device: DeviceID
    /// What other devices call this one (the host's name when it was made, until `sync name`).
    public var deviceName: String
    /// Nil: not syncing.
    public var folder: String?
    /// A book loaded here whose later place another device has goes there when it is started
    /// again (true), or the player only says where that is and `sync jump` goes (false).
    public var jumpOnStart = true
}

/// Sync through a shared folder holding one journal per device: this library's device and
/// folder, how another library's books are found here (`+Identity`), the exchange (`+Exchange`,
/// with `SyncIncoming` applying what the other devices did), where they are (`+Status`), and
/// the mark that tells a copied library file apart (`+JournalMark`).
public struct SyncStore: Sendable {
    let writer: any DatabaseWriter

    /// The sync settings, the device made now if this library never had one (once: it names the
    /// library's journal in the sync folder from then on).
    public func settings() throws -> SyncSettings {
        try writer.write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT deviceId, deviceName, folder, jumpOnStart FROM syncState WHERE id = 1"),
               let device = DeviceID(row[0]) {
                return SyncSettings(device: device, deviceName: row[1], folder: row[2], jumpOnStart: row[3])
            }
            let settings = SyncSettings(device: DeviceID.random(), deviceName: Self.hostName(), folder: nil)
            try db.execute(sql: "INSERT OR REPLACE INTO syncState (id, deviceId, deviceName, folder) VALUES (1, ?, ?, NULL)",
                           arguments: [settings.device.text, settings.deviceName])
            return settings
        }
    }

    /// Syncs through `folder` from now on (nil: stops syncing). The device stays what it was. A
    /// folder that is not there is refused: the sync tool makes it, or the listener does, first.
    public func setFolder(_ folder: String?) throws {
        if let folder {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw LibraryError.invalid("\(folder): no such folder; make it (or let the sync tool make it) first")
            }
        }
        _ = try settings()
        // The journal a new folder holds under this device's name was not left by this library.
        try writer.write { db in try db.execute(sql: "UPDATE syncState SET folder = ?, journalMark = NULL WHERE id = 1", arguments: [folder]) }
    }

    /// Calls this computer `typed` (trimmed; refused when empty or too long, `DeviceName`) from
    /// now on: the next exchange says so in its journal, for the other computers to show.
    public func setDeviceName(_ typed: String) throws -> SyncSettings {
        let name = try DeviceName.checked(typed)
        _ = try settings()
        try writer.write { db in try db.execute(sql: "UPDATE syncState SET deviceName = ? WHERE id = 1", arguments: [name]) }
        return try settings()
    }

    /// Whether a book loaded here goes to another device's later place when it is started again.
    public func setJumpOnStart(_ jump: Bool) throws {
        _ = try settings()
        try writer.write { db in try db.execute(sql: "UPDATE syncState SET jumpOnStart = ? WHERE id = 1", arguments: [jump]) }
    }

    /// The bookmark's id on every device, given to it now if it has none yet.
    public func syncId(ofBookmark bookmarkId: Int64) throws -> String {
        try writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT syncId FROM bookmark WHERE id = ?", arguments: [bookmarkId]) else {
                throw LibraryError.invalid("there is no bookmark \(bookmarkId)")
            }
            if let id: String = row[0] { return id }
            let id = UUID().uuidString
            try db.execute(sql: "UPDATE bookmark SET syncId = ? WHERE id = ?", arguments: [id, bookmarkId])
            return id
        }
    }

    private static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "this device" }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? "this device" : text
    }
}
