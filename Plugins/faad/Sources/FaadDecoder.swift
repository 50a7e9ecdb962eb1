import ABPluginABI
import CFaad
import MP4
import PluginKit

/// How libfaad is started on a stream: with the AudioSpecificConfig from an MP4 esds, or from
/// the first ADTS header of where decoding starts.
enum FaadConfiguration {
    case audioSpecificConfig([UInt8])
    case adts
}

/// One decoding session: a libfaad handle fed packets from a `PacketSource`, with the output
/// trimmed to the gapless window [startFrame, startFrame + totalFrames) of the packets' timeline.
///
/// Seeking restarts libfaad a few packets before the target and discards up to it: AAC's
/// MDCT overlap needs the previous frame (SBR and PS more: `prerollPacketsWithSBR`), and libfaad
/// emits nothing for the first frame after it starts, so a fresh decoder that begins early produces
/// the samples a continuous decode would from the frame before the target on (bit-exact on test
/// files; except in bands the encoder coded as noise (PNS), which libfaad fills from a random
/// generator whose state no restart can reproduce: within 1e-3 there). A fresh handle rather than
/// NeAACDecPostSeekReset, so that the state after a seek never depends on what was played before.
final class FaadDecoder: DecoderInstance {
    static let prerollPackets = 2
    /// SBR and PS keep state across frames that a fresh handle only rebuilds from the headers
    /// the encoder repeats every few frames: restarted 2 packets early, FDK's HE-AAC v2 came out
    /// with the wrong stereo image for 3 frames after some seeks (0.6 apart), from 12 packets
    /// early every seek was bit-exact on the committed HE-AAC files. 16 leaves a margin; it costs
    /// a few milliseconds per seek.
    static let prerollPacketsWithSBR = 16

    let packets: any PacketSource
    let configuration: FaadConfiguration
    let host: Host
    /// What read() produces.
    let rate: Int64
    let channels: Int
    /// The profile ("AAC-LC", "HE-AAC v2"), for the host to show.
    let codec: String
    /// The gapless window, in frames of the packets' timeline.
    let startFrame: Int64
    let totalFrames: Int64
    let lastError = LastError()
    /// The user was told at open that the file is cut short: reaching the cut is then no news.
    let truncationAnnounced: Bool

    private var handle: NeAACDecHandle?
    /// libfaad's channel for each output channel (SMPTE order; a mono stream libfaad upmixes to
    /// two identical channels is taken from its first).
    private let channelMap: [Int]
    private let identityMap: [Int]
    private var nextPacket = 0
    private let preroll: Int
    /// The timeline frame of the next sample libfaad emits.
    private var decodedFrame: Int64 = 0
    /// The output frame (0-based, in the window) the next read() returns.
    private var position: Int64 = 0
    private var pending: [Float] = []
    private var pendingRead = 0
    private var corruptPackets = 0
    static let reportedCorruptPackets = 3

    /// What a first decode taught about the stream: its real rate and channels (implicit SBR and
    /// PS show only in the audio) and libfaad's channel positions.
    struct StreamShape {
        let rate: Int64
        let faadChannels: Int
        let channelMap: [Int]
        let framesPerPacket: Int64
        /// How many packets before a seek target a fresh handle starts decoding.
        let prerollPackets: Int
        /// The profile as listeners know it ("AAC-LC", "HE-AAC", "HE-AAC v2"): SBR and PS too
        /// show only in the audio (implicit signalling).
        let codec: String
    }

    init(packets: any PacketSource, configuration: FaadConfiguration, host: Host, shape: StreamShape,
         startFrame: Int64, totalFrames: Int64, truncationAnnounced: Bool = false) throws(FaadError) {
        self.truncationAnnounced = truncationAnnounced
        self.packets = packets
        self.configuration = configuration
        self.host = host
        rate = shape.rate
        codec = shape.codec
        channels = shape.channelMap.count
        channelMap = shape.channelMap
        preroll = shape.prerollPackets
        identityMap = Array(shape.channelMap.indices)
        self.startFrame = startFrame
        self.totalFrames = totalFrames
        try restart(at: 0)
    }

