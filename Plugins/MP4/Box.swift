/// One box of the file: where its payload is, and its children when it is a container the parser
/// descends into. Only headers are read to build the tree; payloads are read on demand.
public struct Box: Sendable {
    public let type: FourCC
    /// Slash-separated types from the top, e.g. `moov/trak/mdia/minf/stbl/stsz`.
    public let path: String
    /// Where the box's header starts: a movie fragment's default base for its data offsets.
    public let offset: Int64
    public let payloadOffset: Int64
    public let payloadSize: Int64
    public internal(set) var children: [Box] = []

    public func first(_ type: FourCC) -> Box? { children.first { $0.type == type } }

    public func all(_ type: FourCC) -> [Box] { children.filter { $0.type == type } }

    /// The first descendant along `types`, e.g. `box.find("mdia", "minf", "stbl")`.
    public func find(_ types: FourCC...) -> Box? {
        var box = self
        for type in types {
            guard let child = box.first(type) else { return nil }
            box = child
        }
        return box
    }
}

/// Builds the box tree of a file. Hand-written because Debian 12 has no MP4 demuxer library we
/// can use from a plugin (no libmp4v2; libavformat would be a second decoder stack).
///
/// Defences against lying files: a box must fit inside its parent (and so inside the file), its
/// size must cover its header (so every step moves forward: no size loops), nesting stops at
/// `maxDepth`, and the number of boxes inside top-level boxes at `maxBoxes`. Top-level boxes
/// have a limit of their own, `maxTopLevelBoxes`: a fragmented 20-hour book holds a moof and an
/// mdat for every second or two, each read as one header.
struct BoxTreeReader {
    static let maxDepth = 24
    static let maxBoxes = 100_000
    static let maxTopLevelBoxes = 1 << 22

    /// Types whose payload is a list of boxes. `meta` is handled apart (it may start with a
    /// version word). Items of `ilst` are containers of `data`/`mean`/`name` boxes. A top-level
    /// `moof` is not descended into here: `MovieFragments` reads each when it gets to it, so a
    /// long fragmented file never holds the tree of every fragment at once.
    static let containers: Set<FourCC> = ["moov", "trak", "mdia", "minf", "stbl", "udta", "edts", "dinf", "tref", "ilst", "wave", "gmhd",
                                          "mvex", "traf"]

    let source: any ByteSource
    private(set) var boxCount = 0
    private(set) var topLevelCount = 0
    /// Problems that did not stop parsing (a truncated mdat at the end of the file).
    private(set) var warnings: [String] = []
    /// A top-level box ran past the end of the file and was cut.
    private(set) var truncated = false

    init(source: any ByteSource) { self.source = source }

    /// The top-level boxes. A top-level mdat/free box that runs past the end of the file (an
    /// interrupted download) is cut at the end with a warning; any other box that does is an error.
    mutating func topLevel() throws(MP4Error) -> [Box] {
        try children(from: 0, to: source.size, parentPath: "", depth: 0, topLevel: true)
    }

    private mutating func children(from start: Int64, to end: Int64, parentPath: String, depth: Int, topLevel: Bool = false) throws(MP4Error) -> [Box] {
        var boxes: [Box] = []
        var offset = start
        while end - offset >= 8 {
            if topLevel {
                topLevelCount += 1
                guard topLevelCount <= Self.maxTopLevelBoxes else {
                    throw MP4Error(box: "", reason: "more than \(Self.maxTopLevelBoxes) top-level boxes: not a sane MP4 file")
                }
            } else {
                boxCount += 1
                guard boxCount <= Self.maxBoxes else {
                    throw MP4Error(box: parentPath, reason: "more than \(Self.maxBoxes) boxes: not a sane MP4 file")
                }
            }
            let header = try source.read(at: offset, count: Int(min(16, end - offset)))
            let size32 = UInt32(header[0]) << 24 | UInt32(header[1]) << 16 | UInt32(header[2]) << 8 | UInt32(header[3])
            let type = FourCC(UInt32(header[4]) << 24 | UInt32(header[5]) << 16 | UInt32(header[6]) << 8 | UInt32(header[7]))
            let path = parentPath.isEmpty ? type.description : "\(parentPath)/\(type)"
            var headerSize: Int64 = 8
            var size: Int64
            switch size32 {
            case 0: size = end - offset // "to the end of the enclosing space"
            case 1:
                guard header.count == 16 else { throw MP4Error(box: path, reason: "the 64-bit size is cut off") }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                headerSize = 16
                size = large > UInt64(Int64.max) ? Int64.max : Int64(large)
            default: size = Int64(size32)
            }
            guard size >= headerSize else {
                throw MP4Error(box: path, reason: "box size \(size) is smaller than its \(headerSize)-byte header")
            }
            if size > end - offset {
                // A download cut in a fragment's moof loses that fragment (MovieFragments stops there).
                if topLevel && (type == "mdat" || type == "free" || type == "skip" || type == "moof") {
                    warnings.append("\(path) claims \(size) bytes but the file ends after \(end - offset): the file is truncated")
                    truncated = true
                    size = end - offset
                } else {
                    let space = topLevel ? "the file ends after \(end - offset) (truncated?)" : "only \(end - offset) remain in its parent"
                    throw MP4Error(box: path, reason: "box claims \(size) bytes, but \(space)")
                }
            }
            var box = Box(type: type, path: path, offset: offset, payloadOffset: offset + headerSize, payloadSize: size - headerSize)
            if Self.containers.contains(type) || type == "meta" || parentPath.hasSuffix("ilst") {
                guard depth < Self.maxDepth else {
                    throw MP4Error(box: path, reason: "boxes nest deeper than \(Self.maxDepth) levels")
                }
                var childStart = box.payloadOffset
                if type == "meta" { childStart += try metaVersionWordSize(box) }
                box.children = try children(from: childStart, to: offset + size, parentPath: path, depth: depth + 1)
            }
            boxes.append(box)
            offset += size
        }
        return boxes
    }

    /// ISO `meta` is a full box (4 bytes of version and flags before its children); QuickTime's
    /// is not. Tell them apart by where the `hdlr` child starts.
    private func metaVersionWordSize(_ meta: Box) throws(MP4Error) -> Int64 {
        guard meta.payloadSize >= 12 else { return 0 }
        let head = try source.read(at: meta.payloadOffset, count: 12)
        return head[4..<8].elementsEqual("hdlr".utf8) ? 0 : 4
    }
}

extension BoxTreeReader {
    /// The boxes between two offsets, under a given path (the children of a sample entry).
    mutating func children(of path: String, from start: Int64, to end: Int64) throws(MP4Error) -> [Box] {
        try children(from: start, to: end, parentPath: path, depth: 8)
    }
}
