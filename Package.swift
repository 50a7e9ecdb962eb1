// swift-tools-version:6.1
import PackageDescription

/// Strict settings for every Swift target, set once (swift-log's habit).
let strictSwift: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// A plugin is a `.dynamic` product `abplayer-<id>` that depends only on the C ABI module and,
/// optionally, a C shim for the library it wraps. It never links a Swift module of ours: that
/// would give it a static copy of that module.
struct PluginSpec {
    let id: String
    let target: String
    let shim: String?
    /// The pkg-config name of the wrapped library, for the shim's flags.
    var pkgConfig: String? = nil
    /// Targets of ours the plugin links statically (like PluginKit), e.g. the MP4 parser.
    var statics: [String] = []
    /// The shim is C code of ours that loads the library with dlopen when first needed (through
    /// LazyLoader) instead of a module map that links it: a process maps the library only when it
    /// uses this plugin, not whenever the plugin is loaded.
    var loadsLazily = false
}
let plugins: [PluginSpec] = [
    PluginSpec(id: "mpg123", target: "Mpg123Plugin", shim: "CMpg123", pkgConfig: "libmpg123"),
    PluginSpec(id: "opusfile", target: "OpusfilePlugin", shim: "COpusfile", pkgConfig: "opusfile", statics: ["VorbisComment"]),
    PluginSpec(id: "vorbisfile", target: "VorbisfilePlugin", shim: "CVorbisfile", pkgConfig: "vorbisfile", statics: ["VorbisComment"]),
    PluginSpec(id: "flac", target: "FLACPlugin", shim: "CFLAC", pkgConfig: "flac", statics: ["VorbisComment"]),
    // libfaad has no .pc file on Debian 12: the shim's modulemap links it by name.
    PluginSpec(id: "faad", target: "FaadPlugin", shim: "CFaad", statics: ["MP4"]),
    PluginSpec(id: "null", target: "NullSinkPlugin", shim: nil),
    PluginSpec(id: "wav", target: "WavSinkPlugin", shim: nil),
    PluginSpec(id: "alsa", target: "AlsaSinkPlugin", shim: "CAlsa", loadsLazily: true),
    PluginSpec(id: "pulse", target: "PulseSinkPlugin", shim: "CPulse", loadsLazily: true),
    PluginSpec(id: "jack", target: "JackSinkPlugin", shim: "CJack", loadsLazily: true),
    // The catch-all decoder: FFmpeg's libraries are loaded when it first opens a file.
    PluginSpec(id: "ffmpeg", target: "FFmpegPlugin", shim: "CFFmpeg", loadsLazily: true),
]

/// Header search paths of the libraries abplayer loads with dlopen when first needed
/// (Sources/LazyLibraries): libdbus-1 for MPRIS, libchafa with glib and libpng for cover art.
/// Their headers are wanted, their link flags (what `pkgConfig:` would add) are not: linked, every
/// command paid for them at start-up. Debian's multiarch paths.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let lazyLibraryHeaders = [
    "/usr/include/dbus-1.0", "/usr/lib/\(multiarch)/dbus-1.0/include",
    "/usr/include/chafa", "/usr/lib/\(multiarch)/chafa/include",
    "/usr/include/glib-2.0", "/usr/lib/\(multiarch)/glib-2.0/include", "/usr/include/libpng16",
]
let lazyLibraryHeadersForSwift = strictSwift + [.unsafeFlags(lazyLibraryHeaders.flatMap { ["-Xcc", "-I\($0)"] })]

