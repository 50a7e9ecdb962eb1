@testable import Console
import Foundation
import Player
import Testing

/// The one scheme by which text from files is shown on a terminal (Sources/Console/TerminalText.swift).
@Suite struct TerminalTextTests {
    @Test func controlsAndBidiOverridesAreShownAsASCIIEscapes() {
        // Given a title that retitles the window, rings the bell, turns red, clears the screen
        // with a C1 CSI, reverses what follows and forges a line
        let title = "A\u{1B}]0;X\u{07}\u{1B}[31mB\u{9B}2J\u{202E}C\u{2069}\nD\r\tE\u{7F}\u{0}"
        // Then one line shows each control by its escape, in ASCII
        #expect(TerminalText.visible(title) == #"A\e]0;X\x07\e[31mB\u009B2J\u202EC\u2069\nD\r\tE\x7F\x00"#)
        // and text of several lines keeps its own newlines and tabs, and nothing else
        #expect(TerminalText.lines("a\tb\u{1B}[2J\nc") == "a\tb\\e[2J\nc")
        // and ordinary text, wide or combining or right-to-left by nature, is left alone
        for clean in ["Братья Карамазовы", "吾輩は猫である", "e\u{301}", "שלום", "back\\slash"] {
            #expect(TerminalText.visible(clean) == clean)
        }
    }

    @Test func aScreenLineIsMeasuredAfterItIsMadeVisible() throws {
        // Given the UTF-8 character type the REPL sets at start, and a hostile title
        setlocale(LC_CTYPE, "C.UTF-8")
        let title = "\u{1B}]0;PWNED\u{07}\u{1B}[31mRed\nTitle"
        // When cut to 12 cells, the visible form is what is cut: 11 cells and the ellipsis
        let cut = TextFit.truncate(title, to: 12)
        #expect(cut == #"\e]0;PWNED\…"#)
        #expect(TextFit.cells(cut) == 12)
        // and the player screen's lines hold no control character from the file
        var status = try PlayerScreenLayoutTests.status(title: "Book")
        status.book = title
        status.chapter = "Ch\u{1B}[2J\u{202E}"
        let lines = PlayerScreenLayout(status: status).lines(size: ScreenSize(columns: 80, rows: 30), style: PlayerScreenLayoutTests.monochrome)
        #expect(lines.allSatisfy { TextFit.cells($0) <= 80 && !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E } }, "\(lines)")
        #expect(lines.contains { $0.contains(#"chapter 5/40: Ch\e[2J\u202E"#) }, "\(lines)")
    }
}
