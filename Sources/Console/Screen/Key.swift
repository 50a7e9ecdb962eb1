/// A key pressed on the full screen, decoded from the bytes a terminal sends in raw mode.
public enum Key: Equatable, Sendable {
    case character(Character)
    case left, right, up, down
    case shiftLeft, shiftRight
    case enter
    case escape
    case tab
    /// Backspace: DEL (0x7F) from most terminals, BS (0x08) from some.
    case backspace
    case pageUp, pageDown, home, end
    /// Ctrl-C (ETX, 0x03): a key on a full screen, where the terminal makes no SIGINT of it.
    case interrupt
}

/// Turns terminal input bytes into keys. Knows the xterm/tmux forms of the arrows: `ESC [ C`,
/// `ESC O C` (application cursor mode) and with modifiers `ESC [ 1 ; 2 C` (2 = shift); of Home
/// and End: `ESC [ H`, `ESC O H`, and the VT220 `ESC [ 1 ~`, `ESC [ 7 ~` (rxvt) and `ESC [ 4 ~`,
/// `ESC [ 8 ~`; of PgUp and PgDn: `ESC [ 5 ~`, `ESC [ 6 ~`. Any other escape sequence is skipped
/// whole; bytes that are not UTF-8 are dropped. Never fails.
public struct KeyParser: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// Whether bytes wait for the rest of a sequence: the reader gives them a moment, then calls
    /// `flush()` (a lone ESC is the Esc key).
    public var isWaiting: Bool { !pending.isEmpty }

    /// The keys `bytes` complete, keeping an unfinished sequence for the next call.
    public mutating func keys(from bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(at: index, in: pending) else { break } // incomplete
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// What is left once no more bytes came: a lone ESC is Esc; a cut sequence is dropped.
    public mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : []
    }

    /// The key at `index` (nil key: ignored bytes) and how many bytes it took; nil when the bytes
    /// end before it does.
    private static func key(at index: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            guard index + 1 < bytes.count else { return nil }
            let introducer = bytes[index + 1]
            if introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") {
                return escapeSequence(at: index, in: bytes)
            }
            if introducer == 0x1B { return (.escape, 1) } // Esc pressed twice
            return (nil, 2) // Alt+key: not ours
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x03: return (.interrupt, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x20...0x7E: return (.character(Character(Unicode.Scalar(byte))), 1)
        case 0xC0...0xF7:
            // A UTF-8 character (e.g. a non-ASCII letter): its length from the lead byte.
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            guard index + length <= bytes.count else { return nil }
            let text = String(decoding: bytes[index..<index + length], as: UTF8.self)
            return (text.count == 1 && !text.contains("\u{FFFD}") ? .character(text.first!) : nil, length)
        default: return (nil, 1) // control and stray continuation bytes
        }
    }

    /// `ESC [ params final` or `ESC O final`: parameters are digits and `;`, the final byte is
    /// 0x40–0x7E.
    private static func escapeSequence(at index: Int, in bytes: [UInt8]) -> (Key?, Int)? {
        var end = index + 2
        while end < bytes.count, !(0x40...0x7E).contains(bytes[end]) {
            // Anything but a parameter or intermediate byte ends a broken sequence here.
            guard (0x20...0x3F).contains(bytes[end]) else { return (nil, end - index) }
            end += 1
        }
        guard end < bytes.count else { return nil }
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self).split(separator: ";")
        let shifted = parameters.count == 2 && parameters[1] == "2"
        let plain = parameters.isEmpty || parameters == ["1"]
        if bytes[end] == UInt8(ascii: "~") {
            // VT220 editing keys: the number says which.
            let key: Key? = switch parameters.first {
            case "1", "7": .home
            case "4", "8": .end
            case "5": .pageUp
            case "6": .pageDown
            default: nil
            }
            return (parameters.count == 1 ? key : nil, end - index + 1)
        }
        let key: Key? = switch (bytes[end], shifted, plain || shifted) {
        case (UInt8(ascii: "A"), false, true): .up
        case (UInt8(ascii: "B"), false, true): .down
        case (UInt8(ascii: "C"), false, true): .right
        case (UInt8(ascii: "D"), false, true): .left
        case (UInt8(ascii: "C"), true, _): .shiftRight
        case (UInt8(ascii: "D"), true, _): .shiftLeft
        case (UInt8(ascii: "H"), false, true): .home
        case (UInt8(ascii: "F"), false, true): .end
        default: nil
        }
        return (key, end - index + 1)
    }
}
