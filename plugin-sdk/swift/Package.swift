// swift-tools-version:6.1
// The abplayer plugin SDK for Swift, as `make install-sdk` installs it in
// $(pkg-config --variable=sdkdir abplayer-plugin): the C ABI as a module (ABPluginABI: plugin.h,
// and abi_check.c, which asserts its layout when it compiles) and PluginKit, the helpers the
// plugins built with abplayer use. A plugin depends on it by path; PluginKit is linked statically
// into the plugin, which exports only its entry point across the C boundary.
import PackageDescription

let package = Package(
    name: "abplayer-plugin-sdk",
    products: [
        .library(name: "ABPluginABI", targets: ["ABPluginABI"]),
        .library(name: "PluginKit", targets: ["PluginKit"]),
    ],
    targets: [
        .target(name: "ABPluginABI", path: "ABPluginABI", sources: ["src"], publicHeadersPath: "include"),
        .target(
            name: "PluginKit", dependencies: ["ABPluginABI"], path: "PluginKit",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("InternalImportsByDefault")]),
    ]
)
