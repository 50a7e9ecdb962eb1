import CMpg123

/// The tags libmpg123 parsed (ID3v2 preferred, ID3v1 for what v2 lacks), under the keys of the
/// ABI's list (plugin.h, abp_metadata_callbacks.tag); other text frames pass through under their
/// frame ID, TXXX frames under their description. Every value is its own pair: two TPE1 frames,
/// or one with two values, are two "artist" pairs (the host joins them).
struct ID3Tags {
    private(set) var pairs: [(key: String, value: String)] = []
    /// Keys the ID3v2 tag had: ID3v1 (30 characters, Latin-1) only fills in the others.
    private var fromV2: Set<String> = []
    private var readingV1 = false

    /// `rawFrames`: the ID3v2 tag's frames as our parser reads them. libmpg123 keeps only the last
    /// of repeated text or comment frames (two TPE1); the raw frames give every one of them.
    init(v1: UnsafePointer<mpg123_id3v1>?, v2: UnsafePointer<mpg123_id3v2>?, rawFrames: [ID3Chapters.Frame] = []) {
        let repeated = Self.repeatedTexts(rawFrames)
        if let v2 = v2?.pointee {
            for index in 0..<(v2.text == nil ? 0 : v2.texts) {
                let field = v2.text[index]
                let id = frameID(field.id)
                let values = repeated[id] ?? strings(field.text)
                guard !values.isEmpty else { continue }
                switch id {
                case "TIT2": add("title", values)
                case "TPE1": add("artist", values)
                case "TALB": add("album", values)
                case "TPE2": add("albumartist", values)
                case "TCOM": add("composer", values)
                case "TCON": add("genre", values.map(resolvedGenre))
                case "TRCK": add("track", values)
                case "TPOS": add("disc", values)
                case "TYER", "TDRC": add("year", values.map(year))
                case "USLT": continue // lyrics: not a tag
                default: add(id, values)
                }
            }
            for index in 0..<(v2.extra == nil ? 0 : v2.extras) {
                let field = v2.extra[index]
                guard let name = strings(field.description).first else { continue }
                if name.lowercased() == OverDriveMarkers.description { continue } // chapters, not a tag
                let known = ["narrator", "description", "albumartist", "composer", "comment"]
                add(known.contains(name.lowercased()) ? name.lowercased() : name, strings(field.text))
            }
            // Every COMM frame without a description; described ones are tools' data (iTunNORM).
            if let comments = repeated["COMM"] {
                add("comment", comments)
            } else {
                for index in 0..<(v2.comment_list == nil ? 0 : v2.comments) {
                    let field = v2.comment_list[index]
                    guard strings(field.description).isEmpty else { continue }
                    add("comment", strings(field.text))
                }
            }
        }
        if let v1 = v1?.pointee {
            readingV1 = true
            add("title", [latin1(v1.title)])
            add("artist", [latin1(v1.artist)])
            add("album", [latin1(v1.album)])
            add("year", [latin1(v1.year)])
            let comment = withUnsafeBytes(of: v1.comment) { Array($0) }
            if comment[28] == 0 && comment[29] != 0 { // ID3v1.1: the last byte is the track
                add("track", [String(comment[29])])
                add("comment", [latin1(comment[0..<28])])
            } else {
                add("comment", [latin1(comment)])
            }
            if let genre = id3v1Genre(Int(v1.genre)) { add("genre", [genre]) }
        }
    }

