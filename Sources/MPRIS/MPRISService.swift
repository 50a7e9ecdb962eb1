public import Player
import CDBus
import Foundation
import Synchronization
import StandardStreams

/// MPRIS2 on the session bus: media keys, desktop widgets and `playerctl` see and drive the
/// player. Methods and property writes become the player's own typed commands (`PlayerRequest`);
/// properties are read from `PlayerBroadcast.current`, and its events become
/// `PropertiesChanged` and `Seeked` signals.
///
/// One thread of its own owns the bus connection and sleeps in `poll` on two descriptors: the
/// bus socket and an eventfd that other threads ring when they leave work (a player event, a
/// command's reply). libdbus's `read_write_dispatch` with a timeout would wake up for nothing
/// every timeout and could not send a reply the moment the player gives it.
public final class MPRISService: Sendable {
    /// The well-known name taken: `org.mpris.MediaPlayer2.abplayer`, or with `.instance<pid>`
    /// when another abplayer has it (the spec's way for a second instance).
    public let busName: String
    private let mailbox: Mailbox
    private let finished = DispatchSemaphore(value: 0)
    /// Forwards the player's events to the MPRIS thread; cancelled at `stop`.
    private let forwarding = Mutex<Task<Void, Never>?>(nil)
    private let stopped = Mutex(false)

    private init(busName: String, mailbox: Mailbox) {
        self.busName = busName
        self.mailbox = mailbox
    }

    /// Connects to the session bus and serves MPRIS for the player observed through `broadcast`
    /// and driven through `submit` (false: the player is closing) until `stop`. Nil when there
    /// is no bus: it says so in one line on standard error, and the player works on without MPRIS.
    /// `mimeTypes`: what the loaded decoders read, for `SupportedMimeTypes`.
    public static func start(broadcast: PlayerBroadcast, mimeTypes: [String] = [],
                             submit: @escaping @Sendable (PlayerRequest) -> Bool) -> MPRISService? {
        do {
            let bus = try BusConnection.openSession()
            let name: String
            let socket: Int32
            let mailbox: Mailbox
            do {
                name = try takeName(on: bus)
                guard let descriptor = bus.fileDescriptor else { throw BusError(description: "the bus connection has no socket") }
                socket = descriptor
                mailbox = try Mailbox()
            } catch {
                bus.close()
                throw error
            }
            let service = MPRISService(busName: name, mailbox: mailbox)
            broadcast.askForCoverFiles()
            let events = broadcast.subscribe()
            service.forwarding.withLock { task in
                task = Task.detached {
                    for await event in events {
                        // Only what is announced: a position moving by playing (ten times a
                        // second) would wake the MPRIS thread for nothing.
                        switch event {
                        case .changed, .seeked: mailbox.post(.event(event))
                        case .position, .engine, .libraryChanged, .announcement: break
                        }
                    }
                }
            }
            let finished = service.finished
            Thread.detachNewThread {
                let object = MPRISObject(bus: bus, socket: socket, broadcast: broadcast, submit: submit, mailbox: mailbox, mimeTypes: mimeTypes)
                object.run()
                bus.close()
                finished.signal()
            }
            return service
        } catch {
            StandardStream.error.write("MPRIS is off: \(error)\n")
            return nil
        }
    }

    /// `org.mpris.MediaPlayer2.abplayer`, or the spec's `.instance<pid>` when another player has it.
    private static func takeName(on bus: BusConnection) throws(BusError) -> String {
        let base = "org.mpris.MediaPlayer2.abplayer"
        if try bus.requestName(base) { return base }
        let instance = "\(base).instance\(getpid())"
        guard try bus.requestName(instance) else { throw BusError(description: "\(instance) is taken") }
        return instance
    }

    /// Leaves the bus (the name goes with the connection) and waits until the thread is done.
    public func stop() {
        let already = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        guard !already else { return }
        forwarding.withLock { $0?.cancel() }
        mailbox.post(.stop)
        finished.wait()
    }
}

/// Work for the MPRIS thread from other threads, and the eventfd that wakes it.
final class Mailbox: Sendable {
    enum Job: Sendable {
        case event(PlayerUpdate)
        case reply(id: Int, Result<Void, PlayerError>)
        case stop
    }

    let descriptor: Int32
    private let jobs = Mutex([Job]())

    init() throws(BusError) {
        descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { throw BusError(description: "eventfd: \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }

    func post(_ job: Job) {
        jobs.withLock { $0.append(job) }
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    /// The jobs posted so far, in order; clears the wake-up.
    func take() -> [Job] {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
        return jobs.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
    }
}
