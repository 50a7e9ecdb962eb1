public import ABPluginABI

/// The host's metadata callbacks, as a decoder's `open` borrows them. A callback beyond the
/// host's `struct_size` (a host built against an older, shorter struct) is never read: it is nil.
public struct MetadataCallbacks {
    private let tagCallback: ((UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Void)?
    private let chapterCallback: ((UnsafeMutableRawPointer?, Int64, UnsafePointer<CChar>?) -> Void)?
    private let pictureCallback: ((UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UInt32, UnsafePointer<UInt8>?, Int) -> Void)?
    private let ctx: UnsafeMutableRawPointer?

    public init(_ callbacks: UnsafePointer<abp_metadata_callbacks>) {
        let size = Int(callbacks.pointee.struct_size)
        func present<T>(_ field: KeyPath<abp_metadata_callbacks, T>) -> Bool {
            MemoryLayout<abp_metadata_callbacks>.offset(of: field)! + MemoryLayout<T>.size <= size
        }
        let value = callbacks.pointee
        tagCallback = present(\.tag) ? value.tag : nil
        chapterCallback = present(\.chapter) ? value.chapter : nil
        pictureCallback = present(\.picture) ? value.picture : nil
        ctx = present(\.ctx) ? value.ctx : nil
    }

    /// One tag; an empty value is not worth the host's time.
    public func tag(_ key: String, _ value: String) {
        guard let tagCallback, !value.isEmpty else { return }
        key.withCString { key in value.withCString { tagCallback(ctx, key, $0) } }
    }

    public func chapter(start: Int64, title: String) {
        guard let chapterCallback else { return }
        title.withCString { chapterCallback(ctx, start, $0) }
    }

    public func picture(mime: String, type: UInt32, data: UnsafeRawBufferPointer) {
        guard let pictureCallback, let base = data.baseAddress, data.count > 0 else { return }
        mime.withCString { pictureCallback(ctx, $0, type, base.assumingMemoryBound(to: UInt8.self), data.count) }
    }
}
