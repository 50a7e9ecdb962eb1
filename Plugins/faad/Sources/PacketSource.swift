import MP4

/// AAC access units in decoding order and where their audio lies on the output timeline: the
/// abstraction that lets one decoder loop play both MP4 files and raw ADTS streams.
protocol PacketSource: AnyObject {
    var packetCount: Int { get }
    /// The bytes of packet `index` (valid until the next call).
    func withPacket<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> R) throws(PacketError) -> R
    /// The output frame at which packet `index`'s audio starts, counted from the first packet
    /// (before gapless trimming). `index == packetCount` gives the end.
    func startFrame(ofPacket index: Int) -> Int64
    /// The packet whose audio contains output frame `frame`.
    func packet(containing frame: Int64) -> Int
}

enum PacketError: Error {
    /// The packet lies (partly) beyond the end of the file: a truncated download.
    case truncated(packet: Int)
    case io(String)
}

/// The samples of an MP4 audio track, read through a read-ahead buffer: consecutive samples sit
/// side by side in mdat, so one 64 KiB pread serves a hundred packets.
final class MP4PacketSource: PacketSource {
    let table: SampleTable
    let reader: ReadAheadFile
    /// Output frames per media time unit, as a fraction (2/1 for implicit SBR on a core-rate
    /// timescale, 1/1 usually).
    var outputRate: Int64
    let timescale: Int64

    init(table: SampleTable, reader: ReadAheadFile, outputRate: Int64, timescale: Int64) {
        self.table = table
        self.reader = reader
        self.outputRate = outputRate
        self.timescale = timescale
    }

    var packetCount: Int { table.sampleCount }

    func withPacket<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) -> R) throws(PacketError) -> R {
        try reader.withBytes(at: table.offset(ofSample: index), count: Int(table.size(ofSample: index)), packet: index, body)
    }

    func startFrame(ofPacket index: Int) -> Int64 { table.startTime(ofSample: index) * outputRate / timescale }

    func packet(containing frame: Int64) -> Int { table.sample(at: frame * timescale / outputRate) }
}

/// A file read through one reusable buffer of at least 64 KiB.
final class ReadAheadFile {
    private let source: any ByteSource
    private var buffer: [UInt8] = []
    private var bufferStart: UInt64 = 0
    private let readAhead = 1 << 16

    init(source: any ByteSource) { self.source = source }

    var size: Int64 { source.size }

    func withBytes<R>(at offset: UInt64, count: Int, packet: Int, _ body: (UnsafeRawBufferPointer) -> R) throws(PacketError) -> R {
        guard offset.addingReportingOverflow(UInt64(count)).partialValue <= UInt64(source.size), offset <= UInt64(source.size) else {
            throw .truncated(packet: packet)
        }
        if offset < bufferStart || offset + UInt64(count) > bufferStart + UInt64(buffer.count) {
            let length = Int(min(Int64(max(count, readAhead)), source.size - Int64(offset)))
            do { buffer = try source.read(at: Int64(offset), count: length) } catch { throw .io(error.reason) }
            bufferStart = offset
        }
        let start = Int(offset - bufferStart)
        return buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
    }
}
