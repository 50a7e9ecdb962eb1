import CChafa
import Foundation
import LazyLibraries

/// A cover picture drawn with terminal symbols by libchafa, fitted into a box of cells with its
/// aspect kept (a cell is about twice as tall as wide).
struct CoverArt {
    /// How many colours the symbols may use.
    enum Colors: Equatable, Sendable {
        /// 24-bit `ESC[38;2;r;g;bm` sequences (COLORTERM=truecolor or 24bit).
        case truecolor
        case indexed256
        case indexed16
        /// NO_COLOR or a dumb terminal: the symbols alone, no escape sequence at all.
        case none

        /// What the environment allows: NO_COLOR wins, then COLORTERM, then TERM.
        init(environment: [String: String]) {
            let term = environment["TERM"] ?? ""
            if !(environment["NO_COLOR"] ?? "").isEmpty || term.isEmpty || term == "dumb" {
                self = .none
            } else if ["truecolor", "24bit"].contains(environment["COLORTERM"] ?? "") {
                self = .truecolor
            } else if term.contains("256color") {
                self = .indexed256
            } else {
                self = .indexed16
            }
        }
    }

    /// The picture's pixels: RGBA8, `width * 4` bytes a row.
    struct Pixels {
        let width: Int
        let height: Int
        let rgba: [UInt8]

        /// Decodes JPEG or PNG bytes (recognised by their signature, whatever the MIME type
        /// says); nil when they are neither or broken, or when the libraries that draw covers
        /// cannot be loaded (they are loaded here, the first time, not at start-up).
        init?(encoded bytes: [UInt8]) {
            guard abp_cover_libraries_load() else { return nil }
            let isPNG = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47])
            let isJPEG = bytes.starts(with: [0xFF, 0xD8])
            guard isPNG || isJPEG else { return nil }
            var width: Int32 = 0
            var height: Int32 = 0
            let decoded = bytes.withUnsafeBufferPointer { buffer in
                isPNG ? abp_png_decode_rgba(buffer.baseAddress, UInt(buffer.count), &width, &height)
                      : abp_jpeg_decode_rgba(buffer.baseAddress, UInt(buffer.count), &width, &height)
            }
            guard let decoded else { return nil }
            defer { free(decoded) }
            self.width = Int(width)
            self.height = Int(height)
            rgba = Array(UnsafeBufferPointer(start: decoded, count: Int(width) * Int(height) * 4))
        }
    }

    /// The lines of text, each `columns` cells wide (the symbols, with colour sequences unless
    /// `.none`).
    let lines: [String]
    let columns: Int

    /// Lines already drawn, each `columns` cells wide.
    init(lines: [String], columns: Int) {
        self.lines = lines
        self.columns = columns
    }

    /// Draws `pixels` into at most `maxColumns` x `maxRows` cells.
    init(_ pixels: Pixels, maxColumns: Int, maxRows: Int, colors: Colors) {
        var columns = Int32(max(1, maxColumns))
        var rows = Int32(max(1, maxRows))
        // 0.5: a terminal cell is about half as wide as it is tall.
        chafa_calc_canvas_geometry(Int32(pixels.width), Int32(pixels.height), &columns, &rows, 0.5, 0, 0)
        let symbols = chafa_symbol_map_new()
        chafa_symbol_map_add_by_tags(symbols, ChafaSymbolTags(rawValue: CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue))
        let config = chafa_canvas_config_new()
        chafa_canvas_config_set_geometry(config, columns, rows)
        chafa_canvas_config_set_symbol_map(config, symbols)
        let mode = switch colors {
        case .truecolor: CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed256: CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed16: CHAFA_CANVAS_MODE_INDEXED_16
        case .none: CHAFA_CANVAS_MODE_FGBG
        }
        chafa_canvas_config_set_canvas_mode(config, mode)
        let canvas = chafa_canvas_new(config)
        defer {
            chafa_canvas_unref(canvas)
            chafa_canvas_config_unref(config)
            chafa_symbol_map_unref(symbols)
        }
        pixels.rgba.withUnsafeBufferPointer {
            chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, $0.baseAddress,
                                         Int32(pixels.width), Int32(pixels.height), Int32(pixels.width * 4))
        }
        self.columns = Int(columns)
        if colors == .none {
            // Only the symbols: chafa's printer would still reset attributes with escapes.
            lines = (0..<rows).map { y in
                String(String.UnicodeScalarView((0..<columns).compactMap { x in
                    Unicode.Scalar(chafa_canvas_get_char_at(canvas, x, y))
                }))
            }
        } else {
            let text = abp_chafa_print(canvas)!
            defer { free(text) }
            // Each row ends with a reset; rows are separated by newlines.
            lines = String(cString: text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                .prefix(Int(rows)).map { $0 }
        }
    }
}
