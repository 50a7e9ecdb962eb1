// The AAC decoder, wrapping libfaad2, for MP4/M4A/M4B files and raw ADTS streams. libfaad only
// decodes AAC frames: the container (sample tables, edit lists, tags, covers, chapters) comes from
// our MP4 module, and ADTS streams are indexed by ADTSStream. This file maps them onto the ABI:
// the gapless window (elst, else iTunSMPB), the exact length, seeks and metadata.
public import ABPluginABI
import CFaad
import MP4
import PluginKit

private let pluginID = "faad"

/// What open() builds: the decoder and, for MP4 files, the movie for its metadata, and the line
/// saying that the file plays less than it declares (logged once the chapters past the end are
/// known, so that one line says all).
private struct OpenedStream {
    let decoder: FaadDecoder
    let movie: MP4Movie?
    var shortfall: String?
}

private func openStream(host: Host, path: String) throws(FaadError) -> OpenedStream {
    let source: FileByteSource
    do { source = try FileByteSource(path: path) } catch { throw FaadError(ABP_ERR_IO, error.reason) }
    guard source.size > 0 else { throw FaadError(ABP_ERR_FORMAT, "the file is empty") }
    let head: [UInt8]
    do { head = try source.read(at: 0, count: Int(min(source.size, 12))) } catch { throw FaadError(ABP_ERR_IO, error.reason) }
    guard looksLikeMP4(head) else { return try openADTS(source, host: host) }
    do throws(FaadError) {
        return try openMP4(source, host: host)
    } catch {
        // Damaged sample tables, another codec: the tags and chapters may still be readable.
        var failure = error
        if failure.status == ABP_ERR_FORMAT || failure.status == ABP_ERR_UNSUPPORTED { failure.unplayable = MP4Metadata.read(source) }
        throw failure
    }
}

private func openMP4(_ source: FileByteSource, host: Host) throws(FaadError) -> OpenedStream {
    let movie: MP4Movie
    do { movie = try MP4Movie.parse(source) } catch { throw FaadError(ABP_ERR_FORMAT, error.description) }
    for warning in movie.warnings { host.log(ABP_LOG_WARNING, warning) }
    let audio = movie.audio
    guard audio.format == "mp4a", let oti = audio.objectTypeIndication, [0x40, 0x66, 0x67, 0x68].contains(oti) else {
        let codec = audio.objectTypeIndication.map { "\(audio.format) (object type 0x\(String($0, radix: 16)))" } ?? "\(audio.format)"
        throw FaadError(ABP_ERR_UNSUPPORTED, "the audio track is \(codec), not AAC")
    }
    let config: AudioSpecificConfig
    do { config = try AudioSpecificConfig(audio.decoderConfig) } catch {
        throw FaadError(ABP_ERR_FORMAT, "\(audio.trackPath)/mdia/minf/stbl/stsd/mp4a/esds: \(error.reason)")
    }
    let reader = ReadAheadFile(source: source)
    let packets = MP4PacketSource(table: audio.samples, reader: reader, outputRate: Int64(config.sampleRate), timescale: audio.timescale)
    let configuration = FaadConfiguration.audioSpecificConfig(audio.decoderConfig)
    let shape = try FaadDecoder.shape(of: packets, configuration: configuration,
                                      declaredChannels: config.channelConfiguration > 0 ? config.channelConfiguration : audio.channelCount)
    packets.outputRate = shape.rate
    let window = GaplessWindow(movie: movie, packets: packets, rate: shape.rate)
    let decoder = try FaadDecoder(packets: packets, configuration: configuration, host: host, shape: shape,
                                  startFrame: window.start, totalFrames: window.frames, truncationAnnounced: movie.truncated)
    let shortfall = DeclaredLength(movie: movie, window: window, rate: shape.rate)
        .shortfall(playing: window, rate: shape.rate, tolerance: shape.framesPerPacket, because: audio.incompleteBecause)
    return OpenedStream(decoder: decoder, movie: movie, shortfall: shortfall)
}

private func openADTS(_ source: FileByteSource, host: Host) throws(FaadError) -> OpenedStream {
    let stream: ADTSStream
    do { stream = try ADTSStream(source: source) } catch {
        throw FaadError(ABP_ERR_FORMAT, "not an MP4 file and \(error.reason)")
    }
    for warning in stream.warnings { host.log(ABP_LOG_WARNING, warning) }
    let shape = try FaadDecoder.shape(of: stream, configuration: .adts, declaredChannels: stream.first.channelConfiguration)
    stream.framesPerPacket = shape.framesPerPacket
    // ADTS says nothing of the encoder's priming, so every frame is on the timeline (the first,
    // which libfaad does not emit, as silence), as the same stream muxed into MP4 without an
    // edit that trims it plays: one rule for both (GaplessWindow).
    let frames = Int64(stream.packetCount) * shape.framesPerPacket
    let decoder = try FaadDecoder(packets: stream, configuration: .adts, host: host, shape: shape,
                                  startFrame: 0, totalFrames: frames)
    return OpenedStream(decoder: decoder, movie: nil)
}

