import Library
import Testing

@Suite struct FolderBookNameTests {
    @Test(arguments: [
        ("Vol 2 - Title", "Title", 2.0, nil, nil),
        ("Vol. 3 - Title", "Title", 3, nil, nil),
        ("Volume 12 - Title", "Title", 12, nil, nil),
        ("Book 2 - Title", "Title", 2, nil, nil),
        ("Book 2.5 - Title", "Title", 2.5, nil, nil),
        ("2. Title", "Title", 2, nil, nil),
        ("2 - Title", "Title", 2, nil, nil),
        ("#2 - Title", "Title", 2, nil, nil),
        ("(1987) Title", "Title", nil, 1987, nil),
        ("1987 - Title", "Title", nil, 1987, nil),
        ("Title {Jim Dale}", "Title", nil, nil, "Jim Dale"),
        ("Vol 1 - 1999 - Title {Reader}", "Title", 1, 1999, "Reader"),
        ("1984", "1984", nil, nil, nil),
        ("Catch-22", "Catch-22", nil, nil, nil),
        ("Title - A Subtitle", "Title - A Subtitle", nil, nil, nil),
    ] as [(String, String, Double?, Int?, String?)])
    func folderNamesGiveTitleSeriesNumberYearAndNarrator(name: String, title: String, number: Double?, year: Int?, narrator: String?) {
        // Given a book folder's name, when read, then its parts are Audiobookshelf's
        let parsed = FolderBookName(name)
        #expect(parsed.title == title && parsed.seriesNumber == number && parsed.year == year && parsed.narrator == narrator, "\(parsed)")
    }
}
