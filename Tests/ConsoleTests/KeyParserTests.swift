@testable import Console
import Testing

@Suite struct KeyParserTests {
    func keys(_ bytes: [UInt8]) -> [Key] {
        var parser = KeyParser()
        return parser.keys(from: bytes)
    }

    @Test func arrowsInBothCursorModesAndWithShift() {
        // Given the xterm/tmux forms of the arrows: ESC [ X, ESC O X, and ESC [ 1 ; 2 X (shift)
        let input: [UInt8] = Array("\u{1B}[A\u{1B}[B\u{1B}OC\u{1B}OD\u{1B}[1;2C\u{1B}[1;2D\u{1B}[1C".utf8)
        // Then each is one key, in order
        #expect(keys(input) == [.up, .down, .right, .left, .shiftRight, .shiftLeft, .right])
    }

    @Test func pagingKeysInTheXtermAndVT220FormsTabAndBackspace() {
        // Given PgUp/PgDn (ESC [ 5 ~, ESC [ 6 ~), Home/End as xterm sends them (ESC [ H, ESC [ F,
        // ESC O H, ESC O F) and as VT220/tmux/rxvt do (ESC [ 1 ~, ESC [ 4 ~, ESC [ 7 ~, ESC [ 8 ~)
        let input: [UInt8] = Array("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~".utf8)
        // Then each is its key
        #expect(keys(input) == [.pageUp, .pageDown, .home, .end, .home, .end, .home, .end, .home, .end])
        // and Tab, DEL and BS (both are Backspace, terminals differ) are keys, not dropped controls
        #expect(keys([0x09, 0x7F, 0x08, UInt8(ascii: "x")]) == [.tab, .backspace, .backspace, .character("x")])
        // and Ctrl-C (ETX, which raw mode without ISIG passes on) is a key of its own
        #expect(keys([0x03, UInt8(ascii: "q")]) == [.interrupt, .character("q")])
    }

    @Test func charactersEnterAndUTF8() {
        #expect(keys(Array(" q[]hC\r\n".utf8)) == [.character(" "), .character("q"), .character("["), .character("]"),
                                                    .character("h"), .character("C"), .enter, .enter])
        #expect(keys(Array("é".utf8)) == [.character("é")])
    }

    @Test func aSequenceSplitAcrossReadsIsKeptUntilItEnds() {
        // Given an arrow whose bytes arrive in three reads
        var parser = KeyParser()
        #expect(parser.keys(from: [0x1B]) == [])
        #expect(parser.isWaiting)
        #expect(parser.keys(from: Array("[1;".utf8)) == [])
        // When the rest comes, then it is one shift-arrow
        #expect(parser.keys(from: Array("2D".utf8)) == [.shiftLeft])
        #expect(!parser.isWaiting)
    }

    @Test func aLoneEscapeIsTheEscKeyOnlyWhenNothingFollows() {
        var parser = KeyParser()
        #expect(parser.keys(from: [0x1B]) == [])
        #expect(parser.flush() == [.escape])
        // A cut sequence is dropped, not misread
        #expect(parser.keys(from: Array("\u{1B}[1;".utf8)) == [])
        #expect(parser.flush() == [])
        // Esc twice: the first is Esc
        #expect(parser.keys(from: [0x1B, 0x1B, UInt8(ascii: "["), UInt8(ascii: "C")]) == [.escape, .right])
    }

    @Test func unknownSequencesAndBytesAreSkippedWhole() {
        // F5 (ESC [ 15 ~), ctrl-shift-arrow (ESC [ 1 ; 6 C), ctrl-PgUp (ESC [ 5 ; 5 ~), Alt-x,
        // control bytes, a stray UTF-8 continuation byte and an invalid lead: none is a key, and
        // what follows still is
        let input: [UInt8] = Array("\u{1B}[15~\u{1B}[1;6C\u{1B}[5;5~\u{1B}x".utf8) + [0x01, 0x80, 0xFF, 0xC3, 0x28] + Array("q".utf8)
        #expect(keys(input) == [.character("q")])
    }

    @Test func randomBytesNeverCrash() {
        var generator = SystemRandomNumberGenerator()
        var parser = KeyParser()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...8, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = parser.keys(from: bytes)
            if Bool.random(using: &generator) { _ = parser.flush() }
        }
        // Still in step afterwards
        _ = parser.flush()
        #expect(parser.keys(from: Array("\u{1B}[D".utf8)) == [.left])
    }
}
