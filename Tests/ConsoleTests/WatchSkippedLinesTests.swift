@testable import Console
import Library
import Testing

/// What a running player says of the files its library watch could not take: as `import` says
/// them, but a folder of many at once in one line (found in an hour's trial: two folders of
/// programs copied beside the book made 24 lines a screen reader read mid-chapter).
@Suite struct WatchSkippedLinesTests {
    static func skipped(_ path: String) -> SkippedFile {
        SkippedFile(path: path, reason: "not a recognised audio file")
    }

    @Test func aFewFilesAreALineEachAndAFolderOfManyIsOneLine() {
        // Given twelve files of one new folder, and two of another, skipped
        let programs = (1...12).map { Self.skipped("/books/bin/lib\($0).so") }
        let few = [Self.skipped("/books/Dune/notes.pdf"), Self.skipped("/books/Dune/\u{1B}[2Jx.bin")]

        // When the watch's lines are made
        let lines = LibraryText.watchSkippedLines(programs + few)

        // Then the folder of twelve is one line naming the folder and how to learn more, and the
        // others are import's own lines, each made visible
        // (folder by folder, in order)
        #expect(lines == [
            "skipped /books/Dune/notes.pdf: not a recognised audio file",
            "skipped /books/Dune/\\e[2Jx.bin: not a recognised audio file",
            "skipped 12 files in /books/bin that no decoder reads ('import /books/bin' names each and why)",
        ], "\(lines)")
    }
}