    /// The values of text frames (T***, not TXXX) and undescribed COMM frames that the tag holds
    /// more than once, by frame ID.
    private static func repeatedTexts(_ frames: [ID3Chapters.Frame]) -> [String: [String]] {
        // Only frames whose ID comes more than once are decoded (most files have none: import speed).
        var counts: [String: Int] = [:]
        for frame in frames { counts[frame.id, default: 0] += 1 }
        var values: [String: [[String]]] = [:]
        for frame in frames where frame.data.count > 1 && counts[frame.id, default: 0] > 1 {
            if frame.id == "COMM" {
                // encoding, language, description NUL, text
                guard frame.data.count > 4 else { continue }
                let parts = ID3Chapters.strings([frame.data[0]] + frame.data[4...], keepingEmpty: true)
                if parts.first == "" { values["COMM", default: []].append(parts.dropFirst().filter { !$0.isEmpty }) }
            } else if frame.id.hasPrefix("T"), frame.id != "TXXX" {
                values[frame.id, default: []].append(ID3Chapters.strings(frame.data))
            }
        }
        return values.filter { $0.value.count > 1 }.mapValues { $0.flatMap { $0 } }
    }

    /// Each value of an ID3v2 frame is kept; an ID3v1 field only when ID3v2 lacked its key.
    private mutating func add(_ key: String, _ values: [String]) {
        let values = values.filter { !$0.isEmpty }
        guard !values.isEmpty, !(readingV1 && fromV2.contains(key)) else { return }
        if !readingV1 { fromV2.insert(key) }
        pairs += values.map { (key, $0) }
    }

    /// The embedded pictures (APIC), borrowed from libmpg123 for the duration of `body`. A MIME
    /// type of "-->" marks a link, not an image, and is skipped; a missing one is sniffed.
    static func forEachPicture(in v2: UnsafePointer<mpg123_id3v2>?,
                               _ body: (_ mime: String, _ type: UInt32, _ data: UnsafeRawBufferPointer) -> Void) {
        guard let v2 = v2?.pointee, let pictures = v2.picture else { return }
        for index in 0..<v2.pictures {
            let picture = pictures[index]
            guard let data = picture.data, picture.size > 0 else { continue }
            let bytes = UnsafeRawBufferPointer(start: data, count: picture.size)
            var mime = strings(picture.mime_type).first ?? ""
            if mime == "-->" { continue }
            if mime.isEmpty || !mime.contains("/") {
                mime = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "image/png"
                    : bytes.starts(with: [0xFF, 0xD8]) ? "image/jpeg" : "application/octet-stream"
            }
            body(mime, UInt32(UInt8(bitPattern: picture.type)), bytes)
        }
    }
}

/// The NUL-separated UTF-8 strings libmpg123 stores for one text frame.
private func strings(_ string: mpg123_string) -> [String] {
    guard let pointer = string.p, string.fill > 1 else { return [] }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: string.fill - 1)
    return bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
}

private func frameID(_ id: (CChar, CChar, CChar, CChar)) -> String {
    withUnsafeBytes(of: id) { String(decoding: $0, as: UTF8.self) }
}

/// ID3v1 text: fixed width, ISO-8859-1, padded with NULs or spaces.
private func latin1<T>(_ field: T) -> String {
    withUnsafeBytes(of: field) { latin1(Array($0)) }
}

private func latin1(_ bytes: some Collection<UInt8>) -> String {
    let text = String(String.UnicodeScalarView(bytes.prefix { $0 != 0 }.map { Unicode.Scalar($0) }))
    var end = text.endIndex
    while end > text.startIndex, text[text.index(before: end)] == " " { end = text.index(before: end) }
    return String(text[..<end])
}

/// "2020-05-01" (TDRC) -> "2020"; anything not starting with a 4-digit year stays as it is.
private func year(_ text: String) -> String {
    let prefix = text.prefix(4)
    return prefix.count == 4 && prefix.allSatisfy(\.isASCII) && prefix.allSatisfy(\.isNumber) ? String(prefix) : text
}

/// ID3v2.3 writes genres as "(12)", "(12)Refinement" or "12"; ID3v2.4 as "12". Names pass through.
private func resolvedGenre(_ text: String) -> String {
    if let number = Int(text), let name = id3v1Genre(number) { return name }
    guard text.hasPrefix("("), let close = text.firstIndex(of: ")"),
          let number = Int(text[text.index(after: text.startIndex)..<close]) else { return text }
    let refinement = text[text.index(after: close)...]
    if !refinement.isEmpty { return String(refinement) }
    return id3v1Genre(number) ?? text
}

