import CDBus
import Foundation
import LazyLibraries

/// Why there is no MPRIS: the bus could not be reached or the name not taken.
struct BusError: Error, CustomStringConvertible {
    let description: String
}

/// A private connection to the session bus through libdbus. After `open` it is used by one
/// thread only (the MPRIS thread), so libdbus's own locking is never relied upon.
final class BusConnection: @unchecked Sendable {
    private let raw: OpaquePointer

    private init(raw: OpaquePointer) {
        self.raw = raw
    }

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`).
    static func openSession() throws(BusError) -> BusConnection {
        // libdbus is loaded here, the first time, not at start-up (see LazyLibraries).
        guard abp_dbus_load() else { throw BusError(description: String(cString: abp_dbus_load_error())) }
        var error = DBusError()
        dbus_error_init(&error)
        // Private: ours to close, never shared with another library in the process.
        guard let raw = dbus_bus_get_private(DBUS_BUS_SESSION, &error) else {
            let reason = take(&error) ?? "no session bus"
            // Unset, libdbus tries $XDG_RUNTIME_DIR/bus and then X11 autolaunch, and reports
            // only the last ("Unable to autolaunch a dbus-daemon without a $DISPLAY for X11").
            let address = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
            throw BusError(description: address.isEmpty ? "no session bus (DBUS_SESSION_BUS_ADDRESS is not set)" : reason)
        }
        // libdbus's default is to _exit the process when the bus goes away.
        dbus_connection_set_exit_on_disconnect(raw, 0)
        return BusConnection(raw: raw)
    }

    /// Takes `name`; false when another connection owns it (we do not queue for it).
    func requestName(_ name: String) throws(BusError) -> Bool {
        var error = DBusError()
        dbus_error_init(&error)
        let result = dbus_bus_request_name(raw, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
        if let message = Self.take(&error) { throw BusError(description: "cannot take \(name): \(message)") }
        return result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
    }

    /// The socket to poll for incoming messages.
    var fileDescriptor: Int32? {
        var descriptor: Int32 = -1
        return dbus_connection_get_unix_fd(raw, &descriptor) != 0 ? descriptor : nil
    }

    var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// Reads what the socket has without blocking (call when poll says it is readable).
    func readAvailable() {
        dbus_connection_read_write(raw, 0)
    }

    /// The next message already read, if any; the caller unrefs it.
    func nextMessage() -> OpaquePointer? {
        dbus_connection_pop_message(raw)
    }

    /// Sends `message` (taking no ownership) and waits until it is written: the bus is a
    /// local socket, and a signal or reply left in libdbus's queue would wait for the next poll.
    func send(_ message: OpaquePointer) {
        dbus_connection_send(raw, message, nil)
        dbus_connection_flush(raw)
    }

    func close() {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    private static func take(_ error: inout DBusError) -> String? {
        guard dbus_error_is_set(&error) != 0 else { return nil }
        defer { dbus_error_free(&error) }
        return error.message.map { String(cString: $0) } ?? error.name.map { String(cString: $0) }
    }
}

/// A method call read from the bus, with its arguments; answer it once with `reply` or `fail`.
struct MethodCall {
    let message: OpaquePointer
    let path: String
    let interface: String
    let member: String
    let arguments: [DBusValue]

    /// Nil when `message` is not a method call.
    init?(_ message: OpaquePointer) {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL else { return nil }
        self.message = message
        path = dbus_message_get_path(message).map { String(cString: $0) } ?? ""
        interface = dbus_message_get_interface(message).map { String(cString: $0) } ?? ""
        member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        var arguments: [DBusValue] = []
        var iter = DBusMessageIter()
        if dbus_message_iter_init(message, &iter) != 0 {
            repeat {
                // A type we do not read still takes its place, so positions stay right.
                arguments.append(DBusValue.read(&iter) ?? .strings([]))
            } while dbus_message_iter_next(&iter) != 0
        }
        self.arguments = arguments
    }

    var wantsReply: Bool { dbus_message_get_no_reply(message) == 0 }

    /// A method return whose arguments `body` appends (none by default).
    func reply(on bus: BusConnection, _ body: (inout DBusMessageIter) -> Void = { _ in }) {
        guard wantsReply, let reply = dbus_message_new_method_return(message) else { return }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(reply, &iter)
        body(&iter)
        bus.send(reply)
        dbus_message_unref(reply)
    }

    func fail(on bus: BusConnection, name: String, _ text: String) {
        guard wantsReply, let reply = dbus_message_new_error(message, name, text) else { return }
        bus.send(reply)
        dbus_message_unref(reply)
    }
}

/// Builds and sends a signal from the MPRIS object.
func emitSignal(on bus: BusConnection, path: String, interface: String, name: String,
                _ body: (inout DBusMessageIter) -> Void) {
    guard let signal = dbus_message_new_signal(path, interface, name) else { return }
    var iter = DBusMessageIter()
    dbus_message_iter_init_append(signal, &iter)
    body(&iter)
    bus.send(signal)
    dbus_message_unref(signal)
}
