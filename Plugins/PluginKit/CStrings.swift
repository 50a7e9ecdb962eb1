public import ABPluginABI

/// Writes `message` NUL-terminated into a caller's error buffer, cut at a character boundary
/// that fits. A NULL buffer or a zero size is allowed (the caller did not want the text).
public func writeError(_ message: String, to buffer: UnsafeMutablePointer<CChar>?, size: Int) {
    guard let buffer, size > 0 else { return }
    var utf8 = Array(message.utf8)
    if utf8.count > size - 1 {
        utf8.removeLast(utf8.count - (size - 1))
        // Don't leave half of a multi-byte character at the end.
        while let last = utf8.last, last & 0xC0 == 0x80 { utf8.removeLast() }
        if let last = utf8.last, last >= 0xC0 { utf8.removeLast() }
    }
    for (index, byte) in utf8.enumerated() { buffer[index] = CChar(bitPattern: byte) }
    buffer[utf8.count] = 0
}

/// A C string that lives as long as the plugin is loaded (descriptors, option tables). Never
/// freed: the host loads plugins with RTLD_NODELETE, so static data outlives every use.
public func immortalCString(_ string: String) -> UnsafePointer<CChar> {
    let bytes = Array(string.utf8CString)
    let storage = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    storage.initialize(from: bytes, count: bytes.count)
    return UnsafePointer(storage)
}

/// A NULL-terminated array of immortal C strings, or nil for an empty list.
public func immortalCStringList(_ strings: [String]) -> UnsafePointer<UnsafePointer<CChar>?>? {
    guard !strings.isEmpty else { return nil }
    let storage = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: strings.count + 1)
    for (index, string) in strings.enumerated() { (storage + index).initialize(to: immortalCString(string)) }
    (storage + strings.count).initialize(to: nil)
    return UnsafePointer(storage)
}

/// A mutable error message owned by an instance, handed out through `last_error`. The pointer
/// stays valid until the next `set` (the ABI promises "until its next call").
public final class LastError {
    private var storage: [CChar] = [0]

    public init() {}

    public func set(_ message: String) { storage = Array(message.utf8CString) }

    /// Keeps `reason` and returns `status`: the failure of an op that returns a status.
    public func fail(_ status: abp_status, _ reason: String) -> abp_status {
        set(reason)
        return status
    }

    /// Keeps `reason` and returns `status` as the negative count of an op that returns frames.
    public func fail(_ status: abp_status, _ reason: String) -> Int64 {
        set(reason)
        return Int64(status.rawValue)
    }

    public var pointer: UnsafePointer<CChar> { storage.withUnsafeBufferPointer { $0.baseAddress! } }
}
