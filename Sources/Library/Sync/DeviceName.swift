import Foundation

/// What a computer is called in the sync folder (`sync name laptop`): the host's name until the
/// listener gives it one. Kept in the library and written in its journal, so the other computers
/// show it; read from their journals, it is another machine's text: bounded here, and shown
/// through each front end's terminal filter like every title.
public enum DeviceName {
    /// Enough for "Anna's laptop (kitchen)"; a line of `sync status` stays readable beside a time.
    public static let maximumLength = 40

    /// The name as typed, trimmed; one line saying why when it is empty or too long.
    public static func checked(_ typed: String) throws -> String {
        let name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else {
            throw LibraryError.invalid("a computer's name cannot be empty ('sync name' alone says what this one is called)")
        }
        guard name.count <= maximumLength else {
            throw LibraryError.invalid("'\(name.prefix(maximumLength))…' is too long: a computer's name has at most \(maximumLength) characters")
        }
        return name
    }

    /// A name read from a journal, as far as it is shown: trimmed and cut to the longest a name may
    /// be (nil when nothing is left: the device's id is shown instead).
    static func read(_ text: String) -> String? {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : String(name.prefix(maximumLength))
    }
}
