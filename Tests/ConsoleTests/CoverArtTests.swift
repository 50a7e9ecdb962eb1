@testable import Console
import Foundation
import Testing
import TestSupport

@Suite struct CoverArtTests {
    /// A 320x240 test pattern (colour bars and a moving gradient) as a PNG, made by ffmpeg.
    static func testPatternPNG() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "abplayer-cover-\(getpid()).png")
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = try Command.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=s=320x240", "-frames:v", "1", url.path])
                .requireSuccess()
        }
        return url
    }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Every 24-bit colour in a line's SGR sequences (`38;2;R;G;B` and `48;2;R;G;B`).
    static func colors(in text: String) -> [(Int, Int, Int)] {
        let regex = try! NSRegularExpression(pattern: "[34]8;2;([0-9]+);([0-9]+);([0-9]+)")
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let value = { (i: Int) in Int((text as NSString).substring(with: match.range(at: i)))! }
            return (value(1), value(2), value(3))
        }
    }

    @Test func aRedJPEGBecomesRedTruecolorCellsFittedWithItsAspect() throws {
        // Given a 64x64 red JPEG made by ffmpeg
        let pixels = try #require(CoverArt.Pixels(encoded: try Self.bytes(try Fixtures.coverJPEG())))
        #expect((pixels.width, pixels.height) == (64, 64))

        // When chafa draws it into at most 40x30 cells in truecolor
        let art = CoverArt(pixels, maxColumns: 40, maxRows: 30, colors: .truecolor)

        // Then a square picture takes twice as many columns as rows (a cell is half as wide as tall): 40x20
        #expect(art.columns == 40)
        #expect(art.lines.count == 20)
        // and the colours it shows are red (JPEG rounding allowed). A solid picture is drawn as
        // spaces on a red background (or reverse video): the black foreground is never seen.
        let colors = Self.colors(in: art.lines.joined()).filter { $0 != (0, 0, 0) }
        #expect(colors.count >= art.lines.count)
        #expect(colors.allSatisfy { $0.0 > 220 && $0.1 < 40 && $0.2 < 40 }, "\(colors.prefix(5))")
    }

    @Test func aPNGTestPatternBecomesSymbolsAndNoColorHasNoEscapes() throws {
        let pixels = try #require(CoverArt.Pixels(encoded: try Self.bytes(try Self.testPatternPNG())))
        #expect((pixels.width, pixels.height) == (320, 240))

        // When drawn without colour into 30x30 cells
        let art = CoverArt(pixels, maxColumns: 30, maxRows: 30, colors: .none)

        // Then 4:3 at half-width cells is 30 columns by about 11 rows, each line 30 symbols, no escapes
        #expect(art.columns == 30)
        #expect((10...12).contains(art.lines.count), "\(art.lines.count) rows")
        #expect(art.lines.allSatisfy { $0.unicodeScalars.count == 30 })
        let text = art.lines.joined()
        #expect(!text.contains("\u{1B}"))
        // and the pattern's edges are drawn with block symbols, not only spaces
        let blocks = text.unicodeScalars.filter { (0x2580...0x259F).contains($0.value) }.count
        #expect(blocks > 20, "\(art.lines.joined(separator: "\n"))")
    }

    @Test func brokenOrUnknownBytesAreNoPicture() throws {
        #expect(CoverArt.Pixels(encoded: []) == nil)
        #expect(CoverArt.Pixels(encoded: Array("GIF89a....".utf8)) == nil)
        // A JPEG cut after its first 100 bytes
        let jpeg = try Self.bytes(try Fixtures.coverJPEG())
        #expect(CoverArt.Pixels(encoded: Array(jpeg.prefix(100))) == nil)
        let png = try Self.bytes(try Self.testPatternPNG())
        #expect(CoverArt.Pixels(encoded: Array(png.prefix(200))) == nil)
    }
}
