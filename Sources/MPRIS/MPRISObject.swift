import CDBus
import Player
import Foundation
import StandardStreams

/// The `/org/mpris/MediaPlayer2` object, served on the MPRIS thread: everything here runs on
/// that one thread, which alone touches the bus connection.
final class MPRISObject {
    private let bus: BusConnection
    private let socket: Int32
    private let broadcast: PlayerBroadcast
    /// Hands a request to the player's task; false when the player is closing.
    private let submit: @Sendable (PlayerRequest) -> Bool
    private let mailbox: Mailbox
    /// Method calls waiting for the player's reply, by request number (each message ref'd).
    private var waiting: [Int: MethodCall] = [:]
    private var nextRequest = 0
    /// The Player properties last announced, to send only what changed.
    private var announced: [(String, DBusValue)]
    private let mimeTypes: [String]

    init(bus: BusConnection, socket: Int32, broadcast: PlayerBroadcast,
         submit: @escaping @Sendable (PlayerRequest) -> Bool, mailbox: Mailbox, mimeTypes: [String]) {
        self.bus = bus
        self.mimeTypes = mimeTypes
        self.socket = socket
        self.broadcast = broadcast
        self.submit = submit
        self.mailbox = mailbox
        announced = MPRISProperties.playerValues(broadcast.current)
    }

    /// Serves until `.stop` or the bus goes away.
    func run() {
        defer {
            for call in waiting.values { dbus_message_unref(call.message) }
        }
        while true {
            // libdbus may already hold messages read while it flushed a reply: take them first,
            // poll would not see them.
            while let message = bus.nextMessage() {
                if let call = MethodCall(message) { handle(call) }
                dbus_message_unref(message)
            }
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: mailbox.descriptor, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
            if descriptors[0].revents != 0 {
                bus.readAvailable()
                guard bus.isConnected else {
                    StandardStream.error.write("MPRIS is off: the session bus went away\n")
                    return
                }
            }
            if descriptors[1].revents != 0 {
                for job in mailbox.take() {
                    switch job {
                    case let .event(event): announce(event)
                    case let .reply(id, reply): answer(id, reply)
                    case .stop: return
                    }
                }
            }
        }
    }

    // MARK: Calls

    private func handle(_ call: MethodCall) {
        let status = broadcast.current
        switch (call.interface, call.member) {
        case ("org.freedesktop.DBus.Introspectable", "Introspect"):
            guard let xml = Introspection.xml(for: call.path) else { return unknownObject(call) }
            call.reply(on: bus) { DBusValue.string(xml).append(to: &$0) }
        case ("org.freedesktop.DBus.Peer", "Ping"):
            call.reply(on: bus)
        case (_, _) where call.path != MPRISProperties.objectPath:
            unknownObject(call)
        case (MPRISProperties.properties, "Get"):
            guard call.arguments.count == 2, case let .string(interface) = call.arguments[0],
                  case let .string(name) = call.arguments[1] else { return invalidArguments(call) }
            guard let values = MPRISProperties.values(of: interface, status, mimeTypes: mimeTypes) else { return unknownInterface(call, interface) }
            guard let value = values.first(where: { $0.0 == name })?.1 else {
                return call.fail(on: bus, name: "org.freedesktop.DBus.Error.UnknownProperty", "no property \(name) in \(interface)")
            }
            call.reply(on: bus) { value.appendVariant(to: &$0) }
        case (MPRISProperties.properties, "GetAll"):
            guard case let .string(interface) = call.arguments.first else { return invalidArguments(call) }
            guard let values = MPRISProperties.values(of: interface, status, mimeTypes: mimeTypes) else { return unknownInterface(call, interface) }
            call.reply(on: bus) { DBusValue.appendDictionary(values, to: &$0) }
        case (MPRISProperties.properties, "Set"):
            guard call.arguments.count == 3, case let .string(interface) = call.arguments[0],
                  case let .string(name) = call.arguments[1] else { return invalidArguments(call) }
            guard interface == MPRISProperties.player, let command = MPRISCommand(setting: name, to: call.arguments[2]) else {
                return call.fail(on: bus, name: "org.freedesktop.DBus.Error.PropertyReadOnly", "\(interface).\(name) cannot be set")
            }
            perform(command, for: call)
        case (MPRISProperties.root, let method), (MPRISProperties.player, let method):
            guard let command = MPRISCommand(method: method, arguments: call.arguments, status: status) else {
                return call.fail(on: bus, name: "org.freedesktop.DBus.Error.UnknownMethod", "no method \(method) in \(call.interface)")
            }
            perform(command, for: call)
        default:
            call.fail(on: bus, name: "org.freedesktop.DBus.Error.UnknownMethod",
                      "no method \(call.member) in \(call.interface.isEmpty ? "any interface" : call.interface)")
        }
    }

