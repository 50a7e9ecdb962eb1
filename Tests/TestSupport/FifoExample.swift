public import Foundation

/// The out-of-tree FIFO output, `plugin-sdk/examples/fifo`, built by its own Makefile with plain
/// `cc` (as a stranger would, against this tree's header) from a copy outside the tree, and put
/// alone in a plugin directory the host accepts (0755, owned by us). Built once per process.
public enum FifoExample {
    public static let source = BuildProducts.packageDirectory.appendingPathComponent("plugin-sdk/examples/fifo")

    /// A directory holding only `libabplayer-fifo.so`.
    public static func pluginDirectory() throws -> URL { try built.get() }

    private static let built = Result { try build() }

    private static func build() throws -> URL {
        let work = try BuildProducts.temporaryDirectory("fifo-example")
        let copy = work.appendingPathComponent("fifo")
        try FileManager.default.copyItem(at: source, to: copy)
        try Command.run("make", ["-C", copy.path, "ABP_INCLUDE=\(BuildProducts.sdkInclude.path)"]).requireSuccess()
        let plugins = work.appendingPathComponent("plugins")
        try install(copy.appendingPathComponent("libabplayer-fifo.so"), into: plugins)
        return plugins
    }

    /// Copies `plugin` into `directory` (made if needed), both mode 0755: the host refuses
    /// plugins and directories that its group or other users can write.
    public static func install(_ plugin: URL, into directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let installed = directory.appendingPathComponent(plugin.lastPathComponent)
        try FileManager.default.copyItem(at: plugin, to: installed)
        for url in [directory, installed] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
    }
}
