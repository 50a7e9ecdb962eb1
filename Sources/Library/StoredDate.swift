import Foundation
import GRDB

/// How the library writes a date: GRDB's text form, "yyyy-MM-dd HH:mm:ss.SSS" in UTC, written by
/// hand. GRDB writes it through Foundation's DateFormatter, which loads ICU and its locale data
/// (about 5 MiB of resident memory, measured) in every process that saves a position, for a fixed
/// numeric format. Reading is by hand too: GRDB parses the text, then makes the date with a
/// Calendar, which asks ICU for the locale's first weekday.
///
/// Every record with a date says so in its `databaseDateEncodingStrategy(for:)` and
/// `databaseDateDecodingStrategy(for:)`, in the record's own body: declared in an extension,
/// GRDB's defaults stayed the witnesses (StoredDateTests).
enum StoredDate {
    static let encoding = DatabaseDateEncodingStrategy.custom { text($0) }
    /// Text in another form GRDB accepts (never written by abplayer) is left to GRDB.
    static let decoding = DatabaseDateDecodingStrategy.custom(date(from:))

    /// A column's date as `decoding` reads it (nil: NULL). Text no abplayer writes now is still
    /// a date: a year of more than four digits (a sync journal once carried year 31690708 into
    /// libraries) is in year 9999, and anything else (no date at all) is 1970's first
    /// instant; an error here made every listing of the library fail, not just that book's.
    static func date(from value: DatabaseValue) -> Date? {
        if value.isNull { return nil }
        return String.fromDatabaseValue(value).flatMap(date(fromText:)) ?? Date.fromDatabaseValue(value)
            ?? String.fromDatabaseValue(value).flatMap(dateOfAnyYear(fromText:)) ?? Date(timeIntervalSince1970: 0)
    }

    /// The earliest and latest instants the text form holds (years 1 to 9999), in milliseconds.
    static let writableMilliseconds: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    static func text(_ date: Date) -> String {
        // Within the years the form writes: a wider date's text could not be read back.
        let unbounded = (date.timeIntervalSince1970 * 1000).rounded()
        let milliseconds = unbounded.isNaN ? 0 : Int64(min(max(unbounded, Double(writableMilliseconds.lowerBound)),
                                                               Double(writableMilliseconds.upperBound)))
        var seconds = time_t((milliseconds - (((milliseconds % 1000) + 1000) % 1000)) / 1000)
        var utc = tm()
        gmtime_r(&seconds, &utc)
        func digits(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let fraction = Int32(((milliseconds % 1000) + 1000) % 1000)
        return "\(digits(utc.tm_year + 1900, 4))-\(digits(utc.tm_mon + 1, 2))-\(digits(utc.tm_mday, 2)) "
            + "\(digits(utc.tm_hour, 2)):\(digits(utc.tm_min, 2)):\(digits(utc.tm_sec, 2)).\(digits(fraction, 3))"
    }

    /// The text form with a year of any number of digits, perhaps negative, as an unbounded
    /// writer made it: the year is held to 1...9999 and the rest read as usual.
    static func dateOfAnyYear(fromText text: String) -> Date? {
        let bytes = Array(text.utf8)
        // "-MM-dd HH:mm:ss.SSS" after the year, the year's digits before it.
        guard bytes.count > 19, bytes[bytes.count - 19] == UInt8(ascii: "-") else { return nil }
        let yearText = String(decoding: bytes[..<(bytes.count - 19)], as: UTF8.self)
        guard let sign = yearText.first, sign == "-" || sign.isASCII && sign.isNumber,
              yearText.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let year = yearText.hasPrefix("-") ? 1 : yearText.count > 4 ? 9999 : Int(yearText) ?? 1
        let rest = String(decoding: bytes[(bytes.count - 19)...], as: UTF8.self)
        let digits = String(year)
        return date(fromText: String(repeating: "0", count: max(0, 4 - digits.count)) + digits + rest)
    }

    /// "yyyy-MM-dd HH:mm:ss.SSS" or "yyyy-MM-dd HH:mm:ss" (UTC) as a date; nil for anything else.
    static func date(fromText text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 19 || (bytes.count == 23 && bytes[19] == UInt8(ascii: ".")) else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators = [(4, "-"), (7, "-"), (10, " "), (13, ":"), (16, ":")]
        guard separators.allSatisfy({ bytes[$0.0] == UInt8(ascii: Unicode.Scalar($0.1)!) }),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              let milliseconds = bytes.count == 23 ? number(20..<23) : 0 else { return nil }
        var utc = tm()
        utc.tm_year = year - 1900
        utc.tm_mon = month - 1
        utc.tm_mday = day
        utc.tm_hour = hour
        utc.tm_min = minute
        utc.tm_sec = second
        return Date(timeIntervalSince1970: Double(timegm(&utc)) + Double(milliseconds) / 1000)
    }
}

