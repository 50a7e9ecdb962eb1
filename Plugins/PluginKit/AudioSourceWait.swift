public import ABPluginABI

extension abp_audio_source {
    /// The host's `wait` as a PullThread wait, when the source's struct_size reaches it (every 1.x
    /// host's does; a reader never touches a field beyond struct_size).
    public var pullThreadWait: PullThread.WaitForAudio? {
        let needed = MemoryLayout<abp_audio_source>.offset(of: \.wait)! + MemoryLayout<UnsafeRawPointer>.size
        guard Int(struct_size) >= needed, let wait else { return nil }
        let context = ctx
        // Up to 20 ms: the host wakes it sooner when the audio is there or it changes state.
        return { frames in wait(context, frames, 20) }
    }
}
