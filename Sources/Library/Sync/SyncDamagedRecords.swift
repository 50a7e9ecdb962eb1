import Foundation

/// Records another device's journal states that cannot be true here: a place, a bookmark or a
/// chapter past the end of its item (a place 6,298,815,822 hours into a book was taken, shown
/// as 100 % and played from the item's start). Such a record is damaged: it is not applied, what
/// was here stays, and each device's are reported in one line per exchange, as damaged lines are.
struct SyncDamagedRecords: Sendable {
    private var byDevice: [DeviceID: (count: Int, first: String)] = [:]

    /// `what`: the first of a device's, said in the report ("a place in 'War'").
    mutating func note(_ device: DeviceID, _ what: @autoclosure () -> String) {
        if let known = byDevice[device] {
            byDevice[device] = (known.count + 1, known.first)
        } else {
            byDevice[device] = (1, what())
        }
    }

    /// One line for each device, naming its journal in `folder`.
    func lines(folder: String) -> [String] {
        byDevice.sorted { $0.key < $1.key }.map { device, noted in
            let path = SyncJournalFormat.path(of: device, in: folder)
            return noted.count == 1 ? "\(path): 1 damaged record not applied (\(noted.first))"
                : "\(path): \(noted.count) damaged records not applied (the first: \(noted.first))"
        }
    }

    /// "frame F of N".
    static func beyond(_ frame: Int64, length: Int64) -> String { "past the end of its item: frame \(frame) of \(length)" }
}
