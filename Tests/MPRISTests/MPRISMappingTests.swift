import Player
import PlayerCore
import Foundation
import FoundationXML
@testable import MPRIS
import Testing

/// How the player's status becomes MPRIS properties, and MPRIS calls become the player's commands.
struct MPRISMappingTests {
    /// A status as `status --json` prints it: item 2 of 3, in chapter 4 of 6 which starts 60 s
    /// into the item and lasts 120 s, 90 s into the item.
    static func status(chapters: Bool = true, state: String = "playing") throws -> Status {
        let json = """
            {"book":"Dune","author":"Frank Herbert","bookId":7,"item":"Part 2","itemNumber":2,"itemCount":3,
             "chapter":\(chapters ? "\"Arrakis\"" : "null"),"chapterNumber":\(chapters ? "4" : "null"),
             "chapterCount":\(chapters ? 6 : 0),"chapterStart":\(chapters ? "60" : "null"),
             "chapterDuration":\(chapters ? "120" : "null"),"itemPosition":90,"itemDuration":600,
             "bookPosition":690,"bookDuration":1800,"timeLeft":1110,"speed":1.25,"volume":80,"output":"pulse",
             "state":"\(state)","sleep":null,"repeatMode":"off","shuffle":false,"queue":0,
             "cover":"/tmp/covers/7.jpg"}
            """
        return try JSONDecoder().decode(Status.self, from: Data(json.utf8))
    }

    static func value(_ name: String, in values: [(String, DBusValue)]) -> DBusValue? {
        values.first { $0.0 == name }?.1
    }

    @Test func aBookWithChaptersIsDescribedByItsChapter() throws {
        // Given a status in chapter 4
        let values = MPRISProperties.playerValues(try Self.status())

        // Then the track is the chapter: its title, its length, 30 s into it
        guard case let .dictionary(metadata) = try #require(Self.value("Metadata", in: values)) else {
            Issue.record("Metadata is not a dictionary")
            return
        }
        #expect(Self.value("mpris:trackid", in: metadata) == .objectPath("/org/abplayer/track/b7_i2_c4"))
        #expect(Self.value("mpris:length", in: metadata) == .int64(120_000_000))
        #expect(Self.value("xesam:title", in: metadata) == .string("Arrakis"))
        #expect(Self.value("xesam:album", in: metadata) == .string("Dune"))
        #expect(Self.value("xesam:artist", in: metadata) == .strings(["Frank Herbert"]))
        #expect(Self.value("mpris:artUrl", in: metadata) == .string("file:///tmp/covers/7.jpg"))
        #expect(Track(try Self.status())?.positionMicroseconds == 30_000_000)
        #expect(Self.value("PlaybackStatus", in: values) == .string("Playing"))
        #expect(Self.value("Rate", in: values) == .double(1.25))
        #expect(Self.value("Volume", in: values) == .double(0.8))
        #expect(Self.value("CanGoNext", in: values) == .bool(true))
    }

    @Test func aBookWithoutChaptersIsDescribedByItsItem() throws {
        let status = try Self.status(chapters: false, state: "paused")
        let values = MPRISProperties.playerValues(status)
        guard case let .dictionary(metadata) = try #require(Self.value("Metadata", in: values)) else {
            Issue.record("Metadata is not a dictionary")
            return
        }
        #expect(Self.value("mpris:trackid", in: metadata) == .objectPath("/org/abplayer/track/b7_i2"))
        #expect(Self.value("mpris:length", in: metadata) == .int64(600_000_000))
        #expect(Self.value("xesam:title", in: metadata) == .string("Part 2"))
        #expect(Track(status)?.positionMicroseconds == 90_000_000)
        #expect(Self.value("PlaybackStatus", in: values) == .string("Paused"))
        #expect(MPRISCommand(method: "Next", arguments: [], status: status) == .perform(.nextItem))
    }

    @Test func nothingLoadedIsStoppedWithNoTrack() {
        let values = MPRISProperties.playerValues(nil)
        #expect(Self.value("PlaybackStatus", in: values) == .string("Stopped"))
        #expect(Self.value("Metadata", in: values) == .dictionary([("mpris:trackid", .objectPath(MPRISProperties.noTrack))]))
        #expect(Self.value("CanPlay", in: values) == .bool(false))
    }

    @Test func methodsBecomeThePlayersCommands() throws {
        let status = try Self.status()
        #expect(MPRISCommand(method: "PlayPause", arguments: [], status: status) == .perform(.toggle))
        #expect(MPRISCommand(method: "Stop", arguments: [], status: status) == .perform(.pause))
        #expect(MPRISCommand(method: "Next", arguments: [], status: status) == .perform(.chapter(.next)))
        #expect(MPRISCommand(method: "Previous", arguments: [], status: status) == .perform(.chapter(.previous)))
        #expect(MPRISCommand(method: "Seek", arguments: [.int64(-2_500_000)], status: status) == .perform(.seek(.relative(seconds: -2.5))))
        // SetPosition: within the chapter, only for the current track id, never past its end
        #expect(MPRISCommand(method: "SetPosition", arguments: [.objectPath("/org/abplayer/track/b7_i2_c4"), .int64(10_000_000)],
                             status: status) == .perform(.goto(item: 1, seconds: 70)))
        #expect(MPRISCommand(method: "SetPosition", arguments: [.objectPath("/org/abplayer/track/b7_i2_c3"), .int64(10_000_000)],
                             status: status) == .ignore)
        #expect(MPRISCommand(method: "SetPosition", arguments: [.objectPath("/org/abplayer/track/b7_i2_c4"), .int64(121_000_000)],
                             status: status) == .ignore)
        #expect(MPRISCommand(method: "Fly", arguments: [], status: status) == nil)
        // Next in the last chapter, or with nothing loaded, does nothing (CanGoNext is false)
        var last = status
        last.chapterNumber = 6
        #expect(MPRISCommand(method: "Next", arguments: [], status: last) == .ignore)
        #expect(MPRISCommand(method: "Next", arguments: [], status: nil) == .ignore)
    }

    @Test func propertyWritesAreClampedToWhatThePlayerTakes() {
        #expect(MPRISCommand(setting: "Volume", to: .double(0.5)) == .perform(.volume(percent: 50)))
        #expect(MPRISCommand(setting: "Volume", to: .double(3)) == .perform(.volume(percent: 150)))
        #expect(MPRISCommand(setting: "Rate", to: .double(1.5)) == .perform(.speed(1.5)))
        #expect(MPRISCommand(setting: "Rate", to: .double(9)) == .perform(.speed(4)))
        #expect(MPRISCommand(setting: "Rate", to: .double(0)) == .perform(.pause))
        #expect(MPRISCommand(setting: "Identity", to: .string("x")) == nil)
    }

    @Test func introspectionIsWellFormedXMLListingBothInterfaces() throws {
        let xml = try #require(Introspection.xml(for: "/org/mpris/MediaPlayer2"))
        let document = try XMLDocument(xmlString: xml)
        let interfaces = try document.nodes(forXPath: "/node/interface/@name").compactMap(\.stringValue)
        #expect(interfaces.contains("org.mpris.MediaPlayer2"))
        #expect(interfaces.contains("org.mpris.MediaPlayer2.Player"))
        #expect(Introspection.xml(for: "/org/mpris")?.contains("<node name=\"MediaPlayer2\"/>") == true)
        #expect(Introspection.xml(for: "/elsewhere") == nil)
    }
}