    deinit { if let handle { NeAACDecClose(handle) } }

    /// Decodes the first packets with a throw-away handle to learn the stream's shape.
    static func shape(of packets: any PacketSource, configuration: FaadConfiguration, declaredChannels: Int) throws(FaadError) -> StreamShape {
        let handle = try open(configuration, packets: packets, at: 0)
        defer { NeAACDecClose(handle) }
        var info = NeAACDecFrameInfo()
        for index in 0..<min(packets.packetCount, 8) {
            let samples = try decode(handle, packets: packets, index: index, info: &info)
            guard info.error == 0 else { throw FaadError(ABP_ERR_FORMAT, "the first AAC frames do not decode: \(errorText(info.error))") }
            guard samples != nil, info.samples > 0, info.channels > 0 else { continue }
            let faadChannels = Int(info.channels)
            let positions = withUnsafeBytes(of: info.channel_position) { Array($0.prefix(faadChannels)) }
            let map = try channelMap(positions: positions, declaredChannels: declaredChannels, ps: info.ps != 0)
            return StreamShape(rate: Int64(info.samplerate), faadChannels: faadChannels, channelMap: map,
                               framesPerPacket: Int64(Int(info.samples) / faadChannels),
                               prerollPackets: info.ps != 0 || info.sbr != 0 ? Self.prerollPacketsWithSBR : Self.prerollPackets,
                               codec: codecName(info))
        }
        throw FaadError(ABP_ERR_FORMAT, "no audio in the first AAC frames")
    }

    /// The profile a decoded frame shows: PS makes HE-AAC v2, SBR alone HE-AAC, else the core
    /// object type (ISO 14496-3's numbers).
    private static func codecName(_ info: NeAACDecFrameInfo) -> String {
        if info.ps != 0 { return "HE-AAC v2" }
        if info.sbr != 0 { return "HE-AAC" }
        switch info.object_type {
        case 1: return "AAC Main"
        case 2: return "AAC-LC"
        case 3: return "AAC SSR"
        case 4: return "AAC-LTP"
        case 23: return "AAC-LD"
        default: return "AAC"
        }
    }

