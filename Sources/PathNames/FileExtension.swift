/// The file name's extension, lowercased ("" for none, or for a hidden file's leading dot):
/// what the importer (which files are books, which sidecars) and the plugin registry (which
/// decoder to try first) both ask of every file. By hand, scanning back from the end:
/// NSString's pathExtension was 5 % of an import, and splitting the path into its components
/// allocated an array per call.
public func fileExtension(of path: String) -> String {
    let bytes = path.utf8
    guard let dot = bytes.lastIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") }),
          bytes[dot] == UInt8(ascii: "."), dot != bytes.startIndex,
          bytes[bytes.index(before: dot)] != UInt8(ascii: "/") else { return "" }
    return String(path[bytes.index(after: dot)...]).lowercased()
}
