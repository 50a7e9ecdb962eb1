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

    /// Returns the titles of the chapters left out because they start after the end of the audio.
    func report(_ movie: MP4Movie, rate: Int64, totalFrames: Int64) -> [String] {
        report(tags: movie.tags, pictures: movie.pictures, chapters: movie.chapters, rate: rate, totalFrames: totalFrames)
    }

    /// `totalFrames` nil: the length is unknown (a file that does not play), no chapter is past it.
    /// Returns the titles of the chapters left out because they start after the end of the audio.
    func report(tags: [MP4Tag], pictures: [MP4Picture], chapters: [MP4Chapter], rate: Int64, totalFrames: Int64?) -> [String] {
        if let tag {
            for item in tags { item.key.withCString { key in item.value.withCString { tag(ctx, key, $0) } } }
        }
        if let picture {
            for (index, item) in pictures.enumerated() {
                item.data.withUnsafeBufferPointer { picture(ctx, item.mimeType, index == 0 ? 3 : 0, $0.baseAddress, $0.count) }
            }
        }
        guard let chapter else { return [] }
        var leftOut: [String] = []
        for item in chapters {
            let start = item.startFrame(rate: rate)
            guard start <= totalFrames ?? Int64.max else {
                leftOut.append(item.title)
                continue
            }
            item.title.withCString { chapter(ctx, start, $0) }
        }
        return leftOut
    }

    /// One line for what open() has to say about the length: the file playing less than it
    /// declares, and the chapters that start after the end (a cut 47-hour book may leave out
    /// dozens: they are counted, not listed one line each).
    static func warning(shortfall: String?, chaptersLeftOut titles: [String]) -> String? {
        guard !titles.isEmpty else { return shortfall }
        let chapters = titles.count == 1 ? "chapter '\(titles[0])' starts after the end of the audio and is left out"
            : "\(titles.count) chapters ('\(titles[0])' to '\(titles[titles.count - 1])') start after the end of the audio and are left out"
        return shortfall.map { "\($0); \(chapters)" } ?? chapters
    }
}
