import Foundation
import Library
import PlayerCore

/// `sync`: exchanges with the other devices through the sync folder, as the player plays. A book
/// not loaded takes another device's later place at once (with an undo point); the book loaded
/// is never moved under the listener: its later place elsewhere is said when it is not playing,
/// and taken when it is started again (`sync auto-jump on`, the default) or with `sync jump`.
extension PlayerSync {
    func perform(_ request: SyncRequest, session: PlayerSession?, say: (PlayerNotice) -> Void) throws -> PlayerOutcome {
        switch request {
        case .status:
            guard let settings, let folder = settings.folder else { throw PlayerError(PlayerSync.notSyncing) }
            // As many devices a book as the status shows: the others are only counted, not made seconds into the book.
            let (books, problems) = try library.sync.status(folder: folder, device: settings.device, deviceName: settings.deviceName,
                                                            devicesPerBook: SyncText.devicesShown)
            return .sync(.status(settings, books, problems: problems))
        case .now:
            var report = try exchangeNow(playing: session?.book.id)
            lastProblem = nil
            if report.newDevice != nil { deviceChanged() }
            take(&report, session: session)
            // Asked for: said even while playing (saying is not moving), and again if said before.
            if let offer = offer {
                offerSaid = true
                say(.synced(SyncText.offerLine(offer, jumpOnStart: settings?.jumpOnStart ?? false)))
            }
            return .sync(.exchanged(report))
        case let .folder(folder):
            return .sync(.folder(try setFolder(folder)))
        case let .jumpOnStart(jump):
            return .sync(.jumpOnStart(try setJumpOnStart(jump)))
        case let .name(name):
            guard let name else { return .sync(.name(try settings ?? library.sync.settings())) }
            return .sync(.name(try setName(name, playing: session?.book.id)))
        case .jump:
            guard let session else { throw PlayerError("nothing is playing: 'play BOOK' first") }
            guard let offer, offer.bookId == session.book.id else {
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
    func exchanged(_ result: Result<SyncExchangeReport, SyncProblem>, session: PlayerSession?, say: (PlayerNotice) -> Void) {
        switch result {
        case var .success(report):
            if lastProblem != nil { say(.synced("sync folder back: syncing again")) }
            lastProblem = nil
            if report.newDevice != nil { deviceChanged() }
            take(&report, session: session)
            for problem in report.problems { say(.problem("sync: \(problem)")) }
            for line in SyncText.reportLines(report) { say(.synced(line)) }
            sayOfferIfNotPlaying(session, say: say)
        case let .failure(problem):
            guard problem.text != lastProblem else { return }
            lastProblem = problem.text
            say(.problem(problem.text))
        }
    }

    /// What every exchange that worked leaves: the folder watched (again, if it had gone), the
    /// other devices' places, and the offer for the book loaded, taken out of the report (the
    /// player says it when the book is not playing, not with the report's other lines).
    private func take(_ report: inout SyncExchangeReport, session: PlayerSession?) {
        watchFolder()
        elsewhere = report.elsewhere
        takeOffer(from: &report, session: session)
        report.waiting = nil
    }

    /// Keeps the report's offer for the book loaded (none: an offer made before is gone, this
    /// device having listened later since). A move of the book loaded to another place than it
    /// loaded at is an offer too: it was loaded while the exchange ran, from the place before.
    /// (Loaded at the moved place, the move is said as any other.)
    private func takeOffer(from report: inout SyncExchangeReport, session: PlayerSession?) {
        guard let session, let loaded = session.book.id else {
            offer = nil
            return
        }
        if let index = report.moved.firstIndex(where: { $0.bookId == loaded }),
           let target = try? place(of: report.moved[index], in: session), target != session.loaded.place {
            report.waiting = report.moved.remove(at: index)
        }
        if report.waiting?.claim == taken { report.waiting = nil }
        offer = report.waiting?.bookId == loaded ? report.waiting : nil
    }

    /// Says the offer for the book loaded once, when it is not playing.
    private func sayOfferIfNotPlaying(_ session: PlayerSession?, say: (PlayerNotice) -> Void) {
        guard let offer = offer, !offerSaid, let session, session.state != .playing else { return }
        offerSaid = true
        say(.synced(SyncText.offerLine(offer, jumpOnStart: settings?.jumpOnStart ?? false)))
    }

    /// At `play`: goes to another device's later place in the book loaded, when the listener
    /// asked for that (`sync auto-jump on`), leaving an undo point. True when it jumped.
    func jumpToOfferOnStart(_ session: PlayerSession, say: (PlayerNotice) -> Void) -> Bool {
        guard settings?.jumpOnStart == true, let offer = offer, offer.bookId == session.book.id,
              let target = try? place(of: offer, in: session) else { return false }
        go(to: offer, at: target, in: session)
        say(.synced(SyncText.jumpedLine(offer)))
        return true
    }

    /// Goes to another device's place, leaving an undo point; that place is not offered again.
    private func go(to offer: SyncExchangeReport.Move, at target: PlaybackPosition, in session: PlayerSession) {
        taken = offer.claim
        self.offer = nil
        session.jump(to: target, kind: .beforeSyncJump)
    }

    /// Where another device's place is in the session's items; nil when the book no longer has
    /// the file it was in.
    private func place(of move: SyncExchangeReport.Move, in session: PlayerSession) throws -> PlaybackPosition? {
        let media = try library.books.items(ofBook: session.book.id!)
        guard let mediaId = media.first(where: { $0.fingerprint == move.claim.item })?.id,
              let item = session.mediaIds.firstIndex(of: mediaId) else { return nil }
        return PlaybackPosition(item: item, frame: move.claim.frame)
    }

    /// After a pause or a stop: this device's place goes to its journal at once, and an offer
    /// kept while the book played is said. After a command that moved the place while the book
    /// is not playing (a seek, an undo, a jump), the place goes there too, as a pause's does.
    func after(_ command: PlayerCommand, placeBefore: PlaybackPosition?, session: PlayerSession?, say: (PlayerNotice) -> Void) {
        guard isOn else { return }
        switch command {
        case .pause, .stop:
            sayOfferIfNotPlaying(session, say: say)
            exchangeInBackground(playing: session?.book.id)
        case .toggle where session?.state != .playing:
            sayOfferIfNotPlaying(session, say: say)
            exchangeInBackground(playing: session?.book.id)
        case .play:
            // Another book loaded: an offer for the one before no longer stands.
            if offer?.bookId != session?.book.id { offer = nil }
        default:
            if let session, session.state != .playing, placeBefore != nil, session.position != placeBefore {
                session.recorder.saveNow()
                exchangeInBackground(playing: session.book.id)
            }
        }
    }
}
