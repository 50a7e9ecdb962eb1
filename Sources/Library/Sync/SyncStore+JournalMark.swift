import Foundation
import GRDB

/// How this library left its own journal (`SyncJournalMark`), kept to tell a copy of the library apart.
extension SyncStore {
    /// `device`, or the new device this library takes now because another copy of it wrote
    /// `device`'s journal in `folder` since this library last did (said in `problems`). Only for
    /// the library's own device (the one `settings()` names) and once it has left a mark.
    func deviceCheckedForACopy(_ device: DeviceID, folder: String, problems: inout [String]) throws -> DeviceID {
        let path = SyncJournalFormat.path(of: device, in: folder)
        let (taken, problem) = try writer.write { db -> (DeviceID, String?) in
            guard let row = try Row.fetchOne(db, sql: "SELECT deviceId, journalMark FROM syncState WHERE id = 1"),
                  (row[0] as String?) == device.text, let left = (row[1] as String?).flatMap(SyncJournalMark.init(text:)),
                  let now = SyncJournalMark.of(path: path), now != left
            else { return (device, nil) }
            let taken = DeviceID.random()
            try db.execute(sql: "UPDATE syncState SET deviceId = ?, journalMark = NULL WHERE id = 1", arguments: [taken.text])
            return (taken, "\(path): another copy of this library wrote this library's journal (a library file copied to another "
                + "computer keeps its device id); this library is device \(taken) from now on, with a journal of its own")
        }
        if let problem { problems.append(problem) }
        return taken
    }

    /// Remembers how this library left its own journal (`device`'s, when it is the library's).
    func rememberJournalMark(of device: DeviceID, folder: String) throws {
        let mark = SyncJournalMark.of(path: SyncJournalFormat.path(of: device, in: folder))?.text
        try writer.write { db in
            try db.execute(sql: "UPDATE syncState SET journalMark = ? WHERE id = 1 AND deviceId = ? AND journalMark IS NOT ?",
                           arguments: [mark, device.text, mark])
        }
    }
}
