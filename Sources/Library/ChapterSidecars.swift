import Foundation

/// Chapters and titles that sit beside audio files: cue sheets and mp4chaps-style chapter lists.
enum ChapterSidecars {
    /// A chapter in seconds from the start of its file.
    struct TimedTitle: Sendable, Equatable {
        var startSeconds: Double
        var title: String
    }

    /// A cue sheet's tracks by the file they are in (the name as the sheet writes it, without
    /// folders): one file with many tracks is a single-file book's chapters, many files with a
    /// track each are a split rip's titles.
    static func cueSheet(_ text: String) -> [String: [TimedTitle]] {
        var files: [String: [TimedTitle]] = [:]
        var file: String?
        var title: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let upper = line.uppercased()
            if upper.hasPrefix("FILE ") {
                file = quotedOrFirstWord(line.dropFirst(5)).map { ($0 as NSString).lastPathComponent }
                title = nil
            } else if upper.hasPrefix("TRACK ") {
                title = nil
            } else if upper.hasPrefix("TITLE "), file != nil {
                title = quotedOrFirstWord(line.dropFirst(6))
            } else if upper.hasPrefix("INDEX 01 "), let file {
                // mm:ss:ff, 75 frames a second (the CD's sectors).
                let parts = line.dropFirst(9).trimmingCharacters(in: .whitespaces).split(separator: ":").compactMap { Double($0) }
                guard parts.count == 3 else { continue }
                let start = parts[0] * 60 + parts[1] + parts[2] / 75
                let number = (files[file]?.count ?? 0) + 1
                files[file, default: []].append(TimedTitle(startSeconds: start, title: title ?? "Track \(number)"))
            }
        }
        return files
    }

    /// `"quoted text"` or the first word of what follows a cue command.
    private static func quotedOrFirstWord(_ rest: Substring) -> String? {
        let rest = rest.trimmingCharacters(in: .whitespaces)
        if rest.hasPrefix("\""), let end = rest.dropFirst().firstIndex(of: "\"") {
            return String(rest[rest.index(after: rest.startIndex)..<end])
        }
        return rest.split(separator: " ").first.map(String.init)
    }

    /// An mp4chaps-style list, a chapter a line: `00:00:00.000 Chapter Title` (hours optional).
    static func chapterList(_ text: String) -> [TimedTitle] {
        text.split(whereSeparator: \.isNewline).compactMap(chapterLine)
    }

    /// One line of a chapter list; nil when it is not one (`bookmarks import` names such lines).
    static func chapterLine(_ line: some StringProtocol) -> TimedTitle? {
        guard let match = line.trimmingCharacters(in: .whitespaces)
            .wholeMatch(of: /(?:(?<h>\d+):)?(?<m>\d{1,2}):(?<s>\d{1,2}(?:\.\d+)?)\s+(?<title>.+)/) else { return nil }
        let seconds = Double(match.h ?? "0")! * 3600 + Double(match.m)! * 60 + Double(match.s)!
        return TimedTitle(startSeconds: seconds, title: String(match.title))
    }

    /// The chapters and titles the sidecars in `folder` give each of `files` (absolute paths of
    /// audio files in that folder): `NAME.cue`, or any cue sheet naming the file, and
    /// `NAME.chapters.txt`, or `chapters.txt` when the file is the only one.
    static func read(folder: String, files: [String]) -> [String: Found] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
            let lowered = name.lowercased()
            return lowered.hasSuffix(".cue") || lowered.hasSuffix("chapters.txt")
        }
        // Most folders have none: nothing to look up per file (import speed).
        guard !names.isEmpty else { return [:] }
        var cueTracks: [String: [TimedTitle]] = [:]
        for name in names.sorted() where name.lowercased().hasSuffix(".cue") {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { continue }
            for (file, tracks) in cueSheet(String(decoding: data, as: UTF8.self)) where cueTracks[file] == nil {
                cueTracks[file] = tracks
            }
        }
        var found: [String: Found] = [:]
        for path in files {
            let name = (path as NSString).lastPathComponent
            let base = (name as NSString).deletingPathExtension
            var entry = Found()
            // A cue sheet names the file it was ripped with; one that names a WAV may sit beside
            // the MP3 made from it, so the base name also matches.
            let tracks = cueTracks[name] ?? cueTracks.first { ($0.key as NSString).deletingPathExtension == base }?.value
            if let tracks {
                if tracks.count > 1 || cueTracks.count == 1 && files.count == 1 {
                    entry.chapters = tracks
                } else {
                    entry.title = tracks.first?.title
                }
            }
            let listName = names.first { $0.lowercased() == (base + ".chapters.txt").lowercased() }
                ?? (files.count == 1 ? names.first { $0.lowercased() == "chapters.txt" } : nil)
            if let listName, let data = FileManager.default.contents(atPath: folder + "/" + listName) {
                let list = chapterList(String(decoding: data, as: UTF8.self))
                if !list.isEmpty { entry.chapters = list }
            }
            if entry.chapters != nil || entry.title != nil { found[path] = entry }
        }
        return found
    }

    struct Found: Sendable, Equatable {
        var chapters: [TimedTitle]?
        var title: String?
    }
}
