import Foundation
import GRDB

/// The tag fields the media browser groups by.
public enum BrowseField: String, Sendable, CaseIterable, Codable {
    case artist, album, albumArtist = "album-artist", composer, genre, narrator, year

    /// The media column; a fixed name from this enum, never user text.
    var column: Column {
        switch self {
        case .artist: Column("artist")
        case .album: Column("album")
        case .albumArtist: Column("albumArtist")
        case .composer: Column("composer")
        case .genre: Column("genre")
        case .narrator: Column("narrator")
        case .year: Column("year")
        }
    }
}

public struct BrowseValue: Sendable, Equatable, Codable {
    public let value: String
    public let mediaCount: Int
}

extension CatalogStore {
    /// The distinct values of `field` across the library's media, with how many media carry each,
    /// optionally only those containing `search` (case-insensitive in any script: SQLite's own
    /// LIKE folds ASCII only, so both sides go through GRDB's Swift `lowercased()` function).
    public func browse(_ field: BrowseField, search: String? = nil) throws -> [BrowseValue] {
        try writer.read { db in
            let column = field.column
            var request = Media.select(cast(column, as: .text), count(Media.Columns.id)).filter(column != nil).group(column)
            if let search, !search.isEmpty { request = request.filter(cast(column, as: .text).lowercased.like("%\(Self.escapeLike(search.lowercased()))%", escape: "\\")) }
            return try Row.fetchAll(db, request.order(column)).map {
                BrowseValue(value: $0[0], mediaCount: $0[1])
            }
        }
    }

    /// The media whose `field` equals `value` (or, without a field, whose path or any tag
    /// contains `search`), in path order.
    public func media(where field: BrowseField?, equals value: String?, search: String? = nil) throws -> [Media] {
        try writer.read { db in
            var request = Media.all()
            if let field, let value {
                request = field == .year ? request.filter(field.column == Int(value)) : request.filter(field.column == value)
            }
            if let search, !search.isEmpty {
                let pattern = "%\(Self.escapeLike(search.lowercased()))%"
                let columns = [Media.Columns.path] + BrowseField.allCases.map(\.column) + [Column("title")]
                request = request.filter(columns.map { cast($0, as: .text).lowercased.like(pattern, escape: "\\") }.joined(operator: .or))
            }
            return try request.order(Media.Columns.path).fetchAll(db)
        }
    }

    static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }
}