    /// Hands the command to the player; the call is answered when the player replies.
    private func perform(_ command: MPRISCommand, for call: MethodCall) {
        let action: PlayerRequest.Action
        switch command {
        case .ignore: return call.reply(on: bus)
        case let .refuse(text): return call.fail(on: bus, name: "org.freedesktop.DBus.Error.InvalidArgs", text)
        case let .perform(playerCommand): action = .perform(playerCommand)
        case .quit: action = .quit
        }
        let id = nextRequest
        nextRequest += 1
        let mailbox = mailbox
        guard submit(PlayerRequest(action, reply: { mailbox.post(.reply(id: id, $0.map { _ in () })) })) else {
            return call.fail(on: bus, name: "org.freedesktop.DBus.Error.Failed", "the player is closing")
        }
        dbus_message_ref(call.message)
        waiting[id] = call
    }

    private func answer(_ id: Int, _ reply: Result<Void, PlayerError>) {
        guard let call = waiting.removeValue(forKey: id) else { return }
        defer { dbus_message_unref(call.message) }
        switch reply {
        case .success: call.reply(on: bus)
        case let .failure(error): call.fail(on: bus, name: "org.mpris.MediaPlayer2.abplayer.Error.Failed", error.description)
        }
    }

    private func invalidArguments(_ call: MethodCall) {
        call.fail(on: bus, name: "org.freedesktop.DBus.Error.InvalidArgs", "wrong arguments for \(call.interface).\(call.member)")
    }

    private func unknownInterface(_ call: MethodCall, _ interface: String) {
        call.fail(on: bus, name: "org.freedesktop.DBus.Error.UnknownInterface", "no interface \(interface) at \(call.path)")
    }

    private func unknownObject(_ call: MethodCall) {
        call.fail(on: bus, name: "org.freedesktop.DBus.Error.UnknownObject", "no object at \(call.path)")
    }

    // MARK: Signals

    /// A change becomes `PropertiesChanged` with what differs; a jump becomes `Seeked`. A
    /// position moving by playing says nothing: clients read Position when they want it.
    private func announce(_ event: PlayerUpdate) {
        switch event {
        case let .changed(status):
            let values = MPRISProperties.playerValues(status)
            let changed = values.filter { name, value in !announced.contains { $0.0 == name && $0.1 == value } }
            announced = values
            guard !changed.isEmpty else { return }
            emitSignal(on: bus, path: MPRISProperties.objectPath, interface: MPRISProperties.properties, name: "PropertiesChanged") {
                DBusValue.string(MPRISProperties.player).append(to: &$0)
                DBusValue.appendDictionary(changed, to: &$0)
                DBusValue.strings([]).append(to: &$0)
            }
        case let .seeked(status):
            let position = Track(status)?.positionMicroseconds ?? 0
            emitSignal(on: bus, path: MPRISProperties.objectPath, interface: MPRISProperties.player, name: "Seeked") {
                DBusValue.int64(position).append(to: &$0)
            }
        case .position, .engine, .libraryChanged, .announcement:
            break // not forwarded (see MPRISService.start)
        }
    }
}
