import Library
import Testing

@Suite struct ItemOrderingTests {
    typealias Candidate = ItemOrdering.Candidate

    @Test func naturalOrderReadsNumbersAsNumbers() {
        let names = ["Chapter 10.mp3", "chapter 2.mp3", "Chapter 9.mp3", "Chapter 1.mp3", "Chapter 1a.mp3", "Глава 3.mp3", "Appendix.mp3"]
        #expect(names.sorted(by: NaturalOrder.precedes)
            == ["Appendix.mp3", "Chapter 1.mp3", "Chapter 1a.mp3", "chapter 2.mp3", "Chapter 9.mp3", "Chapter 10.mp3", "Глава 3.mp3"])
    }

    @Test func discThenCleanTracksThenNames() {
        let candidates = [
            Candidate(name: "b.mp3", folderDisc: 2, track: 1),
            Candidate(name: "a.mp3", folderDisc: 2, track: 2),
            Candidate(name: "z.mp3", folderDisc: 1, track: 1),
            Candidate(name: "y.mp3", folderDisc: 1, track: 2),
        ]
        #expect(ItemOrdering.order(candidates).map { candidates[$0].name } == ["z.mp3", "y.mp3", "b.mp3", "a.mp3"])
    }

    @Test func brokenTracksFallBackToNames() {
        // Duplicates
        let duplicate = [Candidate(name: "Part 10", track: 1), Candidate(name: "Part 2", track: 1), Candidate(name: "Part 1", track: 2)]
        #expect(ItemOrdering.order(duplicate).map { duplicate[$0].name } == ["Part 1", "Part 2", "Part 10"])
        // A gap
        let gapped = [Candidate(name: "c", track: 1), Candidate(name: "a", track: 7), Candidate(name: "b", track: 2)]
        #expect(ItemOrdering.order(gapped).map { gapped[$0].name } == ["a", "b", "c"])
        // One untagged
        let partial = [Candidate(name: "c", track: 1), Candidate(name: "a"), Candidate(name: "b", track: 2)]
        #expect(ItemOrdering.order(partial).map { partial[$0].name } == ["a", "b", "c"])
        // A clean run not starting at 1 (disc 2 numbered on from disc 1) still counts
        let continued = [Candidate(name: "x", track: 12), Candidate(name: "y", track: 11)]
        #expect(ItemOrdering.order(continued).map { continued[$0].name } == ["y", "x"])
    }

    @Test func discTagsCountOnlyWhenEveryFileHasOne() {
        let tagged = [Candidate(name: "1", tagDisc: 2, track: 1), Candidate(name: "2", tagDisc: 1, track: 1)]
        #expect(ItemOrdering.order(tagged).map { tagged[$0].name } == ["2", "1"])
        let partly = [Candidate(name: "1", tagDisc: 2, track: 1), Candidate(name: "2", track: 2)]
        #expect(ItemOrdering.order(partly).map { partly[$0].name } == ["1", "2"])
    }

    @Test func discFolderNames() {
        #expect(ItemOrdering.discNumber(folderName: "CD1") == 1)
        #expect(ItemOrdering.discNumber(folderName: "cd 02") == 2)
        #expect(ItemOrdering.discNumber(folderName: "Disc 3 - Bonus") == 3)
        #expect(ItemOrdering.discNumber(folderName: "Disk_4") == 4)
        #expect(ItemOrdering.discNumber(folderName: "Part 5") == 5)
        #expect(ItemOrdering.discNumber(folderName: "Часть 6") == 6)
        #expect(ItemOrdering.discNumber(folderName: "Partridge") == nil)
        #expect(ItemOrdering.discNumber(folderName: "CD") == nil)
        #expect(ItemOrdering.discNumber(folderName: "Extras") == nil)
    }
}
