import Foundation
import Library
import Player
import PlayerCore

/// The MPRIS interfaces' names and properties, computed from the player's `Status` (nil: no
/// book loaded). Pure: the same status gives the same values, so changes are found by comparing.
enum MPRISProperties {
    static let objectPath = "/org/mpris/MediaPlayer2"
    static let root = "org.mpris.MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"
    static let properties = "org.freedesktop.DBus.Properties"
    static let minimumRate = 0.5
    static let maximumRate = 4.0
    /// The spec's "no track" id.
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// `org.mpris.MediaPlayer2`'s properties (they never change). `mimeTypes`: what the loaded
    /// decoders declare they read.
    static func rootValues(mimeTypes: [String]) -> [(String, DBusValue)] { [
        ("CanQuit", .bool(true)),
        ("CanRaise", .bool(false)), // a terminal program has no window to raise
        ("HasTrackList", .bool(false)),
        ("Identity", .string("abplayer")),
        ("SupportedUriSchemes", .strings(["file"])),
        ("SupportedMimeTypes", .strings(mimeTypes)),
    ] }

    /// `org.mpris.MediaPlayer2.Player`'s properties except Position (read on demand: the spec
    /// sends no change signal for it).
    static func playerValues(_ status: Status?) -> [(String, DBusValue)] {
        let playbackStatus = switch status?.state {
        case .playing: "Playing"
        case .paused: "Paused"
        case .stopped, .finished, nil: "Stopped"
        }
        let loaded = status != nil
        return [
            ("PlaybackStatus", .string(playbackStatus)),
            ("Rate", .double(status?.speed ?? 1)),
            ("MinimumRate", .double(minimumRate)),
            ("MaximumRate", .double(maximumRate)),
            ("Metadata", metadata(status)),
            ("Volume", .double((status?.volume ?? 100) / 100)),
            ("Shuffle", .bool(status?.shuffle ?? false)),
            ("LoopStatus", .string(loopStatus(status?.repeatMode ?? .off))),
            ("CanGoNext", .bool(status.map(hasNext) ?? false)),
            ("CanGoPrevious", .bool(loaded)),
            ("CanPlay", .bool(loaded)),
            ("CanPause", .bool(loaded)),
            ("CanSeek", .bool(loaded)),
            ("CanControl", .bool(true)),
        ]
    }

    static func values(of interface: String, _ status: Status?, mimeTypes: [String]) -> [(String, DBusValue)]? {
        switch interface {
        case root: rootValues(mimeTypes: mimeTypes)
        case player: playerValues(status) + [("Position", .int64(Track(status)?.positionMicroseconds ?? 0))]
        default: nil
        }
    }

    /// `Metadata`: the track (chapter or item), the book as album, the author as artist, the
    /// cover as a file URL.
    static func metadata(_ status: Status?) -> DBusValue {
        guard let status, let track = Track(status) else { return .dictionary([("mpris:trackid", .objectPath(noTrack))]) }
        var entries: [(String, DBusValue)] = [("mpris:trackid", .objectPath(track.id))]
        if let length = track.length { entries.append(("mpris:length", .int64(microseconds(length)))) }
        entries.append(("xesam:title", .string(track.title)))
        entries.append(("xesam:album", .string(status.book)))
        if let author = status.author { entries.append(("xesam:artist", .strings([author]))) }
        if let cover = status.cover { entries.append(("mpris:artUrl", .string(URL(fileURLWithPath: cover).absoluteString))) }
        return .dictionary(entries)
    }

    /// `LoopStatus` for the player's repeat: the spec's Track is the item playing, its Playlist
    /// the book (its track list is the book's items).
    static func loopStatus(_ mode: RepeatMode) -> String {
        switch mode {
        case .off: "None"
        case .item: "Track"
        case .book: "Playlist"
        }
    }

    /// The repeat a `LoopStatus` asks for; nil for a name the spec does not have.
    static func repeatMode(loopStatus: String) -> RepeatMode? {
        RepeatMode.allCases.first { Self.loopStatus($0) == loopStatus }
    }

    static func hasNext(_ status: Status) -> Bool {
        status.chapterCount > 0 ? (status.chapterNumber ?? 0) < status.chapterCount : status.itemNumber < status.itemCount
    }

    static func microseconds(_ seconds: Double) -> Int64 { Int64(saturating: (seconds * 1_000_000).rounded()) }
}

/// What MPRIS calls the track: the current chapter when the book has chapters (in the item
/// playing), else the item.
struct Track: Equatable {
    /// An object path naming book, item and chapter, e.g. /org/abplayer/track/b3_i2_c5.
    let id: String
    let title: String
    /// Seconds; nil when unknown.
    let length: Double?
    /// Seconds into the track.
    let position: Double
    /// Where the track starts in its item, in seconds.
    let startInItem: Double
    let itemNumber: Int

    init?(_ status: Status?) {
        guard let status else { return nil }
        itemNumber = status.itemNumber
        if let chapterStart = status.chapterStart, let chapterNumber = status.chapterNumber {
            id = "/org/abplayer/track/b\(status.bookId)_i\(status.itemNumber)_c\(chapterNumber)"
            title = status.chapter ?? status.item
            length = status.chapterDuration
            startInItem = chapterStart
        } else {
            id = "/org/abplayer/track/b\(status.bookId)_i\(status.itemNumber)"
            title = status.item
            length = status.itemDuration
            startInItem = 0
        }
        position = max(0, status.itemPosition - startInItem)
    }

    var positionMicroseconds: Int64 { MPRISProperties.microseconds(position) }
}
