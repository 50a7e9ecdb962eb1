import Foundation
public import Library
import PlayerCore

/// `sync`: exchanges with the other devices through the sync folder, as the player plays. A book
/// not loaded takes another device's later place at once (with an undo point); the book loaded
/// is never moved under the listener: its later place elsewhere is said when it is not playing,
/// and taken when it is started again (`sync auto-jump on`, the default) or with `sync jump`.
extension PlayerController {
    func sync(_ request: SyncRequest) throws -> PlayerOutcome {
        switch request {
        case .status:
            guard let settings = sync.settings, let folder = settings.folder else { throw PlayerError(PlayerSync.notSyncing) }
            // As many devices a book as the status shows: the others are only counted, not made seconds into the book.
            let (books, problems) = try library.syncStatus(folder: folder, device: settings.device, deviceName: settings.deviceName,
                                                           devicesPerBook: SyncText.devicesShown)
            return .sync(.status(settings, books, problems: problems))
        case .now:
            var report = try sync.exchangeNow(playing: session?.book.id)
            sync.lastProblem = nil
            if report.newDevice != nil { sync.deviceChanged() }
            take(&report)
            // Asked for: said even while playing (saying is not moving), and again if said before.
            if let offer = sync.offer {
                sync.offerSaid = true
                onNotice(.synced(SyncText.offerLine(offer, jumpOnStart: sync.settings?.jumpOnStart ?? false)))
            }
            return .sync(.exchanged(report))
        case let .folder(folder):
            return .sync(.folder(try sync.setFolder(folder)))
        case let .jumpOnStart(jump):
            return .sync(.jumpOnStart(try sync.setJumpOnStart(jump)))
        case .jump:
            let session = try playing()
            guard let offer = sync.offer, offer.bookId == session.book.id else {
                throw PlayerError("no other device has a later place in \(session.book.title) ('sync' shows where each is)")
            }
            guard let target = try place(of: offer, in: session) else {
                throw PlayerError("\(session.book.title) has no longer the file \(offer.deviceName ?? offer.claim.device.text) was in")
            }
            go(to: offer, at: target, in: session)
            return .moved(Place(session))
        }
    }

    /// What an exchange in the background found: said as notices. The offer for the book
    /// loaded is said only when it is not playing (after a pause, or at once when paused).
    func syncExchanged(_ result: Result<SyncExchangeReport, SyncProblem>) {
        switch result {
        case var .success(report):
            if sync.lastProblem != nil { onNotice(.synced("sync folder back: syncing again")) }
            sync.lastProblem = nil
            if report.newDevice != nil { sync.deviceChanged() }
            take(&report)
            for problem in report.problems { onNotice(.problem("sync: \(problem)")) }
            for line in SyncText.reportLines(report) { onNotice(.synced(line)) }
            sayOfferIfNotPlaying()
        case let .failure(problem):
            guard problem.text != sync.lastProblem else { return }
            sync.lastProblem = problem.text
            onNotice(.problem(problem.text))
        }
    }

    /// What every exchange that worked leaves: the folder watched (again, if it had gone), the
    /// other devices' places, and the offer for the book loaded, taken out of the report (the
    /// player says it when the book is not playing, not with the report's other lines).
    private func take(_ report: inout SyncExchangeReport) {
        sync.watchFolder()
        sync.elsewhere = report.elsewhere
        takeOffer(from: &report)
        report.waiting = nil
    }

    /// Keeps the report's offer for the book loaded (none: an offer made before is gone, this
    /// device having listened later since). A move of the book loaded to another place than it
    /// loaded at is an offer too: it was loaded while the exchange ran, from the place before.
    /// (Loaded at the moved place, the move is said as any other.)
    private func takeOffer(from report: inout SyncExchangeReport) {
        guard let session, let loaded = session.book.id else {
            sync.offer = nil
            return
        }
        if let index = report.moved.firstIndex(where: { $0.bookId == loaded }),
           let target = try? place(of: report.moved[index], in: session), target != session.loadedAt {
            report.waiting = report.moved.remove(at: index)
        }
        if report.waiting?.claim == sync.taken { report.waiting = nil }
        sync.offer = report.waiting?.bookId == loaded ? report.waiting : nil
    }

    /// Says the offer for the book loaded once, when it is not playing.
    private func sayOfferIfNotPlaying() {
        guard let offer = sync.offer, !sync.offerSaid, let session, session.state != .playing else { return }
        sync.offerSaid = true
        onNotice(.synced(SyncText.offerLine(offer, jumpOnStart: sync.settings?.jumpOnStart ?? false)))
    }

    /// At `play`: goes to another device's later place in the book loaded, when the listener
    /// asked for that (`sync auto-jump on`), leaving an undo point. True when it jumped.
    func jumpToSyncOfferOnStart(_ session: PlayerSession) -> Bool {
        guard sync.settings?.jumpOnStart == true, let offer = sync.offer, offer.bookId == session.book.id,
              let target = try? place(of: offer, in: session) else { return false }
        go(to: offer, at: target, in: session)
        onNotice(.synced(SyncText.jumpedLine(offer)))
        return true
    }

    /// Goes to another device's place, leaving an undo point; that place is not offered again.
    private func go(to offer: SyncExchangeReport.Move, at target: PlaybackPosition, in session: PlayerSession) {
        sync.taken = offer.claim
        sync.offer = nil
        session.jump(to: target, kind: .beforeSyncJump)
    }

    /// Where another device's place is in the session's items; nil when the book no longer has
    /// the file it was in.
    private func place(of move: SyncExchangeReport.Move, in session: PlayerSession) throws -> PlaybackPosition? {
        let media = try library.items(ofBook: session.book.id!)
        guard let mediaId = media.first(where: { $0.fingerprint == move.claim.item })?.id,
              let item = session.mediaIds.firstIndex(of: mediaId) else { return nil }
        return PlaybackPosition(item: item, frame: move.claim.frame)
    }

    /// After a pause or a stop: this device's place goes to its journal at once, and an offer
    /// kept while the book played is said. After a command that moved the place while the book
    /// is not playing (a seek, an undo, a jump), the place goes there too, as a pause's does.
    func syncAfter(_ command: PlayerCommand, placeBefore: PlaybackPosition?) {
        guard sync.isOn else { return }
        switch command {
        case .pause, .stop:
            sayOfferIfNotPlaying()
            sync.exchangeInBackground(playing: session?.book.id)
        case .toggle where session?.state != .playing:
            sayOfferIfNotPlaying()
            sync.exchangeInBackground(playing: session?.book.id)
        case .play:
            // Another book loaded: an offer for the one before no longer stands.
            if sync.offer?.bookId != session?.book.id { sync.offer = nil }
        default:
            if let session, session.state != .playing, placeBefore != nil, session.position != placeBefore {
                session.recorder.saveNow()
                sync.exchangeInBackground(playing: session.book.id)
            }
        }
    }

    /// Other devices' places in a book, as the last exchange found (for `status` and `ls`).
    public func placesElsewhere(ofBook bookId: Int64) -> [SyncBookStatus.Place] {
        sync.elsewhere[bookId]
    }
}
