import Foundation
import Library
import PlayerCore

/// `sync`: exchanges with the other devices through the sync folder, as the player plays. A book
/// not loaded takes another device's later place at once (with an undo point); the book loaded
/// is never moved: its later place elsewhere is offered, and `sync jump` goes there.
extension PlayerController {
    func sync(_ request: SyncRequest) throws -> PlayerOutcome {
        switch request {
        case .status:
            guard let settings = sync.settings, let folder = settings.folder else { throw PlayerError(PlayerSync.notSyncing) }
            let (books, problems) = try library.syncStatus(folder: folder, device: settings.device)
            return .sync(.status(settings, books, problems: problems))
        case .now:
            let report = try sync.exchangeNow(playing: session?.book.id)
            takeOffer(from: report)
            return .sync(.exchanged(report))
        case let .folder(folder):
            if let folder {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
                    throw PlayerError("sync dir \(folder): no such folder; make it (or let the sync tool make it) first")
                }
            }
            return .sync(.folder(try sync.setFolder(folder)))
        case .jump:
            let session = try playing()
            guard let offer = sync.offer, offer.bookId == session.book.id else {
                throw PlayerError("no other device has a later place in \(session.book.title) ('sync' shows where each is)")
            }
            let media = try library.items(ofBook: session.book.id!)
            guard let mediaId = media.first(where: { $0.fingerprint == offer.claim.item })?.id,
                  let item = session.mediaIds.firstIndex(of: mediaId) else {
                throw PlayerError("\(session.book.title) has no longer the file \(offer.deviceName ?? offer.claim.device.text) was in")
            }
            sync.offer = nil
            session.jump(to: PlaybackPosition(item: item, frame: offer.claim.frame), kind: .beforeSyncJump)
            return .moved(Place(session))
        }
    }

    /// What an exchange in the background found: said as notices.
    func syncExchanged(_ result: Result<SyncExchangeReport, SyncProblem>) {
        switch result {
        case let .success(report):
            sync.lastProblem = nil
            takeOffer(from: report)
            for problem in report.problems { onNotice(.problem("sync: \(problem)")) }
            for line in SyncText.reportLines(report) { onNotice(.synced(line)) }
        case let .failure(problem):
            guard problem.text != sync.lastProblem else { return }
            sync.lastProblem = problem.text
            onNotice(.problem(problem.text))
        }
    }

    /// The offer for the book loaded, if the report has one for it.
    private func takeOffer(from report: SyncExchangeReport) {
        if let waiting = report.waiting, waiting.bookId == session?.book.id { sync.offer = waiting }
    }

    /// After a pause or a stop: this device's place goes to its journal at once.
    func syncAfter(_ command: PlayerCommand) {
        guard sync.isOn else { return }
        switch command {
        case .pause, .stop: sync.exchangeInBackground(playing: session?.book.id)
        case .toggle where session?.state != .playing: sync.exchangeInBackground(playing: session?.book.id)
        case .play:
            // Another book loaded: an offer for the one before no longer stands.
            if sync.offer?.bookId != session?.book.id { sync.offer = nil }
        default: break
        }
    }
}
