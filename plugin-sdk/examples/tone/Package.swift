// swift-tools-version:6.1
// The same plugin built by SwiftPM against the installed SDK, a package depended on by path:
//     ABPLAYER_SDK_DIR=$(pkg-config --variable=sdkdir abplayer-plugin) swift build -c release
// (-> .build/release/libabplayer-tone.so)
// Without ABPLAYER_SDK_DIR, the SDK of `make install-sdk` with its default PREFIX:
// /usr/local/share/abplayer/sdk.
import Foundation
import PackageDescription

let sdk = ProcessInfo.processInfo.environment["ABPLAYER_SDK_DIR"] ?? "/usr/local/share/abplayer/sdk"

let package = Package(
    name: "abplayer-tone",
    products: [.library(name: "abplayer-tone", type: .dynamic, targets: ["TonePlugin"])],
    dependencies: [.package(name: "abplayer-plugin-sdk", path: sdk)],
    targets: [
        .target(
            name: "TonePlugin",
            dependencies: [.product(name: "ABPluginABI", package: "abplayer-plugin-sdk"),
                           .product(name: "PluginKit", package: "abplayer-plugin-sdk")],
            path: ".", exclude: ["Makefile"], sources: ["Tone.swift"]),
    ]
)
