/// OverDrive's chapters: library MP3s carry a TXXX frame described "OverDrive MediaMarkers" whose
/// value is XML, `<Markers><Marker><Name>Chapter 1</Name><Time>0:00.000</Time></Marker>...`, with
/// times as M:SS.mmm or H:MM:SS.mmm. Read only when a file has no CHAP frames. A marker whose time
/// does not parse is skipped; the rest of the list still counts.
enum OverDriveMarkers {
    static let description = "overdrive mediamarkers"

    static func chapters(in frames: [ID3Chapters.Frame]) -> [ID3Chapters.Chapter] {
        frames.filter { $0.id == "TXXX" }.flatMap { frame -> [ID3Chapters.Chapter] in
            let parts = ID3Chapters.strings(frame.data, keepingEmpty: true)
            guard parts.count >= 2, parts[0].lowercased() == description else { return [] }
            return chapters(inXML: parts[1...].joined())
        }
    }

    static func chapters(inXML xml: String) -> [ID3Chapters.Chapter] {
        elements("Marker", in: xml).compactMap { marker in
            guard let time = elements("Time", in: marker).first.flatMap(milliseconds) else { return nil }
            let name = elements("Name", in: marker).first.map(unescaped) ?? ""
            return ID3Chapters.Chapter(startMilliseconds: time, title: name.trimmingWhitespace)
        }
    }

    /// The contents of every `<name>...</name>` in `xml`, in order (no nesting of the same name).
    private static func elements(_ name: String, in xml: String) -> [String] {
        var found: [String] = []
        var rest = xml[...]
        while let open = rest.firstRange(of: "<\(name)>"), let close = rest[open.upperBound...].firstRange(of: "</\(name)>") {
            found.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        return found
    }

    /// "1:02.500" or "1:01:02.500" (also without the fraction) in milliseconds.
    static func milliseconds(_ text: String) -> UInt32? {
        let fields = text.trimmingWhitespace.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(fields.count) else { return nil }
        let secondsField = fields.last!.split(separator: ".", omittingEmptySubsequences: false)
        guard secondsField.count <= 2, let seconds = UInt64(secondsField[0]) else { return nil }
        var fraction: UInt64 = 0
        if secondsField.count == 2 {
            let digits = secondsField[1].prefix(3)
            guard !digits.isEmpty, let value = UInt64(digits) else { return nil }
            fraction = value * [100, 10, 1][digits.count - 1]
        }
        var total = seconds
        for (index, field) in fields.dropLast().reversed().enumerated() {
            guard let value = UInt64(field) else { return nil }
            total += value * (index == 0 ? 60 : 3600)
        }
        let ms = total * 1000 + fraction
        return ms <= UInt64(UInt32.max) ? UInt32(ms) : nil
    }

    /// XML's five entities and numeric character references.
    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(entity)]
            var scalar: Unicode.Scalar?
            if entity.hasPrefix("#x") { scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
            else if entity.hasPrefix("#") { scalar = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init) }
            if let replacement = named ?? scalar.map({ String(Character($0)) }) {
                result += replacement
                rest = rest[rest.index(after: semicolon)...]
            } else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
            }
        }
        return result + rest
    }
}

private extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
