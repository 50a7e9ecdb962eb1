import Foundation
import TestSupport
import Testing

extension OutputTests.ControlSocketTests {
    /// Nothing clients do closes the socket for the others: running out of descriptors, more
    /// clients than it serves at once, a thousand connections come and gone, silent clients.
    @Test func runningOutOfDescriptorsAndAThousandConnectionsLeaveTheSocketAnswering() throws {
        // Given a daemon allowed few open files (its own use plus about 20 clients)
        let fixture = try ControlFixture("control-limits")
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null", fileLimit: 64)
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let socket = try #require(fixture.socketPath())
        let inUse = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/fd").count
        #expect(inUse < 50, "the daemon holds \(inUse) files before any client")

        // When 60 clients connect at once (more than its descriptors allow) and then all leave
        var crowd: [RawSocketClient] = []
        for _ in 0..<60 { crowd.append(try RawSocketClient(path: socket)) }
        crowd.removeAll()

        // Then it answers again (it used to close its socket on EMFILE, for good)
        let deadline = ContinuousClock.now + .seconds(20)
        var answered = false
        while !answered && ContinuousClock.now < deadline {
            answered = (try? fixture.remote(["help"]))?.status == 0
        }
        #expect(answered, "\(daemon.log)")

        // When 1,200 connections come one after another, each asking once
        var replies = 0
        for _ in 0..<1200 {
            let client = try RawSocketClient(path: socket)
            if client.request("help")?.ok == true { replies += 1 }
        }
        // Then every one was answered, and the daemon holds no more files than before
        #expect(replies == 1200)
        let closedDeadline = ContinuousClock.now + .seconds(10)
        var holding = Int.max
        while holding > inUse && ContinuousClock.now < closedDeadline {
            holding = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/fd").count) ?? 0
        }
        #expect(holding <= inUse, "\(holding) files open after the clients left, \(inUse) before")
        #expect(daemon.stop(SIGTERM) == 0, "\(daemon.log)")
    }

    @Test func oneClientTooManyIsToldSoAndASilentOneIsClosed() throws {
        // Given a daemon with its usual idle time (10 minutes: none of its clients is closed for
        // silence while this part runs, however long a loaded machine takes to serve them)
        let fixture = try ControlFixture("control-cap")
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null")
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let socket = try #require(fixture.socketPath())

        // When 64 clients are connected and served, and a 65th comes
        var served: [RawSocketClient] = []
        for _ in 0..<64 {
            let client = try RawSocketClient(path: socket)
            #expect(client.request("help")?.ok == true)
            served.append(client)
        }
        let extra = try RawSocketClient(path: socket)
        // Then the 65th is told why in one reply and closed
        let refusal = try #require(extra.readLine())
        #expect(refusal.contains("too many connections (64 at once)"), "\(refusal)")
        #expect(extra.readLine() == nil)
        // and once one of the 64 leaves, a new client is served
        served.removeFirst()
        #expect(answersSoon(socket), "\(daemon.log)")
        #expect(daemon.stop(SIGTERM) == 0, "\(daemon.log)")

        // Given a daemon that closes command connections silent for 2 s, full with 64 silent clients
        let idle = try DaemonProcess(fixture, output: "null", environment: ["ABPLAYER_CONTROL_IDLE_SECONDS": "2"])
        #expect(idle.waitForSocket(fixture.socketPath), "\(idle.log)")
        let clock = ContinuousClock()
        let start = clock.now
        let silent = try (0..<64).map { _ in try RawSocketClient(path: socket) }
        // When they stay silent past the idle time
        // Then the player closes them (the first no sooner than 2 s after it connected), and a
        // new client is served
        #expect(silent[0].readLine() == nil)
        let waited = clock.now - start
        #expect(waited > .seconds(1.9) && waited < .seconds(15), "closed after \(waited)")
        #expect(answersSoon(socket), "\(idle.log)")
        #expect(idle.stop(SIGTERM) == 0, "\(idle.log)")
    }

