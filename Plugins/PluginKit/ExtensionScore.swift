/// The probe score a decoder gives a file by its name alone: 10 when the file name's extension
/// (case ignored) is one of `extensions`, else 0. Content always outweighs it (a decoder that
/// recognises the bytes says 100); the name only breaks ties between decoders that cannot tell.
public func extensionScore(path: UnsafePointer<CChar>?, extensions: [String]) -> Int32 {
    guard let path else { return 0 }
    let name = String(cString: path).split(separator: "/").last ?? ""
    guard let dot = name.lastIndex(of: ".") else { return 0 }
    return extensions.contains(name[name.index(after: dot)...].lowercased()) ? 10 : 0
}