/// An MP4 file starts with a box whose type is one of these (ftyp almost always).
private func looksLikeMP4(_ head: [UInt8]) -> Bool {
    guard head.count >= 8 else { return false }
    let type = String(decoding: head[4..<8], as: UTF8.self)
    return ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot"].contains(type)
}

// MARK: - Probe

/// ftyp at 4 -> 100; another MP4 top-level box -> 60; two ADTS headers in a row -> 100, one -> 40;
/// only the extension -> 10.
private func probe(path: UnsafePointer<CChar>?, head: UnsafeBufferPointer<UInt8>) -> Int32 {
    let bytes = Array(head)
    if bytes.count >= 8 && bytes[4..<8].elementsEqual("ftyp".utf8) { return 100 }
    if looksLikeMP4(bytes) { return 60 }
    var offset = 0
    if bytes.count >= 10, bytes[0..<3].elementsEqual("ID3".utf8) {
        offset = 10 + bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
    }
    if offset < bytes.count, let header = ADTSStream.Header(bytes[offset...]) {
        let next = offset + header.frameLength
        if next + 7 <= bytes.count { return ADTSStream.Header(bytes[next...]) != nil ? 100 : 0 }
        return 40
    }
    return extensionScore(path: path, extensions: ["m4a", "m4b", "mp4", "aac"])
}

// MARK: - The plugin

/// The ops table, built once into the descriptor (a global C struct is not Sendable).
private func makeOps() -> abp_decoder_ops {
    decoderOps(
        probe: { path, head, length in
            probe(path: path, head: UnsafeBufferPointer(start: head, count: head == nil ? 0 : length))
        },
        open: { hostAPI, path, _, _, metadata, out, info, error, errorSize in
            openDecoder(path: path, out: out, info: info, error: error, errorSize: errorSize) { (path: String) throws(FaadError) in
                let host = Host(hostAPI, pluginID: pluginID, subject: path)
                let stream: OpenedStream
                do throws(FaadError) {
                    stream = try openStream(host: host, path: path)
                } catch {
                    if let metadata, let unplayable = error.unplayable {
                        // The chapters' frames are at the track's rate, which info tells the host.
                        let rate = unplayable.timescale ?? 0
                        if rate > 0, rate <= 768_000 {
                            info?.pointee.format = abp_format(rate: UInt32(rate), channels: UInt32(min(max(unplayable.channelCount ?? 2, 1), 8)))
                        }
                        _ = MetadataReporter(metadata).report(tags: unplayable.tags, pictures: unplayable.pictures, chapters: unplayable.chapters,
                                                              rate: max(rate, 1), totalFrames: nil)
                    }
                    throw error
                }
                let decoder = stream.decoder
                var chaptersLeftOut: [String] = []
                if let metadata, let movie = stream.movie {
                    chaptersLeftOut = MetadataReporter(metadata).report(movie, rate: decoder.rate, totalFrames: decoder.totalFrames)
                }
                if let line = MetadataReporter.warning(shortfall: stream.shortfall, chaptersLeftOut: chaptersLeftOut) {
                    host.log(ABP_LOG_WARNING, line)
                }
                return OpenedDecoder(decoder, format: abp_format(rate: UInt32(decoder.rate), channels: UInt32(decoder.channels)),
                                     totalFrames: decoder.totalFrames, seekable: true, codec: decoder.codec)
            }
        }
    )
}

private let descriptor = PluginDescriptor(
    id: pluginID, name: "AAC (libfaad2)", version: "1.0.0",
    description: "AAC in MP4/M4A/M4B and raw ADTS: gapless, exact seeks, iTunes tags, cover, QuickTime and Nero chapters",
    capabilities: ABP_CAP_SEEK | ABP_CAP_GAPLESS | ABP_CAP_TAGS | ABP_CAP_CHAPTERS | ABP_CAP_PICTURES,
    extensions: ["m4b", "m4a", "mp4", "aac"], mimeTypes: ["audio/mp4", "audio/x-m4a", "audio/x-m4b", "audio/aac", "audio/aacp"],
    decoder: makeOps()
)

@_cdecl("abplayer_plugin_entry")
public func abplayerPluginEntry(_ host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
    descriptor.entry(for: host)
}
