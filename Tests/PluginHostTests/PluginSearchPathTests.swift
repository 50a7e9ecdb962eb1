import PluginHost
import Testing

/// Where plugins are looked for: absolute directories only. A relative path in XDG_DATA_HOME or
/// HOME would be the current directory's `abplayer/plugins`, whatever folder a command runs in.
@Suite struct PluginSearchPathTests {
    func paths(_ environment: [String: String], pluginDirectories: [String] = []) -> PluginSearchPath {
        .standard(pluginDirectories: pluginDirectories, environment: environment, executablePath: "/opt/abplayer/bin/abplayer",
                  currentDirectory: "/home/ann/Downloads")
    }

    @Test func aRelativeXDGDataHomeIsIgnoredForHomesDefault() {
        // Given XDG_DATA_HOME=. and an absolute HOME
        // When the search path is made
        let search = paths(["XDG_DATA_HOME": ".", "HOME": "/home/ann"])
        // Then the data directory is HOME's default, and every directory is absolute
        #expect(search.directories.map(\.path) == [
            "/home/ann/.local/share/abplayer/plugins", "/opt/abplayer/lib/abplayer/plugins", "/opt/abplayer/bin",
        ])
    }

    @Test func aRelativeHomeGivesNoDataDirectory() {
        // Given HOME=. (or HOME=data) and no XDG_DATA_HOME
        for home in [".", "data", "./home"] {
            let search = paths(["HOME": home])
            // Then only the directories beside the executable are searched
            #expect(search.directories.map(\.path) == ["/opt/abplayer/lib/abplayer/plugins", "/opt/abplayer/bin"], "HOME=\(home)")
        }
    }

    @Test func anAbsoluteXDGDataHomeIsUsed() {
        let search = paths(["XDG_DATA_HOME": "/data", "HOME": "."])
        #expect(search.directories.first?.path == "/data/abplayer/plugins")
    }

    @Test func relativeEntriesOfThePluginPathAreIgnoredAndAPluginDirIsTakenAgainstTheCurrentDirectory() {
        // Given ABPLAYER_PLUGIN_PATH with relative entries between absolute ones, and a relative --plugin-dir
        let search = paths(["ABPLAYER_PLUGIN_PATH": ".:/srv/plugins:plugins:../x", "XDG_DATA_HOME": "/data"],
                           pluginDirectories: ["mine/plugins", "/abs/plugins"])
        // Then the --plugin-dir the user typed is made absolute, the relative entries are left
        // out and kept for the loader to report
        #expect(search.directories.map(\.path) == [
            "/home/ann/Downloads/mine/plugins", "/abs/plugins", "/srv/plugins", "/data/abplayer/plugins",
            "/opt/abplayer/lib/abplayer/plugins", "/opt/abplayer/bin",
        ])
        #expect(search.ignored == [".", "plugins", "../x"])
        #expect(search.directories.allSatisfy { $0.path.hasPrefix("/") })
    }
}
