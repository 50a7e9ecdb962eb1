// The libFuzzer entry point for the MP4 parser, built by scripts/fuzz-mp4.sh (`make fuzz`) with
// `swiftc -sanitize=fuzzer,address -parse-as-library` together with the sources of Plugins/MP4,
// as one module (hence no import). Every input must parse or throw MP4Error; libFuzzer reports a
// crash, a hang (-timeout) or a single allocation over -malloc_limit_mb as a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let movie = try? MP4Movie.parse(MemoryByteSource(bytes)) else { return 0 }
    // What a player does next with a parsed file: look samples and times up, place chapters.
    let samples = movie.audio.samples
    for index in Set([0, samples.sampleCount / 2, samples.sampleCount - 1]) {
        _ = samples.offset(ofSample: index)
        _ = samples.size(ofSample: index)
        _ = samples.sample(at: samples.startTime(ofSample: index))
    }
    _ = samples.sample(at: samples.totalDuration / 3)
    _ = movie.chapters.map { $0.startFrame(rate: 48000) }
    _ = try? AudioSpecificConfig(movie.audio.decoderConfig)
    return 0
}
