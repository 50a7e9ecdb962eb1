import MP4

/// Where the source's audio lies on the decoded timeline: the encoder's priming is cut from the
/// start and its padding from the end. One rule for every AAC stream: priming is skipped when the
/// file declares it, and only then (ffmpeg plays undeclared priming, and a raw ADTS stream and
/// the same stream muxed into MP4 must give the same frames). What declares it, first found wins:
///
/// 1. the edit list (elst: where presentation starts, and for how long);
/// 2. iTunes' iTunSMPB record (priming and length in output frames);
/// 3. a negative composition offset on the first sample (ctts, or a fragment's trun): the first
///    sample is presented that long before the timeline starts;
/// 4. an audio roll group on the first sample (sgpd/sbgp 'roll', distance -n): the first n
///    samples only prime the decoder. ffmpeg writes -1 for AAC, its 1,024 frames of priming.
///
/// Without 1 or 2 the padding at the end is not known: the stream plays to its last sample
/// (ffmpeg's muxer already shortens the last sample's duration to the source's end).
struct GaplessWindow {
    let start: Int64
    let frames: Int64

    init(movie: MP4Movie, packets: MP4PacketSource, rate: Int64) {
        let audio = movie.audio
        let streamEnd = packets.startFrame(ofPacket: packets.packetCount)
        var priming: Int64 = 0, end = streamEnd
        if let edit = audio.edit {
            priming = edit.mediaStart * rate / audio.timescale
            if let duration = edit.duration { end = priming + duration * rate / audio.timescale }
        } else if let gapless = movie.iTunesGapless {
            priming = gapless.priming
            end = priming + gapless.sampleCount
        } else if let offset = audio.firstCompositionOffset, offset < 0 {
            priming = min(-offset, audio.samples.totalDuration) * rate / audio.timescale
        } else if let roll = audio.firstRollDistance, roll < 0 {
            priming = packets.startFrame(ofPacket: min(-roll, packets.packetCount))
        }
        // With no priming (an edit starting at 0) the first frame, which libfaad does not
        // emit, is silence: the timeline is the file's, as ffmpeg plays it.
        start = priming
        frames = max(0, min(end, streamEnd) - start)
    }
}
