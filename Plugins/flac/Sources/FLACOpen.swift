import ABPluginABI
import CFLAC
import PluginKit
#if canImport(Glibc)
import Glibc
#endif

// libFLAC's callbacks: C functions that find the decoder through client_data (unretained: the
// decoder owns libFLAC's instance, so it outlives every callback).
private func decoder(_ client: UnsafeMutableRawPointer?) -> FLACDecoder {
    Unmanaged<FLACDecoder>.fromOpaque(client!).takeUnretainedValue()
}

private let writeCallback: FLAC__StreamDecoderWriteCallback = { _, frame, planes, client in
    decoder(client).write(frame!, planes!)
}

private let metadataCallback: FLAC__StreamDecoderMetadataCallback = { _, block, client in
    guard let block else { return }
    decoder(client).metadata?.receive(block)
}

private let errorCallback: FLAC__StreamDecoderErrorCallback = { _, status, client in
    decoder(client).error(status)
}

/// Opens `path` and reads everything up to the first audio frame, reporting tags, pictures and
/// chapters on the way. Blocks (file I/O).
func openFLAC(path: String, host: Host, metadata callbacks: MetadataCallbacks?) throws(DecoderOpenError) -> FLACDecoder {
    // Looked at ourselves first: libFLAC's init says only "error opening file", and a directory
    // opens fine with fopen.
    var status = stat()
    guard stat(path, &status) == 0 else {
        throw DecoderOpenError(ABP_ERR_IO, "cannot open the file: \(String(cString: strerror(errno)))")
    }
    if status.st_mode & S_IFMT == S_IFDIR { throw DecoderOpenError(ABP_ERR_IO, "it is a directory, not a file") }
    if status.st_mode & S_IFMT == S_IFREG && status.st_size == 0 { throw DecoderOpenError(ABP_ERR_FORMAT, "the file is empty") }

    guard let flac = FLAC__stream_decoder_new() else { throw DecoderOpenError(ABP_ERR_NOMEM, "out of memory") }
    let decoder = FLACDecoder(flac: flac, host: host)
    let metadata = FLACMetadata(callbacks: callbacks, host: host)
    decoder.metadata = metadata
    defer { decoder.metadata = nil }
    FLAC__stream_decoder_set_metadata_respond(flac, FLAC__METADATA_TYPE_VORBIS_COMMENT)
    FLAC__stream_decoder_set_metadata_respond(flac, FLAC__METADATA_TYPE_PICTURE)
    FLAC__stream_decoder_set_metadata_respond(flac, FLAC__METADATA_TYPE_CUESHEET)

    errno = 0
    let client = Unmanaged.passUnretained(decoder).toOpaque()
    let initStatus = FLAC__stream_decoder_init_file(flac, path, writeCallback, metadataCallback, errorCallback, client)
    switch initStatus {
    case FLAC__STREAM_DECODER_INIT_STATUS_OK: break
    case FLAC__STREAM_DECODER_INIT_STATUS_ERROR_OPENING_FILE:
        throw DecoderOpenError(ABP_ERR_IO, "cannot open the file: \(errno != 0 ? String(cString: strerror(errno)) : "unknown error")")
    case FLAC__STREAM_DECODER_INIT_STATUS_MEMORY_ALLOCATION_ERROR: throw DecoderOpenError(ABP_ERR_NOMEM, "out of memory")
    default:
        let name = String(cString: abp_flac_init_status_name(initStatus))
        throw DecoderOpenError(ABP_ERR_INTERNAL, "libFLAC could not start: \(name)")
    }

    // STREAMINFO first, then the comments, pictures and cuesheet through the metadata callback.
    let complete = FLAC__stream_decoder_process_until_end_of_metadata(flac) != 0
    let state = decoder.state
    guard complete, let info = metadata.streamInfo else {
        switch state {
        case FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR: throw DecoderOpenError(ABP_ERR_NOMEM, "out of memory")
        case FLAC__STREAM_DECODER_ABORTED: throw DecoderOpenError(ABP_ERR_IO, "reading the file failed")
        case _ where metadata.streamInfo != nil:
            throw DecoderOpenError(ABP_ERR_FORMAT, "the file ends inside its metadata (truncated)")
        case _ where decoder.sawStreamErrors || state != FLAC__STREAM_DECODER_END_OF_STREAM:
            throw DecoderOpenError(ABP_ERR_FORMAT, "not a FLAC stream")
        default:
            throw DecoderOpenError(ABP_ERR_FORMAT, "not a FLAC stream, or truncated before its stream info")
        }
    }
    guard info.sample_rate > 0, (1...8).contains(info.channels) else {
        throw DecoderOpenError(ABP_ERR_UNSUPPORTED, "unsupported format: \(info.sample_rate) Hz, \(info.channels) channels")
    }
    decoder.channels = Int(info.channels)
    decoder.rate = Int(info.sample_rate)
    decoder.bitsPerSample = Int(info.bits_per_sample)
    decoder.totalFrames = metadata.totalFrames
    if state == FLAC__STREAM_DECODER_END_OF_STREAM, decoder.totalFrames != nil {
        throw DecoderOpenError(ABP_ERR_FORMAT, "no audio after the metadata (truncated)")
    }
    metadata.finish()
    let ends = decoder.checkEnds()
    if !ends.firstDecodes {
        throw DecoderOpenError(ABP_ERR_FORMAT, "no audio decodes: the file is cut short after its header (truncated)")
    }
    if !ends.lastDecodes {
        host.log(ABP_LOG_WARNING, "the file is shorter than its stream info says: truncated, it plays what it has")
    }
    return decoder
}
