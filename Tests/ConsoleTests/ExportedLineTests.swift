@testable import Console
import Foundation
import Library
import Testing

/// What `bookmarks export` says it wrote (at the prompt and from the shell alike).
@Suite struct ExportedLineTests {
    @Test func anExportSaysHowManyItWroteAndWhatItsFormatLeftOut() {
        // Given two bookmarks, the second in a file after one whose length is not known yet
        let entries = [BookmarkEntry(number: "1", bookSeconds: 60, file: "01.mp3", fileSeconds: 60, note: "first"),
                       BookmarkEntry(number: "2", bookSeconds: nil, file: "02.mp3", fileSeconds: 5, note: "second")]

        // When they are written as each format, what is said
        let said = { (format: BookmarkFileFormat) in LibraryText.exportedLine(entries, as: format, of: "Book", to: "out") }

        // Then a label track and a chapters.txt say the second was left out and why
        for format in [BookmarkFileFormat.audacity, .chapters] {
            #expect(said(format) == "exported 1 bookmark of Book to out; 1 left out, its time in the book not known yet "
                + "(a file before it has not been played through): csv and json keep it by file", "\(said(format))")
        }
        // while CSV and JSON wrote both
        #expect(said(.csv) == "exported 2 bookmarks of Book to out")
        #expect(said(.json) == "exported 2 bookmarks of Book to out")
    }
}