var targets: [Target] = [
    // The published C ABI. The .c file makes SwiftPM rebuild dependents when the header changes.
    .target(
        name: "ABPluginABI",
        path: "plugin-sdk",
        exclude: ["README.md", "examples", "swift", "abplayer-plugin.pc.in"],
        sources: ["src"],
        publicHeadersPath: "include"
    ),
    // libsoxr, the resampler of the DSP stage: the header only (LazyLibraries loads it when a
    // book first plays at another rate than its output).
    .systemLibrary(name: "CSoxr", path: "Sources/CSoxr"),
    // libsonic, the speed stage (pitch kept). It has no .pc file on Debian 12: the modulemap links it by name.
    .systemLibrary(name: "CSonic", path: "Sources/CSonic"),
    .target(name: "PlayerCore", dependencies: ["CSoxr", "CSonic", "LazyLibraries"], swiftSettings: strictSwift),
    // What a path's name says (its extension): asked by the importer and the plugin registry alike.
    .target(name: "PathNames", swiftSettings: strictSwift),
    // Standard output and error written so that a closed terminal or pipe is a value, not a trap:
    // for every front end (the REPL, the screens, listen, play, remote, MPRIS).
    .target(name: "StandardStreams", swiftSettings: strictSwift),
    .target(name: "PluginHost", dependencies: ["PlayerCore", "ABPluginABI", "PathNames"], swiftSettings: strictSwift),
    // The library: SQLite through GRDB. Knows books, not decoders: of ours it imports only PathNames.
    .target(name: "Library", dependencies: [.product(name: "GRDB", package: "GRDB.swift"), "PathNames"], swiftSettings: strictSwift),
    // libebur128 (EBU R128 loudness, a book measured once): the header only (LazyLibraries loads it).
    .systemLibrary(name: "CEbur128", path: "Sources/CEbur128"),
    // Listening: the bridge between the player and the library (saves positions and sessions from
    // the engine's events; inspects media with the decoders for the importer).
    .target(name: "Listening", dependencies: ["PlayerCore", "Library", "CEbur128", "LazyLibraries"], swiftSettings: strictSwift),
    // The player controller: what playing a book means (loading at the saved place, navigation,
    // chapters, the play order, the queue, the sleep timer, auto-rewind, settings, saving), with
    // no user interface. Every front end is an adapter over it.
    .target(name: "Player", dependencies: ["PlayerCore", "Library", "Listening", "PathNames"], swiftSettings: strictSwift),
    // libedit, the REPL's line editor.
    .systemLibrary(name: "CEdit", path: "Sources/CEdit", pkgConfig: "libedit"),
    // The REPL: commands, the line editor, status. Gets decoders and outputs from the
    // composition root; knows no plugin.
    // The libraries loaded when first needed, and their functions under their own names.
    .target(name: "LazyLoader"),
    .target(name: "LazyLibraries", dependencies: ["LazyLoader"], cSettings: [.unsafeFlags(lazyLibraryHeaders.map { "-I\($0)" })]),
    // libchafa (cover art as terminal symbols) with libturbojpeg and libpng to decode the covers:
    // the headers only (LazyLibraries loads them).
    .systemLibrary(name: "CChafa", path: "Sources/CChafa"),
    .target(name: "Console", dependencies: ["PlayerCore", "Library", "Player", "CEdit", "CChafa", "LazyLibraries", "PathNames", "StandardStreams"],
            swiftSettings: lazyLibraryHeadersForSwift),
    // libdbus-1 (the reference D-Bus library) and MPRIS on the session bus: media keys, desktop
    // widgets and playerctl drive the player through typed requests. The headers only
    // (LazyLibraries loads it when MPRIS starts).
    .systemLibrary(name: "CDBus", path: "Sources/CDBus"),
    .target(name: "MPRIS", dependencies: ["Player", "PlayerCore", "Library", "CDBus", "LazyLibraries", "StandardStreams"], swiftSettings: lazyLibraryHeadersForSwift),
    .executableTarget(
        name: "abplayer",
        dependencies: [
            "PlayerCore", "PluginHost", "Library", "Listening", "Player", "Console", "MPRIS", "PathNames", "StandardStreams",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        swiftSettings: strictSwift
    ),
    .target(name: "TestSupport", dependencies: ["PlayerCore"], path: "Tests/TestSupport", exclude: ["README.md"], swiftSettings: strictSwift),
    .testTarget(name: "PlayerCoreTests", dependencies: ["PlayerCore", "TestSupport"], swiftSettings: strictSwift),
    .testTarget(
        name: "PluginHostTests",
        dependencies: ["PluginHost", "PlayerCore", "ABPluginABI", "TestSupport"],
        swiftSettings: strictSwift
    ),
    .testTarget(name: "MP4Tests", dependencies: ["MP4", "TestSupport"], swiftSettings: strictSwift),
    .testTarget(name: "ConsoleTests", dependencies: ["Console", "Library", "Listening", "Player", "PlayerCore", "PluginHost", "TestSupport"], swiftSettings: strictSwift),
    .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"], swiftSettings: strictSwift),
    .testTarget(name: "MPRISTests", dependencies: ["MPRIS", "Player", "TestSupport"], swiftSettings: strictSwift),
    .testTarget(
        name: "PlayerTests",
        dependencies: ["Player", "PlayerCore", "PluginHost", "Library", "Listening", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
        swiftSettings: strictSwift
    ),
    .testTarget(
        name: "LibraryTests",
        dependencies: [
            "Library", "Listening", "PlayerCore", "PluginHost", "TestSupport",
            .product(name: "GRDB", package: "GRDB.swift"),
        ],
        swiftSettings: strictSwift
    ),
]
// Helpers for writing plugins in Swift (error buffers, options, descriptors, a pull thread).
// Each plugin links its own static copy; no PluginKit type ever crosses the C boundary, and the
// host never links it, so the copies cannot clash.
targets.append(.target(name: "PluginKit", dependencies: ["ABPluginABI"], path: "Plugins/PluginKit", swiftSettings: strictSwift))
// The MP4/ISO-BMFF demuxer: no dependencies and no codec knowledge, linked statically into the
// plugins that read MP4 files (faad now; ALAC or Opus-in-MP4 later).
targets.append(.target(name: "MP4", dependencies: [], path: "Plugins/MP4", swiftSettings: strictSwift))
// Vorbis comments (tags, CHAPTERnnn chapters, METADATA_BLOCK_PICTURE) as the ABI wants them,
// linked statically into the plugins whose formats carry them (Opus, Vorbis, FLAC).
targets.append(.target(name: "VorbisComment", dependencies: ["ABPluginABI", "PluginKit"], path: "Plugins/VorbisComment", swiftSettings: strictSwift))
for plugin in plugins {
    var dependencies: [Target.Dependency] = ["ABPluginABI", "PluginKit"] + plugin.statics.map { .byName(name: $0) }
    if let shim = plugin.shim {
        if plugin.loadsLazily {
            targets.append(.target(name: shim, dependencies: ["LazyLoader"], path: "Plugins/\(plugin.id)/\(shim)"))
        } else {
            targets.append(.systemLibrary(name: shim, path: "Plugins/\(plugin.id)/\(shim)", pkgConfig: plugin.pkgConfig))
        }
        dependencies.append(.byName(name: shim))
    }
    targets.append(.target(
        name: plugin.target,
        dependencies: dependencies,
        path: "Plugins/\(plugin.id)/Sources",
        swiftSettings: strictSwift,
        linkerSettings: [.unsafeFlags(["-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/exports.map"])]
    ))
}

let package = Package(
    name: "abplayer",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "abplayer", targets: ["abplayer"])]
        + plugins.map { .library(name: "abplayer-\($0.id)", type: .dynamic, targets: [$0.target]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: targets
)