/// The ID3v1 genre list with the Winamp extensions (0–191); nil for 255 ("none") and unknowns.
private func id3v1Genre(_ index: Int) -> String? {
    let names = [
        "Blues", "Classic Rock", "Country", "Dance", "Disco", "Funk", "Grunge", "Hip-Hop", "Jazz", "Metal",
        "New Age", "Oldies", "Other", "Pop", "R&B", "Rap", "Reggae", "Rock", "Techno", "Industrial",
        "Alternative", "Ska", "Death Metal", "Pranks", "Soundtrack", "Euro-Techno", "Ambient", "Trip-Hop",
        "Vocal", "Jazz+Funk", "Fusion", "Trance", "Classical", "Instrumental", "Acid", "House", "Game",
        "Sound Clip", "Gospel", "Noise", "AlternRock", "Bass", "Soul", "Punk", "Space", "Meditative",
        "Instrumental Pop", "Instrumental Rock", "Ethnic", "Gothic", "Darkwave", "Techno-Industrial",
        "Electronic", "Pop-Folk", "Eurodance", "Dream", "Southern Rock", "Comedy", "Cult", "Gangsta",
        "Top 40", "Christian Rap", "Pop/Funk", "Jungle", "Native American", "Cabaret", "New Wave",
        "Psychedelic", "Rave", "Showtunes", "Trailer", "Lo-Fi", "Tribal", "Acid Punk", "Acid Jazz", "Polka",
        "Retro", "Musical", "Rock & Roll", "Hard Rock", "Folk", "Folk-Rock", "National Folk", "Swing",
        "Fast Fusion", "Bebop", "Latin", "Revival", "Celtic", "Bluegrass", "Avantgarde", "Gothic Rock",
        "Progressive Rock", "Psychedelic Rock", "Symphonic Rock", "Slow Rock", "Big Band", "Chorus",
        "Easy Listening", "Acoustic", "Humour", "Speech", "Chanson", "Opera", "Chamber Music", "Sonata",
        "Symphony", "Booty Bass", "Primus", "Porn Groove", "Satire", "Slow Jam", "Club", "Tango", "Samba",
        "Folklore", "Ballad", "Power Ballad", "Rhythmic Soul", "Freestyle", "Duet", "Punk Rock",
        "Drum Solo", "A Cappella", "Euro-House", "Dance Hall", "Goa", "Drum & Bass", "Club-House",
        "Hardcore Techno", "Terror", "Indie", "BritPop", "Negerpunk", "Polsk Punk", "Beat",
        "Christian Gangsta Rap", "Heavy Metal", "Black Metal", "Crossover", "Contemporary Christian",
        "Christian Rock", "Merengue", "Salsa", "Thrash Metal", "Anime", "JPop", "Synthpop", "Abstract",
        "Art Rock", "Baroque", "Bhangra", "Big Beat", "Breakbeat", "Chillout", "Downtempo", "Dub", "EBM",
        "Eclectic", "Electro", "Electroclash", "Emo", "Experimental", "Garage", "Global", "IDM",
        "Illbient", "Industro-Goth", "Jam Band", "Krautrock", "Leftfield", "Lounge", "Math Rock",
        "New Romantic", "Nu-Breakz", "Post-Punk", "Post-Rock", "Psytrance", "Shoegaze", "Space Rock",
        "Trop Rock", "World Music", "Neoclassical", "Audiobook", "Audio Theatre", "Neue Deutsche Welle",
        "Podcast", "Indie Rock", "G-Funk", "Dubstep", "Garage Rock", "Psybient",
    ]
    return names.indices.contains(index) ? names[index] : nil
}
