import Foundation
import GRDB
import Library
import Testing

@Suite struct ShelfTests {
    @Test func shelvesNestWithoutADepthLimitAndHoldAnyName() throws {
        // Given names with Unicode, spaces and quotes, nested 60 deep
        let library = try LibraryDatabase()
        let names = (0..<60).map { "Level \($0) — «O'Brien's \"best\"» 📚" }
        let path = names.joined(separator: "/")

        // When the deepest shelf is created with its parents
        try library.shelves.createShelves(path: path)

        // Then the tree lists each level under the previous one, with its full path
        let tree = try library.shelves.shelfTree()
        #expect(tree.count == 60)
        #expect(tree.map(\.depth) == Array(0..<60))
        #expect(tree.last?.path == path)
        #expect(try library.shelves.shelfID(path: path) == tree.last?.id)
    }

    @Test func namesAreUniqueAmongSiblingsOnly() throws {
        let library = try LibraryDatabase()
        try library.shelves.createShelf(path: "Fiction")
        try library.shelves.createShelf(path: "Non-fiction")
        try library.shelves.createShelf(path: "Fiction/Russian")
        // The same name under another parent is fine
        try library.shelves.createShelf(path: "Non-fiction/Russian")
        // The same name beside itself is refused, at the top level too
        #expect(throws: LibraryError.self) { try library.shelves.createShelf(path: "Fiction/Russian") }
        #expect(throws: LibraryError.self) { try library.shelves.createShelf(path: "Fiction") }
        // Renaming onto a sibling's name is refused and changes nothing
        #expect(throws: LibraryError.self) { try library.shelves.renameShelf(path: "Non-fiction", to: "Fiction") }
        #expect(try library.shelves.shelfTree().map(\.path) == ["Fiction", "Fiction/Russian", "Non-fiction", "Non-fiction/Russian"])
    }

    @Test func aShelfCannotMoveIntoItselfOrADescendant() throws {
        let library = try LibraryDatabase()
        try library.shelves.createShelves(path: "A/B/C")
        try library.shelves.createShelves(path: "D")
        #expect(throws: LibraryError.self) { try library.shelves.moveShelf(path: "A", under: "A") }
        #expect(throws: LibraryError.self) { try library.shelves.moveShelf(path: "A", under: "A/B/C") }
        // A legal move carries the subtree along
        try library.shelves.moveShelf(path: "A/B", under: "D")
        try library.shelves.renameShelf(path: "D/B", to: "B renamed")
        try library.shelves.moveShelf(path: "D", under: nil)
        #expect(try library.shelves.shelfTree().map(\.path) == ["A", "D", "D/B renamed", "D/B renamed/C"])
    }

    @Test func deletingANonEmptyShelfNeedsForceAndSaysWhatGoes() throws {
        // Given a shelf holding a shelf that holds a book
        let library = try LibraryDatabase()
        try library.shelves.createShelves(path: "Old/Older")
        let book = try library.writer.write { db in
            var book = Book(id: nil, shelfId: try Int64.fetchOne(db, sql: "SELECT id FROM shelf WHERE name = 'Older'"),
                            title: "Dusty", addedAt: Date())
            try book.insert(db)
            return book
        }

        // When it is deleted without force, it is refused and nothing goes
        #expect(throws: LibraryError.self) { try library.shelves.deleteShelf(path: "Old", force: false) }
        #expect(try library.shelves.shelfTree().count == 2)

        // When forced, both shelves and the book go, and the count says so
        let removed = try library.shelves.deleteShelf(path: "Old", force: true)
        #expect(removed.shelves == 2 && removed.books == 1)
        #expect(try library.shelves.shelfTree().isEmpty)
        #expect(throws: LibraryError.self) { try library.catalog.bookListing(id: book.id!) }
        // An empty shelf goes without force
        try library.shelves.createShelf(path: "Empty")
        try library.shelves.deleteShelf(path: "Empty", force: false)
        #expect(try library.shelves.shelfTree().isEmpty)
    }
}
