public import Foundation

/// A small tmpfs, mounted for one test: the honest way to fill a disk. Mounting needs root; where
/// it cannot be done the tests that need it are reported as not run, with the reason.
public struct SmallDisk {
    public let mountPoint: URL

    public init(at mountPoint: URL, bytes: Int) throws {
        self.mountPoint = mountPoint
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        _ = try Command.run("mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", mountPoint.path]).requireSuccess()
    }

    public func unmount() {
        _ = try? Command.run("umount", [mountPoint.path])
    }

    /// Bytes left on it.
    public var freeBytes: Int {
        var info = statvfs()
        guard statvfs(mountPoint.path, &info) == 0 else { return 0 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Whether a tmpfs can be mounted here (tried once, on a throwaway folder).
    public static let canMount: Bool = {
        guard getuid() == 0, let folder = try? BuildProducts.temporaryDirectory("tmpfs-probe"),
              let disk = try? SmallDisk(at: folder, bytes: 64 * 1024) else { return false }
        disk.unmount()
        return true
    }()
}