    /// SMPTE order (FL FR FC LFE BL BR SL SR) from libfaad's channel positions. A mono stream
    /// without PS that libfaad upmixed to stereo stays mono.
    private static func channelMap(positions: [UInt8], declaredChannels: Int, ps: Bool) throws(FaadError) -> [Int] {
        if positions.count == 2 && declaredChannels == 1 && !ps { return [0] }
        if positions.count <= 2 { return Array(positions.indices) }
        guard positions.count <= 8 else { throw FaadError(ABP_ERR_UNSUPPORTED, "\(positions.count) channels: the ABI carries at most 8") }
        // SMPTE rank of each libfaad position (FRONT_CHANNEL_CENTER = 1 ... LFE_CHANNEL = 9).
        let rank: [UInt8: Int] = [2: 0, 3: 1, 1: 2, 9: 3, 6: 4, 7: 5, 8: 6, 4: 7, 5: 8]
        return positions.indices.sorted { rank[positions[$0], default: 99] < rank[positions[$1], default: 99] }
    }

    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int64) -> Int64 {
        guard maxFrames > 0 else { return lastError.fail(ABP_ERR_INVALID, "read asked for \(maxFrames) frames") }
        while pendingRead >= pending.count {
            guard position < totalFrames, nextPacket < packets.packetCount else { return 0 }
            do throws(FaadError) {
                try decodeNextPacket()
            } catch {
                if error.status == ABP_ERR_FORMAT, error.truncated {
                    if !truncationAnnounced { host.log(ABP_LOG_WARNING, error.reason) }
                    nextPacket = packets.packetCount // the end: later reads say so without a new warning
                    return 0
                }
                return lastError.fail(error.status, error.reason)
            }
        }
        let frames = min(Int64(pending.count - pendingRead) / Int64(channels), maxFrames, totalFrames - position)
        guard frames > 0 else { return 0 }
        pending.withUnsafeBufferPointer { source in
            buffer.update(from: source.baseAddress! + pendingRead, count: Int(frames) * channels)
        }
        pendingRead += Int(frames) * channels
        position += frames
        return frames
    }

    func seek(to frame: Int64) -> abp_status {
        guard (0...totalFrames).contains(frame) else {
            return lastError.fail(ABP_ERR_SEEK, "frame \(frame) is outside the stream (0...\(totalFrames))")
        }
        let target = packets.packet(containing: startFrame + frame)
        do throws(FaadError) {
            try restart(at: max(0, target - preroll))
        } catch {
            return lastError.fail(ABP_ERR_SEEK, "seek failed: \(error.reason)")
        }
        position = frame
        return ABP_OK
    }

    /// A fresh libfaad handle that decodes from packet `index` on.
    private func restart(at index: Int) throws(FaadError) {
        if let handle { NeAACDecClose(handle) }
        handle = nil
        handle = try Self.open(configuration, packets: packets, at: index)
        nextPacket = index
        decodedFrame = packets.startFrame(ofPacket: index)
        pending.removeAll(keepingCapacity: true)
        pendingRead = 0
    }

    /// Decodes one packet into `pending`, keeping only the frames inside the window from the
    /// current position on.
    private func decodeNextPacket() throws(FaadError) {
        guard let handle else { throw FaadError(ABP_ERR_INTERNAL, "no decoder") }
        let index = nextPacket
        nextPacket += 1
        var info = NeAACDecFrameInfo()
        let output = try Self.decode(handle, packets: packets, index: index, info: &info)
        pending.removeAll(keepingCapacity: true)
        pendingRead = 0
        guard info.error == 0 else {
            concealCorruptPacket(index, error: info.error)
            return
        }
        let faadChannels = Int(info.channels)
        guard let output, info.samples > 0, faadChannels > 0 else {
            // libfaad emits nothing for the first frame after a start. Its slot is silence where
            // the window wants it (an edit list starting at 0 does: ffmpeg decodes that frame
            // to the encoder's near-silent priming); elsewhere it is before the window.
            fillSilence(fromPacketStart: decodedFrame, to: packets.startFrame(ofPacket: index + 1))
            return
        }
        guard faadChannels >= channelMap.count, channelMap.allSatisfy({ $0 < faadChannels }), Int64(info.samplerate) == rate else {
            throw FaadError(ABP_ERR_FORMAT, "AAC frame \(index) changes the format to \(faadChannels) channels at \(info.samplerate) Hz")
        }
        let frames = Int(info.samples) / faadChannels
        let first = decodedFrame
        decodedFrame += Int64(frames)
        // Only the part from the current position to the end of the window is wanted.
        let (from, to) = wantedRange(packetStart: first, frames: frames)
        guard from < to else { return }
        let samples = output.assumingMemoryBound(to: Float.self)
        let count = (to - from) * channels
        if channelMap == identityMap && faadChannels == channels {
            // The common case (mono or stereo as libfaad gives it): one copy.
            pending.append(contentsOf: UnsafeBufferPointer(start: samples + from * faadChannels, count: count))
            return
        }
        pending.reserveCapacity(count)
        for frame in from..<to {
            for faadChannel in channelMap { pending.append(samples[frame * faadChannels + faadChannel]) }
        }
    }

    /// A damaged frame in the middle of a 20-hour book must not end the book: its slot becomes
    /// silence of the frame's length (so every later position stays where it was) and decoding
    /// goes on with the next frame, on the same handle (libfaad rejects a bad frame while parsing
    /// it, before its overlap state changes). The first few are reported, each in one line.
    private func concealCorruptPacket(_ index: Int, error code: UInt8) {
        corruptPackets += 1
        if corruptPackets <= Self.reportedCorruptPackets {
            let more = corruptPackets == Self.reportedCorruptPackets ? " (further damaged frames are not reported)" : ""
            host.log(ABP_LOG_WARNING, "AAC frame \(index) is damaged (\(Self.errorText(code))): played as silence\(more)")
        }
        fillSilence(fromPacketStart: decodedFrame, to: packets.startFrame(ofPacket: index + 1))
    }

    /// Silence in `pending` for the wanted part of the timeline frames [first, end).
    private func fillSilence(fromPacketStart first: Int64, to end: Int64) {
        decodedFrame = end
        let (from, to) = wantedRange(packetStart: first, frames: Int(end - first))
        guard from < to else { return }
        pending.append(contentsOf: repeatElement(0, count: (to - from) * channels))
    }

    /// The part of a packet's frames, `frames` long from timeline frame `packetStart`, that lies
    /// between the current position and the end of the gapless window.
    private func wantedRange(packetStart: Int64, frames: Int) -> (from: Int, to: Int) {
        let wantedStart = startFrame + position, wantedEnd = startFrame + totalFrames
        let from = Int(max(0, min(Int64(frames), wantedStart - packetStart)))
        let to = Int(max(0, min(Int64(frames), wantedEnd - packetStart)))
        return (from, to)
    }

    private static func decode(_ handle: NeAACDecHandle, packets: any PacketSource, index: Int,
                               info: inout NeAACDecFrameInfo) throws(FaadError) -> UnsafeMutableRawPointer? {
        do {
            return try packets.withPacket(index) { bytes in
                NeAACDecDecode(handle, &info, UnsafeMutablePointer(mutating: bytes.bindMemory(to: UInt8.self).baseAddress), UInt(bytes.count))
            }
        } catch {
            switch error {
            case .truncated(let packet): throw FaadError(ABP_ERR_FORMAT, "the file is truncated: the audio ends at AAC frame \(packet)", truncated: true)
            case .io(let reason): throw FaadError(ABP_ERR_IO, reason)
            }
        }
    }

    private static func open(_ configuration: FaadConfiguration, packets: any PacketSource, at index: Int) throws(FaadError) -> NeAACDecHandle {
        guard let handle = NeAACDecOpen() else { throw FaadError(ABP_ERR_NOMEM, "libfaad could not make a decoder") }
        let config = NeAACDecGetCurrentConfiguration(handle)!
        config.pointee.outputFormat = UInt8(FAAD_FMT_FLOAT)
        config.pointee.downMatrix = 0
        _ = NeAACDecSetConfiguration(handle, config)
        var rate: UInt = 0
        var channels: UInt8 = 0
        let ok: Bool
        switch configuration {
        case .audioSpecificConfig(var asc):
            ok = NeAACDecInit2(handle, &asc, UInt(asc.count), &rate, &channels) >= 0
        case .adts:
            ok = (try? packets.withPacket(index) { bytes in
                NeAACDecInit(handle, UnsafeMutablePointer(mutating: bytes.bindMemory(to: UInt8.self).baseAddress), UInt(bytes.count), &rate, &channels)
            }).map { $0 >= 0 } ?? false
        }
        guard ok else {
            NeAACDecClose(handle)
            throw FaadError(ABP_ERR_UNSUPPORTED, "libfaad refuses the AAC configuration (an AAC profile it cannot decode?)")
        }
        return handle
    }

    static func errorText(_ code: UInt8) -> String {
        guard let text = NeAACDecGetErrorMessage(code) else { return "libfaad error \(code)" }
        return String(cString: text)
    }
}

/// An ABI status with a one-line reason.
struct FaadError: DecoderOpenFailure {
    let status: abp_status
    let reason: String
    var truncated = false
    /// The tags and chapters of an MP4 file that cannot be played, to report with the failure.
    var unplayable: MP4Metadata?

    init(_ status: abp_status, _ reason: String, truncated: Bool = false) {
        self.status = status
        self.reason = reason
        self.truncated = truncated
    }
}
