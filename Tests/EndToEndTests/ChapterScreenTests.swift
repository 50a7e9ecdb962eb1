import Foundation
import TestSupport
import Testing

extension PlayerScreenTests {
    /// Chapters as a listener reads them in a terminal: `chapters`, `chapter NAME` and its answer,
    /// the player screen's chapter bar, and the place flashed after a key, at 80x24 and 120x40.
    @Test(arguments: [(80, 24), (120, 40)])
    func chaptersAreListedJumpedToByNameAndShownWithABarOfTheirOwn(columns: Int, rows: Int) throws {
        // Given Red Book (a file with the chapters Opening and Second, then a file without any)
        // and the REPL on a terminal of this size, playing to the null output
        let (abplayer, library) = try Self.library("chapter-screen-\(columns)")
        let screen = try TmuxTerminal(abplayer, name: "chapters-\(columns)", arguments: ["--output", "null", "--library", library],
                                      environment: ["TERM": "xterm-256color"], columns: columns, rows: rows)
        defer { screen.stop() }
        #expect(screen.waitFor("abplayer />") != nil, "\(screen.screen())")
        try screen.send("play Red Book", "Enter")
        #expect(screen.waitFor("playing #") != nil, "\(screen.screen())")

        // When the chapters are listed
        try screen.send("chapters", "Enter")
        // Then three: the two marked in the first file, and the second file as a chapter of its
        // own, with starts and lengths in columns, the one playing marked
        let listed = screen.waitUntil { $0.contains("Red Book: 3 chapters") && $0.contains("Part 2") }
        let lines = Self.lines(listed ?? screen.screen())
        #expect(lines.contains("▶ 1  0:00  0:30  Opening"), "\(lines)")
        #expect(lines.contains("  2  0:30  0:30  Second"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  3  1:00  1:00  Part 2") }, "\(lines)")

        // When a chapter is named by part of its title
        try screen.send("chapter seco", "Enter")
        // Then the answer is one line with the place in the book and in the chapter
        #expect(screen.waitFor("0:30 / 2:00 (25%) · chapter 2/3: Second, 0:00 / 0:30") != nil, "\(screen.screen())")
        // and a name in no title gets the choices
        try screen.send("chapter zebra", "Enter")
        #expect(screen.waitFor("use next, prev, a name, or 1–3") != nil, "\(screen.screen())")

        // When the player screen shows: the chapter has its own bar and time, next to the item's
        // and the book's, and the time left in it
        try screen.send("now", "Enter")
        let player = screen.waitUntil { $0.contains("chapter 2/3: Second") && $0.contains("] chapter 0:") }
        #expect(player != nil, "\(screen.screen())")
        let shown = Self.lines(player ?? "")
        // (after the cover, drawn beside the details at these widths: the bar ends at the last column)
        #expect(shown.contains { ($0.hasPrefix("[") || $0.contains("  [")) && $0.hasSuffix("/ 0:30") && $0.contains("] chapter ") && $0.count == columns },
                "\(shown)")
        #expect(shown.contains { $0.contains("left in chapter,") }, "\(shown)")
        #expect(shown.allSatisfy { $0.count <= columns })
        // and c flashes where it landed: the next chapter, the second file (once the book's
        // loudness, measured in the background, was said: that notice takes the message line too,
        // and beside stress-ng it came just after the key)
        #expect(screen.waitUntil(timeout: 60) { $0.contains("gain ") } != nil, "\(screen.screen())")
        try screen.send("c")
        #expect(screen.waitFor("· chapter 3/3: Part 2, 0:00 / 1:00") != nil, "\(screen.screen())")
        try screen.send("q")
        #expect(screen.waitUntil { Self.lines($0).last { !$0.isEmpty } == "abplayer />" } != nil, "\(screen.screen())")
    }
}
