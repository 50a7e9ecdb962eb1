import Library

/// Splits what the user typed into commands and words, shell-like: spaces separate words,
/// "double" and 'single' quotes keep spaces (and apostrophes inside double quotes), a backslash
/// takes the next character literally (inside double quotes only before `"` and `\`), and an
/// unquoted `;` ends a command. Works on Characters, so any Unicode passes through unchanged.
/// (Written by hand: a dozen lines of state, and completion needs the partial state too.)
public enum Tokenizer {
    /// A word as typed: its value with the quoting removed, and where it starts in the line.
    public struct Word: Equatable, Sendable {
        public var value: String
        /// Offset (in Characters) of the word's first character, quote included.
        public var start: Int
    }

    /// Everything found in a line, including an unfinished quote (for completion).
    public struct Scan: Equatable, Sendable {
        public var commands: [[Word]]
        /// The quote still open at the end of the line.
        public var openQuote: Character?
        public var danglingBackslash: Bool
        /// True when the line ends inside a word (no space after it).
        public var endsInWord: Bool
    }

    public struct Failure: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// How far a bookmark's note reaches.
    public enum NoteExtent: Sendable {
        /// The rest of the line as typed, `;` included: at the prompt, where a note is prose.
        case restOfLine
        /// Its command's words, to the next unquoted `;`, as any command's (a `-c` script, a
        /// socket line: `bookmark first; seek 0:50` is two commands); a quoted note keeps its `;`.
        case command
    }

    /// The commands of a complete line, each as its words; empty commands are dropped.
    public static func commands(in line: String, notes: NoteExtent = .restOfLine) throws(Failure) -> [[String]] {
        let scan = scan(line)
        if notes == .restOfLine, let noted = bookmarkWithNote(line, scan) { return noted }
        if let quote = scan.openQuote {
            throw Failure(description: "unfinished quote: close the \(quote) that was opened")
        }
        if scan.danglingBackslash {
            throw Failure(description: "the line ends with a backslash: write \\\\ for a backslash")
        }
        return scan.commands.map { $0.map(\.value) }.filter { !$0.isEmpty }
    }

    /// `bookmark NOTE`: a note is prose, so it is the rest of the line as typed (an apostrophe,
    /// quotes or a `;` in it are the note's), not words. A note that is one quoted word is that
    /// word (`bookmark "the duel"`). Nil when the line has no such command.
    ///
    /// `bookmark rm N` and `bookmark note N [TEXT]` (N a bookmark number: 3, a3) are commands,
    /// not notes; their TEXT is a note like any other. A note that starts like them is quoted
    /// (`bookmark "rm 3"`) or follows `--` (`bookmark -- rm 3 times`), which always starts a note.
    static func bookmarkWithNote(_ line: String, _ scan: Scan) -> [[String]]? {
        let characters = Array(line)
        for (index, command) in scan.commands.enumerated() {
            guard command.count > 1, let first = command.first, first.value == "bookmark",
                  String(characters[first.start...].prefix(8)) == "bookmark" else { continue }
            let before = scan.commands[..<index].map { $0.map(\.value) }.filter { !$0.isEmpty }
            /// The rest of the line from word `from`, as typed.
            func note(from word: Int) -> String {
                var note = characters[command[word].start...]
                while note.last?.isWhitespace == true { note.removeLast() }
                let rest = String(note)
                let oneQuotedWord = command.count == word + 1 && scan.commands.count == index + 1 && scan.openQuote == nil
                    && !scan.danglingBackslash && (rest.first == "\"" || rest.first == "'") && rest.last == rest.first
                return oneQuotedWord ? command[word].value : rest
            }
            let isNumber = { (word: Int) in command.count > word && BookmarkNumber(command[word].value) != nil }
            // Plain words only: a quoted "rm" is the start of a note.
            let plain = { (word: Int, text: String) in command[word].value == text && characters[command[word].start] == text.first }
            // Without a note, these are plain words and a `;` after them starts the next command.
            if command.count == 3, plain(1, "rm") || plain(1, "note"), isNumber(2) { continue }
            if command.count == 2, plain(1, "--") { continue }
            if plain(1, "note"), isNumber(2) {
                return before + [["bookmark", "note", command[2].value, note(from: 3)]]
            }
            if plain(1, "--") {
                return before + [["bookmark", "--", note(from: 2)]]
            }
            return before + [["bookmark", note(from: 1)]]
        }
        return nil
    }

    /// A line that a `.command` reading splits into exactly `commands`: each word in double
    /// quotes (a client that read the line at its prompt sends it on this way to the player,
    /// which reads socket lines so).
    public static func line(quoting commands: [[String]]) -> String {
        commands.map { words in
            words.map { word in
                var quoted = "\""
                for character in word {
                    if character == "\"" || character == "\\" { quoted.append("\\") }
                    quoted.append(character)
                }
                return quoted + "\""
            }.joined(separator: " ")
        }.joined(separator: "; ")
    }

    public static func scan(_ line: String) -> Scan {
        var commands: [[Word]] = [[]]
        var word: Word?
        var quote: Character?
        var escaped = false
        func finishWord() {
            if let done = word { commands[commands.count - 1].append(done) }
            word = nil
        }
        for (offset, character) in line.enumerated() {
            if escaped {
                word!.value.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case (nil, "\\"):
                if word == nil { word = Word(value: "", start: offset) }
                escaped = true
            case (nil, "\"" ), (nil, "'"):
                if word == nil { word = Word(value: "", start: offset) }
                quote = character
            case (nil, ";"):
                finishWord()
                commands.append([])
            case (nil, _) where character.isWhitespace:
                finishWord()
            case (nil, _):
                if word == nil { word = Word(value: "", start: offset) }
                word!.value.append(character)
            case ("\"", "\\"):
                // Only \" and \\ are escapes inside double quotes; see the next character.
                let rest = line.dropFirst(offset + 1).first
                if rest == "\"" || rest == "\\" { escaped = true } else { word!.value.append(character) }
            case let (open?, _) where character == open:
                quote = nil
            case (_?, _):
                word!.value.append(character)
            }
        }
        let endsInWord = word != nil
        finishWord()
        return Scan(commands: commands, openQuote: quote, danglingBackslash: escaped, endsInWord: endsInWord)
    }

    /// `name` written so that `scan` gives it back as one word: as is when plain, else in double
    /// quotes (apostrophes are fine there), with `"` and `\` escaped.
    public static func quoted(_ name: String) -> String {
        let special: Set<Character> = [" ", "\t", "\"", "'", "\\", ";"]
        guard name.isEmpty || name.contains(where: { special.contains($0) || $0.isWhitespace }) else { return name }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }
}
