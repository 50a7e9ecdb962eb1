@testable import Console
import Foundation
import Player
import Testing
import TestSupport

/// The events of an attached screen (`AttachedEvents`) against a control socket on which the
/// test plays the player: what the events' thread sends, what it hands to the screen, and that
/// closing ends its connection however far it got.
@Suite struct AttachedEventsTests {
    @Test func closedBeforeItsConnectionWasMadeItEndsThatConnectionWithoutSubscribing() async throws {
        // Given a player's socket whose queue of connections is full (its one place taken by a
        // connection not accepted yet), so that a new connect() waits
        let player = try TestPlayerSocket("closed-early")
        let waiting = try player.connectWithoutBeingAccepted()
        defer { close(waiting) }
        let (handed, inputs) = AsyncStream.makeStream(of: ConsoleInput.self)
        // When a screen's events start (their thread held in connect()) and the screen closes,
        let events = AttachedEvents(path: player.path, inputs: inputs)
        events.close()
        // and only then the player accepts: the waiting connection, then the events' one
        let first = try #require(player.accept(within: 20))
        let connection = try #require(player.accept(within: 20), "the events' thread never connected")
        defer { first.close(); connection.close() }
        // Then that connection is closed at once with nothing sent on it (no `subscribe`)
        let sent = connection.textUntilClosed(within: 20)
        #expect(sent == "", "still open after 20 s, or it sent: \(String(describing: sent))")
        // and nothing was handed to the screen (the thread ended before its connection closed)
        inputs.finish()
        var told: [String] = []
        for await input in handed { told.append("\(input)") }
        #expect(told.isEmpty, "\(told)")
    }

    @Test func subscribedItHandsOnStatusesAndLibraryChangesAndClosingEndsItsConnection() async throws {
        // Given a screen's events on a player's socket
        let player = try TestPlayerSocket("subscribed")
        let (handed, inputs) = AsyncStream.makeStream(of: ConsoleInput.self)
        let events = AttachedEvents(path: player.path, inputs: inputs)
        let connection = try #require(player.accept(within: 20), "the events' thread never connected")
        defer { connection.close() }
        // When they subscribe, and the player answers and sends a status, an engine event, a
        // change of its library and another status, as `subscribe` writes them
        #expect(connection.line(within: 20) == "subscribe")
        connection.send(#"{"errors":[],"ok":true,"output":["subscribed"]}"#)
        for update in [PlayerUpdate.changed(nil), .engine(.ended), .libraryChanged, .changed(nil)] {
            connection.send(String(decoding: RemoteEventJSON.line(update), as: UTF8.self).trimmingCharacters(in: .newlines))
        }
        // Then the screen is handed the status (nothing loaded), the library's change and the
        // status again, not the engine event
        var iterator = handed.makeAsyncIterator()
        var told: [String] = []
        while let input = await iterator.next() {
            switch input {
            case .attachedStatus(nil): told.append("status")
            case .attachedLibraryChanged: told.append("library")
            default: told.append("\(input)")
            }
            if told.filter({ $0 == "status" }).count == 2 { break } // the last line sent
        }
        #expect(told == ["status", "library", "status"])

        // When the screen closes, its connection ends with nothing more sent
        events.close()
        #expect(connection.textUntilClosed(within: 20) == "")
        // and nothing more was handed on
        inputs.finish()
        let after = await iterator.next()
        #expect(after == nil, "\(String(describing: after))")
    }
}

/// A control socket on which the test is the player: it accepts when told to, with room for one
/// connection waiting to be accepted (a second connect() waits for room), and reads and writes
/// lines on what it accepted.
final class TestPlayerSocket {
    let path: String
    private let folder: URL
    private let listening: Int32

    init(_ name: String) throws {
        folder = try BuildProducts.temporaryDirectory("attached-events-\(name)")
        path = folder.appending(path: "control").path
        listening = try UnixSocket.makeStream()
        let listening = listening
        let bound = try UnixSocket.withAddress(path) { bind(listening, $0, $1) }
        guard bound == 0, listen(listening, 0) == 0 else {
            throw ControlSocketError("cannot listen at \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(listening)
        try? FileManager.default.removeItem(at: folder)
    }

    /// A connection the player has not accepted: it takes the one place in the queue.
    func connectWithoutBeingAccepted() throws -> Int32 {
        guard case let .connected(descriptor) = try UnixSocket.connect(to: path) else {
            throw ControlSocketError("cannot connect to \(path)")
        }
        return descriptor
    }

    /// The next connection, in the order they came; nil when none came within `seconds`.
    func accept(within seconds: Double) -> Connection? {
        guard Connection.readable(listening, within: seconds) else { return nil }
        let descriptor = Glibc.accept(listening, nil, nil)
        return descriptor >= 0 ? Connection(descriptor) : nil
    }

    /// One accepted connection, read with deadlines.
    final class Connection {
        let descriptor: Int32
        private var received: [UInt8] = []
        private var isClosed = false

        init(_ descriptor: Int32) { self.descriptor = descriptor }

        func close() { Glibc.close(descriptor) }

        func send(_ line: String) {
            _ = UnixSocket.send(Data((line + "\n").utf8), to: descriptor)
        }

        /// The next line the peer sent; nil when none came within `seconds`.
        func line(within seconds: Double) -> String? {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while true {
                if let end = received.firstIndex(of: 0x0A) {
                    let line = String(decoding: received[..<end], as: UTF8.self)
                    received.removeSubrange(...end)
                    return line
                }
                guard !isClosed, readSome(until: deadline) else { return nil }
            }
        }

        /// All the peer sent until it closed the connection; nil when it was still open after `seconds`.
        func textUntilClosed(within seconds: Double) -> String? {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while !isClosed {
                guard readSome(until: deadline) else { return nil }
            }
            return String(decoding: received, as: UTF8.self)
        }

        /// Reads what came (or sees the end); false when nothing came before `deadline`.
        private func readSome(until deadline: ContinuousClock.Instant) -> Bool {
            let left = deadline - ContinuousClock.now
            guard left > .zero, Self.readable(descriptor, within: left / .seconds(1)) else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { isClosed = true } else { received += buffer[..<count] }
            return true
        }

        /// Waits in poll() for `descriptor` to have something to read (or its end).
        static func readable(_ descriptor: Int32, within seconds: Double) -> Bool {
            var wanted = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&wanted, 1, Int32(max(1, seconds * 1000))) == 1
        }
    }
}
