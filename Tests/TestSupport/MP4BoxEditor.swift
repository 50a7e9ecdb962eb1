public import Foundation

/// A small MP4 box rewriter for fixtures: takes a real file made by ffmpeg apart into boxes,
/// lets a test remove, replace or add boxes, and writes it back with every parent's size fixed.
/// It is how tests get the variants ffmpeg cannot write (iTunSMPB instead of an edit list, only
/// one chapter form, co64 offsets, broken tables) while the audio stays ffmpeg's.
///
/// Chunk offsets point into mdat, so editing moov is only safe when moov comes after mdat
/// (ffmpeg's default without `+faststart`); `edited` checks that.
public struct MP4BoxEditor {
    public struct Node {
        public var type: String
        /// Bytes before the children of a container (meta's version word), or a leaf's payload.
        public var payload: [UInt8]
        public var children: [Node]?

        public init(_ type: String, payload: [UInt8] = [], children: [Node]? = nil) {
            self.type = type
            self.payload = payload
            self.children = children
        }

        /// A leaf box with a full-box version/flags word in front of `body`.
        public static func full(_ type: String, version: UInt8 = 0, flags: UInt32 = 0, _ body: [UInt8]) -> Node {
            Node(type, payload: [version, UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + body)
        }

        public var bytes: [UInt8] {
            let body = payload + (children ?? []).flatMap(\.bytes)
            return MP4BoxEditor.be32(UInt32(8 + body.count)) + Array(type.unicodeScalars.map { UInt8($0.value) }) + body
        }
    }

    public var boxes: [Node]

    static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "udta", "edts", "tref", "ilst", "meta", "dinf"]

    public init(_ file: URL) throws {
        boxes = try Self.parse([UInt8](Data(contentsOf: file)), inside: nil)
    }

    /// Raw bytes kept as they are: one opaque box list whose `edited()` gives them back
    /// unchanged (for files whose sizes were deliberately broken after editing).
    public init(bytes: [UInt8]) {
        boxes = []
        raw = bytes
    }

    private var raw: [UInt8]?

    static func parse(_ bytes: [UInt8], inside parent: String?) throws -> [Node] {
        var nodes: [Node] = []
        var offset = 0
        while offset + 8 <= bytes.count {
            var size = Int(be32(bytes, offset))
            let type = String(String.UnicodeScalarView(bytes[offset + 4..<offset + 8].map { Unicode.Scalar($0) }))
            var header = 8
            if size == 1 { size = Int(be32(bytes, offset + 8)) << 32 | Int(be32(bytes, offset + 12)); header = 16 }
            if size == 0 { size = bytes.count - offset }
            guard size >= header, offset + size <= bytes.count else { throw FixtureError.invalidArgument("box \(type) at \(offset) does not fit") }
            let body = Array(bytes[offset + header..<offset + size])
            if containers.contains(type) || parent == "ilst" {
                let prefix = type == "meta" && body.count >= 8 && !body[4..<8].elementsEqual("hdlr".utf8) ? 4 : 0
                nodes.append(Node(type, payload: Array(body.prefix(prefix)), children: try parse(Array(body.dropFirst(prefix)), inside: type)))
            } else {
                nodes.append(Node(type, payload: body))
            }
            offset += size
        }
        return nodes
    }

    /// The node at `path`: types separated by "/", with an optional `[n]` for the n-th of a type
    /// ("moov/trak[1]/tref").
    public func node(_ path: String) -> Node? {
        var list = boxes
        var found: Node?
        for component in path.split(separator: "/") {
            guard let index = Self.index(of: component, in: list) else { return nil }
            found = list[index]
            list = list[index].children ?? []
        }
        return found
    }

    /// Calls `change` on the node at `path` (which must exist), or removes it when `change` is nil.
    public mutating func modify(_ path: String, _ change: ((inout Node) -> Void)?) throws {
        let components = path.split(separator: "/")
        guard try Self.modify(&boxes, components[...], change) else { throw FixtureError.invalidArgument("no box at \(path)") }
    }

    public mutating func remove(_ path: String) throws { try modify(path, nil) }

    public mutating func append(_ child: Node, to path: String) throws {
        try modify(path) { $0.children = ($0.children ?? []) + [child] }
    }

    private static func modify(_ list: inout [Node], _ path: ArraySlice<Substring>, _ change: ((inout Node) -> Void)?) throws -> Bool {
        guard let first = path.first, let index = index(of: first, in: list) else { return false }
        if path.count == 1 {
            if let change { change(&list[index]) } else { list.remove(at: index) }
            return true
        }
        var children = list[index].children ?? []
        guard try modify(&children, path.dropFirst(), change) else { return false }
        list[index].children = children
        return true
    }

    private static func index(of component: Substring, in list: [Node]) -> Int? {
        var type = component, nth = 0
        if let open = component.firstIndex(of: "["), let close = component.firstIndex(of: "]") {
            type = component[..<open]
            nth = Int(component[component.index(after: open)..<close]) ?? 0
        }
        let matches = list.indices.filter { list[$0].type == type }
        return nth < matches.count ? matches[nth] : nil
    }

    /// The file's bytes. Throws when moov comes before mdat: its new size would move the audio.
    public func edited() throws -> [UInt8] {
        if let raw { return raw }
        let types = boxes.map(\.type)
        if let moov = types.firstIndex(of: "moov"), let mdat = types.firstIndex(of: "mdat"), moov < mdat {
            throw FixtureError.invalidArgument("moov comes before mdat: editing it would move the audio")
        }
        return boxes.flatMap(\.bytes)
    }

    public func write(to url: URL) throws { try Data(edited()).write(to: url) }

    // MARK: - Byte helpers

    public static func be32(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
    public static func be64(_ value: UInt64) -> [UInt8] { [56, 48, 40, 32, 24, 16, 8, 0].map { UInt8(value >> $0 & 0xFF) } }
    public static func be32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// An iTunes `data` atom holding UTF-8 text.
    public static func textData(_ text: String) -> Node { Node("data", payload: be32(1) + be32(0) + Array(text.utf8)) }

    /// A `----` atom (com.apple.iTunes, `name`) with a text value, as iTunes writes iTunSMPB.
    public static func freeform(_ name: String, _ text: String) -> Node {
        Node("----", children: [
            .full("mean", Array("com.apple.iTunes".utf8)),
            .full("name", Array(name.utf8)),
            textData(text),
        ])
    }

    /// A Nero `chpl` box (version 1) with the given chapters.
    public static func neroChapters(_ chapters: [FixtureChapter]) -> Node {
        var body: [UInt8] = be32(0) + [UInt8(chapters.count)]
        for chapter in chapters {
            let title = Array(chapter.title.utf8.prefix(255))
            body += be64(UInt64((chapter.startSeconds * 10_000_000).rounded())) + [UInt8(title.count)] + title
        }
        return .full("chpl", version: 1, body)
    }
}
