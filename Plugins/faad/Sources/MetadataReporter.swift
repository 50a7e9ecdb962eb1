import ABPluginABI
import MP4
import PluginKit

/// Pushes tags, pictures and chapters to the host through its callbacks.
struct MetadataReporter {
    let tag: ((UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void)?
    let chapter: ((UnsafeMutableRawPointer?, Int64, UnsafePointer<CChar>?) -> Void)?
    let picture: ((UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UInt32, UnsafePointer<UInt8>?, Int) -> Void)?
    let ctx: UnsafeMutableRawPointer?

    init(_ callbacks: UnsafePointer<abp_metadata_callbacks>) {
        // A host built against an older, shorter struct: never read past its struct_size.
        let size = Int(callbacks.pointee.struct_size)
        func present<T>(_ field: KeyPath<abp_metadata_callbacks, T>) -> Bool {
            MemoryLayout<abp_metadata_callbacks>.offset(of: field)! + MemoryLayout<T>.size <= size
        }
        let value = callbacks.pointee
        tag = present(\.tag) ? value.tag : nil
        chapter = present(\.chapter) ? value.chapter : nil
        picture = present(\.picture) ? value.picture : nil
        ctx = present(\.ctx) ? value.ctx : nil
    }

    func report(_ movie: MP4Movie, rate: Int64, totalFrames: Int64, host: Host) {
        report(tags: movie.tags, pictures: movie.pictures, chapters: movie.chapters, rate: rate, totalFrames: totalFrames, host: host)
    }

    /// `totalFrames` nil: the length is unknown (a file that does not play), no chapter is past it.
    func report(tags: [MP4Tag], pictures: [MP4Picture], chapters: [MP4Chapter], rate: Int64, totalFrames: Int64?, host: Host) {
        if let tag {
            for item in tags { item.key.withCString { key in item.value.withCString { tag(ctx, key, $0) } } }
        }
        if let picture {
            for (index, item) in pictures.enumerated() {
                item.data.withUnsafeBufferPointer { picture(ctx, item.mimeType, index == 0 ? 3 : 0, $0.baseAddress, $0.count) }
            }
        }
        guard let chapter else { return }
        for item in chapters {
            let start = item.startFrame(rate: rate)
            guard start <= totalFrames ?? Int64.max else {
                host.log(ABP_LOG_WARNING, "ignored chapter '\(item.title)': it starts after the end of the audio")
                continue
            }
            item.title.withCString { chapter(ctx, start, $0) }
        }
    }
}
