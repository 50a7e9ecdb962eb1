import CDBus

/// A D-Bus value of the few types MPRIS uses, written into and read from libdbus messages.
/// Equatable so that `PropertiesChanged` carries only what differs.
enum DBusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case double(Double)
    case int64(Int64)
    case strings([String])
    /// `a{sv}`, in this order.
    case dictionary([(String, DBusValue)])

    static func == (lhs: DBusValue, rhs: DBusValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)), let (.objectPath(a), .objectPath(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case let (.double(a), .double(b)): a == b
        case let (.int64(a), .int64(b)): a == b
        case let (.strings(a), .strings(b)): a == b
        case let (.dictionary(a), .dictionary(b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    /// The D-Bus signature of the value.
    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .bool: "b"
        case .double: "d"
        case .int64: "x"
        case .strings: "as"
        case .dictionary: "a{sv}"
        }
    }

    /// Appends the value (not wrapped in a variant) at `iter`.
    func append(to iter: inout DBusMessageIter) {
        switch self {
        case let .string(text): Self.appendString(text, type: abp_dbus_type_string(), to: &iter)
        case let .objectPath(path): Self.appendString(path, type: abp_dbus_type_object_path(), to: &iter)
        case let .bool(flag):
            var value = dbus_bool_t(flag ? 1 : 0)
            dbus_message_iter_append_basic(&iter, abp_dbus_type_boolean(), &value)
        case var .double(number):
            dbus_message_iter_append_basic(&iter, abp_dbus_type_double(), &number)
        case var .int64(number):
            dbus_message_iter_append_basic(&iter, abp_dbus_type_int64(), &number)
        case let .strings(texts):
            var array = DBusMessageIter()
            dbus_message_iter_open_container(&iter, abp_dbus_type_array(), "s", &array)
            for text in texts { Self.appendString(text, type: abp_dbus_type_string(), to: &array) }
            dbus_message_iter_close_container(&iter, &array)
        case let .dictionary(entries):
            Self.appendDictionary(entries, to: &iter)
        }
    }

    /// Appends the value wrapped in a variant (`v`).
    func appendVariant(to iter: inout DBusMessageIter) {
        var variant = DBusMessageIter()
        dbus_message_iter_open_container(&iter, abp_dbus_type_variant(), signature, &variant)
        append(to: &variant)
        dbus_message_iter_close_container(&iter, &variant)
    }

    /// Appends `a{sv}`.
    static func appendDictionary(_ entries: [(String, DBusValue)], to iter: inout DBusMessageIter) {
        var array = DBusMessageIter()
        dbus_message_iter_open_container(&iter, abp_dbus_type_array(), "{sv}", &array)
        for (key, value) in entries {
            var entry = DBusMessageIter()
            dbus_message_iter_open_container(&array, abp_dbus_type_dict_entry(), nil, &entry)
            appendString(key, type: abp_dbus_type_string(), to: &entry)
            value.appendVariant(to: &entry)
            dbus_message_iter_close_container(&array, &entry)
        }
        dbus_message_iter_close_container(&iter, &array)
    }

    private static func appendString(_ text: String, type: Int32, to iter: inout DBusMessageIter) {
        // libdbus copies the string; it rejects invalid UTF-8, which a Swift String never is.
        text.withCString { pointer in
            var value: UnsafePointer<CChar>? = pointer
            _ = dbus_message_iter_append_basic(&iter, type, &value)
        }
    }

    /// Reads the basic or variant value at `iter` (the types MPRIS clients send: strings,
    /// object paths, doubles, 64-bit and 32-bit integers, booleans); nil for anything else.
    static func read(_ iter: inout DBusMessageIter) -> DBusValue? {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case abp_dbus_type_string(), abp_dbus_type_object_path():
            var pointer: UnsafePointer<CChar>? = nil
            dbus_message_iter_get_basic(&iter, &pointer)
            guard let pointer else { return nil }
            let text = String(cString: pointer)
            return type == abp_dbus_type_string() ? .string(text) : .objectPath(text)
        case abp_dbus_type_double():
            var number = 0.0
            dbus_message_iter_get_basic(&iter, &number)
            return .double(number)
        case abp_dbus_type_int64():
            var number: Int64 = 0
            dbus_message_iter_get_basic(&iter, &number)
            return .int64(number)
        case abp_dbus_type_int32():
            var number: Int32 = 0
            dbus_message_iter_get_basic(&iter, &number)
            return .int64(Int64(number))
        case abp_dbus_type_boolean():
            var flag: dbus_bool_t = 0
            dbus_message_iter_get_basic(&iter, &flag)
            return .bool(flag != 0)
        case abp_dbus_type_variant():
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            return read(&inner)
        default:
            return nil
        }
    }

    /// The value as a number (a client may send an integer where a double is meant).
    var number: Double? {
        switch self {
        case let .double(value): value
        case let .int64(value): Double(value)
        default: nil
        }
    }
}
