import CEdit
import Foundation
import StandardStreams

/// The interactive line editor: libedit (emacs keys, history, our tab completion), on a terminal
/// that moves the cursor (TERM=dumb gets `PlainLineReader`). Used only from the thread that
/// reads lines.
final class LineEditor: LineReading {
    private let editLine: OpaquePointer
    private let history: OpaquePointer
    /// Nil: no history kept (no absolute XDG_STATE_HOME or HOME).
    private let historyPath: String?
    let completer: Completer
    let notices: Notices
    /// The prompt libedit shows; kept here because the prompt callback returns a C string.
    private var prompt: [CChar] = Array("> ".utf8CString)

    init(completer: Completer, historyPath: String?, notices: Notices) {
        // (Swift 6 rejects the C stdin/stdout globals: fdopen gives the same streams.)
        // libedit reads UTF-8 only under a UTF-8 locale.
        setlocale(LC_CTYPE, "")
        self.completer = completer
        self.notices = notices
        self.historyPath = historyPath
        editLine = el_init("abplayer", fdopen(STDIN_FILENO, "r"), fdopen(STDOUT_FILENO, "w"), fdopen(STDERR_FILENO, "w"))
        history = abp_history_new(1000)
        if let historyPath { abp_history_load(history, historyPath) }
        abp_el_set_editor(editLine, "emacs")
        abp_el_set_history(editLine, history)
        abp_el_set_clientdata(editLine, Unmanaged.passUnretained(self).toOpaque())
        abp_el_set_prompt(editLine) { editLine in
            LineEditor.owner(of: editLine).prompt.withUnsafeMutableBufferPointer { $0.baseAddress }
        }
        abp_el_bind_function(editLine, "abplayer-complete", "complete a command, shelf or book", { editLine, _ in
            LineEditor.owner(of: editLine).complete()
        }, "^I")
        abp_el_bind_function(editLine, "abplayer-interrupt", "clear the line, or say how to quit", { editLine, _ in
            LineEditor.owner(of: editLine).interrupt()
        }, "^C")
        abp_el_set_getc(editLine) { editLine, character in
            LineEditor.owner(of: editLine).readCharacter(into: character!)
        }
    }

    deinit {
        el_end(editLine)
        history_end(history)
    }

    private static func owner(of editLine: OpaquePointer?) -> LineEditor {
        Unmanaged<LineEditor>.fromOpaque(abp_el_get_clientdata(editLine)!).takeUnretainedValue()
    }

    /// Shows `prompt` and reads a line; nil at the end of input (Ctrl-D). Non-empty lines go
    /// into the history, saved at once so it survives however the program ends.
    func readLine(prompt: String) -> String? {
        self.prompt = Array(prompt.utf8CString)
        var count: Int32 = 0
        notices.setEditing(true)
        let read = el_gets(editLine, &count)
        notices.setEditing(false)
        guard let raw = read, count > 0 else { return nil }
        var line = String(cString: raw)
        if line.hasSuffix("\n") { line.removeLast() }
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            abp_history_enter(history, line)
            if let historyPath { abp_history_save(history, historyPath) }
        }
        return line
    }

    /// libedit's character reader, ours so that a notice can be shown while waiting for a key:
    /// waits for the terminal or a notice; prints notices above the line and redraws it; reads
    /// one UTF-8 character as a wide character. 1 when read, 0 at the end of input, -1 on error.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        while true {
            var waiting = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: notices.wakeRead, events: Int16(POLLIN), revents: 0)]
            if poll(&waiting, 2, -1) < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if waiting[1].revents != 0 {
                showNotices()
                // Ctrl-C came as SIGINT (the terminal makes one of it): read as the key itself.
                if notices.takeInterrupt() {
                    character.pointee = 3
                    return 1
                }
            }
            if waiting[0].revents != 0 { return readUTF8Character(into: character) }
        }
    }

    private func showNotices() {
        let messages = notices.take()
        guard !messages.isEmpty else { return }
        // Back to the start of the prompt's row, clear it, write the messages, and let libedit
        // draw the prompt and the typed text again below them.
        let text = "\r\u{1B}[K" + messages.joined(separator: "\n") + "\n"
        StandardStream.output.write(text)
        abp_el_refresh(editLine)
    }

    /// Reads one character (1 to 4 bytes of UTF-8); invalid bytes become U+FFFD.
    private func readUTF8Character(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        func readByte() -> UInt8? {
            var byte: UInt8 = 0
            while true {
                let count = read(STDIN_FILENO, &byte, 1)
                if count == 1 { return byte }
                if count < 0 && errno == EINTR { continue }
                return nil
            }
        }
        guard let lead = readByte() else { return 0 }
        let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var bytes = [lead]
        while bytes.count < length, let next = readByte() { bytes.append(next) }
        let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
        character.pointee = wchar_t(bitPattern: scalar.value)
        return 1
    }

    /// Ctrl-C, as in bash and python: the line being typed is dropped; at an empty line, how to
    /// leave is said (the player goes on).
    private func interrupt() -> UInt8 {
        guard let info = el_line(editLine)?.pointee else { return UInt8(CC_ERROR) }
        let characters = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: info.lastchar - info.buffer), as: UTF8.self)
        if characters.isEmpty {
            StandardStream.output.write("^C\n(Ctrl-D or 'quit' leaves; the place is saved either way)\n")
            return UInt8(CC_REDISPLAY)
        }
        // libedit counts wide characters (Unicode scalars): to the end, then everything before.
        let afterCursor = String(decoding: UnsafeRawBufferPointer(start: info.cursor, count: info.lastchar - info.cursor), as: UTF8.self)
        el_cursor(editLine, Int32(afterCursor.unicodeScalars.count))
        el_deletestr(editLine, Int32(characters.unicodeScalars.count))
        StandardStream.output.write("^C\n")
        return UInt8(CC_REDISPLAY)
    }

    /// The tab key: replaces the word before the cursor with its completion, and lists the
    /// candidates when there are several.
    private func complete() -> UInt8 {
        guard let info = el_line(editLine)?.pointee else { return UInt8(CC_ERROR) }
        let length = info.cursor - info.buffer
        let before = String(decoding: UnsafeRawBufferPointer(start: info.buffer, count: length), as: UTF8.self)
        guard let completion = completer.complete(before) else { return UInt8(CC_ERROR) }
        if let replacement = completion.replacement {
            // libedit counts characters as wide characters: Unicode scalars.
            let word = before.dropFirst(completion.start)
            el_deletestr(editLine, Int32(word.unicodeScalars.count))
            el_insertstr(editLine, replacement)
        }
        if completion.candidates.count > 1 {
            // Candidates are titles, tag values and file names: shown visibly, like all text from files.
            let shown = completion.candidates.map { TerminalText.visible(Tokenizer.quoted($0)) }
            StandardStream.output.write("\n" + shown.joined(separator: "  ") + "\n")
            return UInt8(CC_REDISPLAY)
        }
        return UInt8(CC_REFRESH)
    }
}
