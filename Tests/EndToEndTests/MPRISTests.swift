import Foundation
import TestSupport
import Testing

/// MPRIS through the real binary: the REPL reads commands from a pipe and plays to a private
/// PulseAudio, while playerctl, busctl and dbus-monitor talk to it over a private session bus.
/// What they say is checked against the REPL's own `status --json` and the audio the server got.
@Suite struct MPRISTests {
    /// The fields of `status --json` these tests check.
    struct StatusJSON: Decodable {
        let state: String
        let itemPosition: Double
        let chapterNumber: Int?
        let volume: Double
        let speed: Double
        let repeatMode: String?
        let shuffle: Bool?
    }

    /// A 90 s time-coded Opus book "Dune" by Frank Herbert with chapters at 0, 45 and 70 s and
    /// a JPEG cover, imported into a fresh library.
    static func library(_ name: String) throws -> (AbplayerProcess, String) {
        let abplayer = try AbplayerProcess(name)
        let library = abplayer.home.appending(path: "library.sqlite").path
        let opus = try Fixtures.opus(seconds: 90, tags: ["title": "Dune", "artist": "Frank Herbert", "album": "Dune"],
                                     chapters: [FixtureChapter(startSeconds: 0, title: "Opening"),
                                                FixtureChapter(startSeconds: 45, title: "Middle"),
                                                FixtureChapter(startSeconds: 70, title: "End")],
                                     coverJPEG: try Fixtures.coverJPEG())
        let folder = abplayer.home.appending(path: "Dune")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: opus, to: folder.appending(path: "01.opus"))
        _ = try abplayer.run(["import", "--library", library, folder.path]).requireSuccess()
        return (abplayer, library)
    }

    static func status(_ repl: ReplPipeProcess) -> StatusJSON? {
        let before = repl.stdoutLines.count
        repl.send("status --json")
        guard let line = repl.waitForLine(containing: "{\"", after: before, timeout: 10) else { return nil }
        return try? JSONDecoder().decode(StatusJSON.self, from: Data(line.utf8))
    }

    /// Runs a client tool on the bus; its standard output, trimmed.
    static func client(_ tool: String, _ arguments: [String], bus: SessionBus) throws -> String {
        let result = try Command.run(tool, arguments, environment: bus.environment, timeout: 20).requireSuccess()
        return result.stdoutString.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func playerctl(_ arguments: String..., bus: SessionBus) throws -> String {
        try client("playerctl", ["-p", "abplayer"] + arguments, bus: bus)
    }

    /// Polls the REPL's status until `done` holds (the command went through the console's task).
    static func waitForStatus(_ repl: ReplPipeProcess, timeout: Double = 10, _ done: (StatusJSON) -> Bool) -> StatusJSON? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        var last: StatusJSON?
        while clock.now < deadline {
            last = status(repl)
            if let last, done(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return last
    }

    /// The seconds of the time-coded signal PulseAudio's sink played over `seconds` of its
    /// clock, after the first `skipping` seconds (audio already on its way to the sink).
    static func secondsHeard(_ server: PulseServer, seconds: Double, skipping: Double = 0) throws -> [Int] {
        let recording = try server.record()
        #expect(waitUntil(within: 30) { recording.recordedSeconds >= skipping + seconds }, "the recorder does not record")
        let recorded = try recording.finish()
        let skipped = Int(skipping * Double(recorded.rate)) * recorded.channels
        return SecondTrack(Array(recorded.samples.dropFirst(skipped)), channels: recorded.channels, rate: recorded.rate).seconds
    }

    @Test func playerctlAndBusctlDriveThePlayerAndSeeWhatItDoes() throws {
        // Given the REPL playing Dune to a private PulseAudio, on a private session bus
        let (abplayer, library) = try Self.library("mpris-drive")
        let bus = try SessionBus()
        let server = try PulseServer()
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "pulse"],
                                       environment: bus.environment.merging(server.environment) { _, new in new })
        defer { if !repl.process.hasEnded { repl.quit() } }
        repl.send("play Dune")
        #expect(repl.waitForLine(containing: "playing #") != nil, "\(repl.stderrLines)")
        try #require(bus.waitForName("org.mpris.MediaPlayer2.abplayer"), "\(repl.stderrLines)")

        // Then busctl introspects the object: both MPRIS interfaces and the standard ones
        let introspection = try Self.client("busctl", ["--user", "introspect", "org.mpris.MediaPlayer2.abplayer",
                                                       "/org/mpris/MediaPlayer2"], bus: bus)
        for name in ["org.mpris.MediaPlayer2 ", "org.mpris.MediaPlayer2.Player ", "org.freedesktop.DBus.Properties ",
                     "org.freedesktop.DBus.Introspectable ", ".PlaybackStatus ", ".Metadata ", ".Position ",
                     ".Rate ", ".Volume ", ".CanSeek ", ".Identity ", ".Seeked ", ".SetPosition "] {
            #expect(introspection.contains(name), "no \(name) in \(introspection)")
        }
        #expect(try Self.playerctl("status", bus: bus) == "Playing")

        // When playerctl pauses: the REPL says paused, and the position stays put as time passes
        _ = try Self.playerctl("play-pause", bus: bus)
        #expect(try Self.playerctl("status", bus: bus) == "Paused")
        let paused = try #require(Self.waitForStatus(repl) { $0.state == "paused" })
        #expect(paused.state == "paused")
        letRealTimePass(seconds: 1, because: "a paused player's position must stay put as time passes")
        #expect(abs((Self.status(repl)?.itemPosition ?? -1) - paused.itemPosition) < 0.05)

        // When it plays again: the position advances with the clock (two readings 1.5 s of playing
        // apart, each bracketed by the clock: the REPL answers somewhere inside the round trip)
        _ = try Self.playerctl("play-pause", bus: bus)
        let clock = ContinuousClock()
        #expect(Self.waitForStatus(repl) { $0.state == "playing" }?.state == "playing")
        let resumedAsked = clock.now
        let resumed = try #require(Self.status(repl))
        let resumedAnswered = clock.now
        #expect(Self.waitForStatus(repl, timeout: 30) { $0.itemPosition >= resumed.itemPosition + 1.5 } != nil)
        let laterAsked = clock.now
        let later = try #require(Self.status(repl))
        let laterAnswered = clock.now
        let atLeast = (laterAsked - resumedAnswered) / .seconds(1), atMost = (laterAnswered - resumedAsked) / .seconds(1)
        let advanced = later.itemPosition - resumed.itemPosition
        #expect(advanced > atLeast - 0.5 && advanced < atMost + 0.5, "moved \(advanced) s in \(atLeast)...\(atMost) s")

        // When playerctl sets the position to 30 s (in chapter 1, 0-45 s)
        _ = try Self.playerctl("position", "30", bus: bus)
        let moved = try #require(Self.waitForStatus(repl) { abs($0.itemPosition - 30) < 1 })
        // Then the REPL, playerctl and the sink agree: about 30 s, and second 30 is what plays
        #expect(abs(moved.itemPosition - 30) < 0.5, "\(moved.itemPosition)")
        let reported = Double(try Self.playerctl("position", bus: bus)) ?? -1
        #expect(reported >= 29.5 && reported <= 31.5, "playerctl position \(reported)")
        let heard = try Self.secondsHeard(server, seconds: 1.2, skipping: 0.3)
        #expect(!heard.isEmpty && heard.allSatisfy { (30...32).contains($0) }, "heard \(heard)")

        // Then metadata describes chapter 1 of the book, with the cover as a JPEG file
        #expect(try Self.playerctl("metadata", "xesam:title", bus: bus) == "Opening")
        #expect(try Self.playerctl("metadata", "xesam:album", bus: bus) == "Dune")
        #expect(try Self.playerctl("metadata", "xesam:artist", bus: bus) == "Frank Herbert")
        #expect(try Self.playerctl("metadata", "mpris:length", bus: bus) == "45000000")
        let artUrl = try Self.playerctl("metadata", "mpris:artUrl", bus: bus)
        let cover = try #require(URL(string: artUrl), "artUrl '\(artUrl)'")
        #expect(cover.isFileURL && cover.path.hasPrefix(abplayer.home.appending(path: "cache/abplayer/covers").path), "\(artUrl)")
        let coverBytes = [UInt8]((try? Data(contentsOf: cover)) ?? Data())
        #expect(coverBytes.starts(with: [0xFF, 0xD8, 0xFF]), "\(artUrl) is not a JPEG")

        // When a seek is typed at the REPL: dbus-monitor sees the Seeked signal with the new
        // position in the track
        let monitor = try BusMonitor(bus: bus, match: "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'")
        repl.send("seek 0:40")
        let seeked = monitor.waitFor("int64 ")
        monitor.stop()
        let micros = seeked.flatMap { Int64($0.split(separator: " ").last ?? "") } ?? -1
        #expect(abs(Double(micros) / 1e6 - 40) < 0.5, "Seeked: \(seeked ?? "none")")

        // When playerctl goes to the next track: chapter 2, at its start (45 s)
        _ = try Self.playerctl("next", bus: bus)
        let next = try #require(Self.waitForStatus(repl) { $0.chapterNumber == 2 })
        #expect(next.itemPosition >= 44.5 && next.itemPosition < 47, "\(next.itemPosition)")
        #expect(try Self.playerctl("metadata", "xesam:title", bus: bus) == "Middle")

        // When playerctl sets the volume to 0.5: the REPL's volume is 50%, read back as 0.5
        _ = try Self.playerctl("volume", "0.5", bus: bus)
        #expect(Self.waitForStatus(repl) { $0.volume == 50 }?.volume == 50)
        #expect(Double(try Self.playerctl("volume", bus: bus)) == 0.5)

        // When busctl sets Rate to 1.5: the REPL plays at 1.5x, and Rate reads back 1.5
        _ = try Self.client("busctl", ["--user", "set-property", "org.mpris.MediaPlayer2.abplayer", "/org/mpris/MediaPlayer2",
                                       "org.mpris.MediaPlayer2.Player", "Rate", "d", "1.5"], bus: bus)
        #expect(Self.waitForStatus(repl) { $0.speed == 1.5 }?.speed == 1.5)
        #expect(try Self.client("busctl", ["--user", "get-property", "org.mpris.MediaPlayer2.abplayer", "/org/mpris/MediaPlayer2",
                                           "org.mpris.MediaPlayer2.Player", "Rate"], bus: bus) == "d 1.5")
        #expect(repl.quit() == 0, "\(repl.stderrLines)")
    }

    @Test func playerctlShuffleAndLoopDriveShuffleAndRepeatAndSeeThePromptsChanges() throws {
        // Given the REPL playing Dune, on a private session bus
        let (abplayer, library) = try Self.library("mpris-shuffle-loop")
        let bus = try SessionBus()
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "null"], environment: bus.environment)
        defer { if !repl.process.hasEnded { repl.quit() } }
        repl.send("play Dune")
        #expect(repl.waitForLine(containing: "playing #") != nil, "\(repl.stderrLines)")
        try #require(bus.waitForName("org.mpris.MediaPlayer2.abplayer"), "\(repl.stderrLines)")

        // Then playerctl reads shuffle off and no loop, and busctl sees both properties writable
        #expect(try Self.playerctl("shuffle", bus: bus) == "Off")
        #expect(try Self.playerctl("loop", bus: bus) == "None")
        let introspection = try Self.client("busctl", ["--user", "introspect", "org.mpris.MediaPlayer2.abplayer",
                                                       "/org/mpris/MediaPlayer2"], bus: bus)
        let writable = introspection.split(separator: "\n").filter { $0.contains(".Shuffle ") || $0.contains(".LoopStatus ") }
        #expect(writable.count == 2 && writable.allSatisfy { $0.contains("writable") }, "\(introspection)")

        // When playerctl turns shuffle on, then toggles it: the player's shuffle follows
        _ = try Self.playerctl("shuffle", "On", bus: bus)
        #expect(Self.waitForStatus(repl) { $0.shuffle == true }?.shuffle == true)
        #expect(try Self.playerctl("shuffle", bus: bus) == "On")
        _ = try Self.playerctl("shuffle", "Toggle", bus: bus)
        #expect(Self.waitForStatus(repl) { $0.shuffle == false }?.shuffle == false)
        #expect(try Self.playerctl("shuffle", bus: bus) == "Off")

        // When playerctl sets each loop status: Track repeats the item, Playlist the book
        for (loop, mode) in [("Track", "item"), ("Playlist", "book"), ("None", "off")] {
            _ = try Self.playerctl("loop", loop, bus: bus)
            #expect(Self.waitForStatus(repl) { $0.repeatMode == mode }?.repeatMode == mode, "loop \(loop)")
            #expect(try Self.playerctl("loop", bus: bus) == loop)
        }

        // When a loop status MPRIS does not have is set: refused, the repeat unchanged
        let refused = try Command.run("busctl", ["--user", "set-property", "org.mpris.MediaPlayer2.abplayer", "/org/mpris/MediaPlayer2",
                                                 "org.mpris.MediaPlayer2.Player", "LoopStatus", "s", "Forever"],
                                      environment: bus.environment, timeout: 20)
        #expect(refused.status != 0 && refused.stderr.contains("LoopStatus is one of None, Track"), "\(refused.stderr)")
        #expect(try Self.playerctl("loop", bus: bus) == "None")

        // When repeat and shuffle are typed at the prompt: PropertiesChanged says so
        let monitor = try BusMonitor(bus: bus, match: "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
        repl.send("repeat book")
        #expect(monitor.waitFor("\"Playlist\"") != nil, "no LoopStatus Playlist announced")
        repl.send("shuffle on")
        #expect(monitor.waitFor("\"Shuffle\"") != nil, "no Shuffle announced")
        monitor.stop()
        #expect(try Self.playerctl("loop", bus: bus) == "Playlist")
        #expect(try Self.playerctl("shuffle", bus: bus) == "On")
        #expect(repl.quit() == 0, "\(repl.stderrLines)")
    }

    @Test func aDaemonStartsWithTheBookListenedToLastPausedAndReadyOnMPRISAndItsSocket() throws {
        // Given the book Code listened to up to 0:07 and left there, and a session bus
        let fixture = try ControlFixture("mpris-cued", seconds: 12)
        defer { fixture.cleanUp() }
        _ = try fixture.abplayer.run(["-c", "play Code; seek 0:07", "--output", "null", "--library", fixture.library]).requireSuccess()
        let bus = try SessionBus()

        // When the daemon starts on that library
        let daemon = try DaemonProcess(fixture, output: "null", environment: bus.environment)
        try #require(bus.waitForName("org.mpris.MediaPlayer2.abplayer"), "\(daemon.log)")

        // Then MPRIS shows that book paused at its place, with its metadata
        #expect(try Self.playerctl("status", bus: bus) == "Paused", "\(daemon.log)")
        #expect(try Self.playerctl("metadata", "xesam:album", bus: bus) == "Code")
        #expect(Double(try Self.playerctl("position", bus: bus)) == 7)
        // and a client of its socket sees the same, and nothing plays while it waits
        let status = try fixture.status()
        #expect(status.book == "Code" && status.state == "paused" && status.itemPosition == 7, "\(status)")
        #expect(try fixture.status(within: 1, until: { $0.itemPosition != 7 }) == nil)

        // When Play comes from MPRIS (a media key), then it plays on from there
        _ = try Self.playerctl("play", bus: bus)
        let playing = try fixture.status(within: 20) { $0.state == "playing" && $0.itemPosition > 7 }
        #expect(playing != nil, "\(daemon.log)")
        #expect(try Self.playerctl("status", bus: bus) == "Playing")
        #expect(daemon.stop() == 0, "\(daemon.log)")
    }

    @Test func withoutABusMPRISIsOffInOneLineAndTheREPLPlays() throws {
        // Given no session bus where the address points
        let (abplayer, library) = try Self.library("mpris-nobus")
        let repl = try ReplPipeProcess(abplayer, arguments: ["--library", library, "--output", "null"],
                                       environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/abplayer-bus"])
        // When the REPL plays a book
        repl.send("play Dune")
        let playing = repl.waitForLine(containing: "playing #")
        let status = Self.status(repl)
        let exit = repl.quit()
        // Then it played and quit cleanly, and standard error said only that MPRIS is off
        #expect(playing != nil)
        #expect(status?.state == "playing")
        #expect(exit == 0)
        #expect(repl.stderrLines.filter { !$0.isEmpty }.count == 1, "\(repl.stderrLines)")
        #expect(repl.stderrLines.first?.hasPrefix("MPRIS is off: ") == true, "\(repl.stderrLines)")
    }

    @Test func aSecondPlayerOnTheBusTakesAnInstanceName() throws {
        // Given one REPL holding org.mpris.MediaPlayer2.abplayer
        let (abplayer, library) = try Self.library("mpris-second")
        let bus = try SessionBus()
        let first = try ReplPipeProcess(abplayer, arguments: ["--library", library], environment: bus.environment)
        try #require(bus.waitForName("org.mpris.MediaPlayer2.abplayer"))
        // When a second one starts on the same bus, with a library of its own (on the same
        // library it would be a client of the first)
        let (otherPlayer, otherLibrary) = try Self.library("mpris-second-other")
        let second = try ReplPipeProcess(otherPlayer, arguments: ["--library", otherLibrary], environment: bus.environment)
        let instance = "org.mpris.MediaPlayer2.abplayer.instance\(second.process.processIdentifier)"
        // Then it takes the spec's instance name, and both answer
        #expect(bus.waitForName(instance))
        #expect(try Self.client("busctl", ["--user", "get-property", instance, "/org/mpris/MediaPlayer2",
                                           "org.mpris.MediaPlayer2", "Identity"], bus: bus) == "s \"abplayer\"")
        // and the MIME types offered are the loaded decoders' (from their descriptors)
        let mimeTypes = try Self.client("busctl", ["--user", "get-property", instance, "/org/mpris/MediaPlayer2",
                                                   "org.mpris.MediaPlayer2", "SupportedMimeTypes"], bus: bus)
        for type in ["audio/mpeg", "audio/mp4", "audio/ogg"] {
            #expect(mimeTypes.contains("\"\(type)\""), "\(mimeTypes)")
        }
        #expect(second.quit() == 0, "\(second.stderrLines)")
        #expect(first.quit() == 0, "\(first.stderrLines)")
    }
}

/// `dbus-monitor` on the bus in the background, its output collected to a file.
final class BusMonitor: @unchecked Sendable {
    private let process = Process()
    private let file: URL

    init(bus: SessionBus, match: String) throws {
        file = bus.directory.appending(path: "monitor-\(UUID().uuidString.prefix(6)).txt")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        process.arguments = ["--session", match]
        process.environment = ProcessInfo.processInfo.environment.merging(bus.environment) { _, new in new }
        process.standardOutput = try FileHandle(forWritingTo: file)
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Its match is in place once it is a monitor, which costs it its name: the bus tells it
        // NameLost, and it prints that.
        _ = waitFor("member=NameLost", timeout: 30)
    }

    /// The first line containing `text`, or nil after `timeout` seconds.
    func waitFor(_ text: String, timeout: Double = 10) -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while clock.now < deadline {
            let lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n")
            if let line = lines.first(where: { $0.contains(text) }) { return line.trimmingCharacters(in: .whitespaces) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }

    /// SIGKILL: children of the test runner inherit its blocked SIGTERM.
    func stop() {
        process.kill()
    }

    deinit { stop() }
}