    /// Whether a new client is served within 10 s (the daemon frees a slot when it sees a
    /// connection go, a moment after the client closed it).
    private func answersSoon(_ socket: String) -> Bool {
        waitUntil(within: 10) { (try? RawSocketClient(path: socket))?.request("help")?.ok == true }
    }

    @Test func aLineOverTheCapIsRefusedHoweverItArrivesAndItsConnectionClosed() throws {
        // Given a daemon (closing silent connections after 10 s: a connection left open is then
        // seen, not waited for)
        let fixture = try ControlFixture("control-line-cap", seconds: 4)
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null", environment: ["ABPLAYER_CONTROL_IDLE_SECONDS": "10"])
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let socket = try #require(fixture.socketPath())
        /// `help` padded with spaces to `length` bytes before its newline.
        func help(_ length: Int) -> [UInt8] { Array("help".utf8) + Array(repeating: UInt8(ascii: " "), count: length - 4) + [0x0a] }

        // When a line of exactly the cap comes
        let exact = try RawSocketClient(path: socket)
        exact.send(help(16384))
        // Then it is run
        let served = exact.readLine().flatMap { try? JSONDecoder().decode(ReplyJSON.self, from: Data($0.utf8)) }
        #expect(served?.ok == true, "\(String(describing: served))")

        // When lines one byte over it (at once, and in pieces across the 4 KiB reads) and of 20 KiB come
        for (length, pieces) in [(16385, [16386]), (16385, [1, 4095, 4097, 8193]), (20 * 1024, [20 * 1024 + 1])] {
            let client = try RawSocketClient(path: socket)
            var line = help(length)[...]
            for size in pieces {
                client.send(Array(line.prefix(size)))
                line = line.dropFirst(size)
            }
            // Then each gets one error reply, and its connection is closed
            let reply = client.readLine()
            #expect(reply?.contains("\"ok\":false") == true && reply?.contains("longer than 16384 bytes") == true,
                    "\(length) bytes in \(pieces): \(reply ?? "nil")")
            #expect(client.readLine() == nil, "\(length) bytes in \(pieces): not closed")
        }
        #expect(daemon.stop(SIGTERM) == 0, "\(daemon.log)")
    }

    @Test func clientsDribblingALineAreClosedAtTheLineDeadlineAndTheSlotsFreed() throws {
        // Given a daemon that gives a line 2 s from its first byte (the idle timeout left at 10 minutes)
        let fixture = try ControlFixture("control-dribble", seconds: 4)
        defer { fixture.cleanUp() }
        let daemon = try DaemonProcess(fixture, output: "null", environment: ["ABPLAYER_CONTROL_LINE_SECONDS": "2"])
        #expect(daemon.waitForSocket(fixture.socketPath), "\(daemon.log)")
        let socket = try #require(fixture.socketPath())

        // When as many clients as it serves each send a byte every 200 ms, never a newline
        let clients = try (0..<64).map { _ in try RawSocketClient(path: socket) }
        var dribbling = Set(clients.indices)
        var replies: [String] = []
        let clock = ContinuousClock()
        let start = clock.now
        while !dribbling.isEmpty && clock.now < start + .seconds(30) {
            let open = dribbling.sorted()
            for index in open { clients[index].send([UInt8(ascii: "h")]) }
            var waits = open.map { pollfd(fd: clients[$0].descriptor, events: Int16(POLLIN), revents: 0) }
            guard poll(&waits, nfds_t(waits.count), 200) > 0 else { continue }
            for (index, wait) in zip(open, waits) where wait.revents != 0 {
                // Then each is told why, and closed
                replies.append(clients[index].readLine() ?? "closed without a reply")
                #expect(clients[index].readLine() == nil)
                dribbling.remove(index)
            }
        }
        let waited = clock.now - start
        #expect(dribbling.isEmpty, "\(dribbling.count) clients still connected after \(waited)")
        #expect(waited > .seconds(1), "closed after \(waited)")
        #expect(replies.allSatisfy { $0.contains("not finished within 2 s") }, "\(Set(replies))")

        // And a new client is served
        #expect(answersSoon(socket), "\(daemon.log)")
        #expect(daemon.stop(SIGTERM) == 0, "\(daemon.log)")
    }
}
