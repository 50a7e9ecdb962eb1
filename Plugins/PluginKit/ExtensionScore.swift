#if canImport(Glibc)
import Glibc
#endif

/// The probe score a decoder gives a file by its name alone: 10 when the file name's extension
/// (case ignored) is one of `extensions`, else 0. Content always outweighs it (a decoder that
/// recognises the bytes says 100); the name only breaks ties between decoders that cannot tell.
public func extensionScore(path: UnsafePointer<CChar>?, extensions: [String]) -> Int32 {
    // The last dot of the file name, found with strrchr: the host probes every file with every
    // decoder, and splitting the whole path into components each time showed in import profiles.
    guard let path, let dot = strrchr(path, Int32(UInt8(ascii: "."))) else { return 0 }
    if let slash = strrchr(path, Int32(UInt8(ascii: "/"))), slash > dot { return 0 }
    return extensions.contains(String(cString: dot + 1).lowercased()) ? 10 : 0
}
