import Foundation
import TestSupport
import Testing

/// `make install` of the build under test (BUILD_DIR: no release build is made), run from
/// another directory as a user runs an installed program: with the Swift runtime it ships and
/// nothing from the toolchain, its manual, its completions, its systemd unit; then `make
/// uninstall`.
@Suite struct InstallTests {
    @Test func theInstalledPlayerPlaysWithItsOwnRuntimeFromAnotherDirectory() throws {
        // Given abplayer installed under DESTDIR with PREFIX=/usr
        let installed = try InstalledAbplayer("runtime")
        let lib = installed.prefix.appendingPathComponent("lib/abplayer")

        // Then the binary and the plugins find the runtime shipped beside them, and nothing else
        // names the toolchain's folders; the binary carries no symbols
        #expect(try Self.runpath(installed.binary) == "$ORIGIN/../lib/abplayer")
        for plugin in try FileManager.default.contentsOfDirectory(atPath: lib.appendingPathComponent("plugins").path) {
            #expect(try Self.runpath(lib.appendingPathComponent("plugins/\(plugin)")) == "$ORIGIN/..", "\(plugin)")
        }
        #expect(FileManager.default.fileExists(atPath: lib.appendingPathComponent("libswiftCore.so").path))
        for runtime in try FileManager.default.contentsOfDirectory(atPath: lib.path) where runtime.hasSuffix(".so") {
            #expect(try Self.runpath(lib.appendingPathComponent(runtime)) == "$ORIGIN", "\(runtime)")
        }
        let toolchain = try Self.absoluteRunpathEntries(BuildProducts.abplayer)
        #expect(!toolchain.isEmpty, "the build under test names no runtime folder: nothing to prove")
        let sections = try Command.run("readelf", ["-S", "--wide", installed.binary.path]).requireSuccess().stdoutString
        #expect(!sections.contains(".symtab") && !sections.contains(".debug_info"), "the installed binary is not stripped")

        // When the installed abplayer runs from another directory: --version, plugins, probe, play
        let version = try installed.run(["--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdoutString.hasPrefix("abplayer ") && version.stdoutString.contains("  mpg123 "), "\(version.stdoutString)")
        let plugins = try installed.run(["plugins"])
        #expect(plugins.status == 0, "\(plugins.stderr)")
        for id in ["mpg123", "wav", "null"] {
            let line = plugins.stdoutString.split(separator: "\n").first { $0.hasPrefix(id + " ") }
            #expect(line?.hasSuffix(lib.appendingPathComponent("plugins/libabplayer-\(id).so").path) == true, "\(plugins.stdoutString)")
        }
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: false)
        let probe = try installed.run(["probe", "--json", mp3.path])
        #expect(probe.status == 0, "\(probe.stderr)")
        let probed = try JSONDecoder().decode(ProbeJSON.self, from: probe.stdout)
        #expect(probed.plugin == "mpg123" && probed.frames == 5 * 44100, "\(probed)")
        // (the loader says where each library came from: LD_DEBUG=libs, on standard error)
        let output = installed.home.appendingPathComponent("out.wav")
        let play = try installed.run(["play", "--output", "wav:\(output.path)", mp3.path], environment: ["LD_DEBUG": "libs"])

        // Then it plays the whole file, each second in its place, through the runtime installed
        // with it: every Swift library it loaded came from lib/abplayer, none from the toolchain
        #expect(play.status == 0, "\(play.stderr.suffix(2000))")
        let played = try WavFile.read(output)
        #expect(played.frameCount == 5 * 44100)
        #expect(SecondTrack(played.samples, channels: played.channels, rate: played.rate).seconds == Array(0..<5))
        // (as the loader names them: through $ORIGIN, bin/../lib/abplayer/...)
        let loaded = play.stderr.split(separator: "\n").compactMap { line in
            line.range(of: "calling init: ").map { URL(fileURLWithPath: String(line[$0.upperBound...])).standardizedFileURL.path }
        }
        #expect(loaded.contains(lib.appendingPathComponent("libswiftCore.so").path), "\(loaded)")
        #expect(loaded.contains(lib.appendingPathComponent("plugins/libabplayer-mpg123.so").path), "\(loaded)")
        for folder in toolchain {
            #expect(!play.stderr.contains(folder + "/"), "loaded from the toolchain's \(folder): \(loaded)")
        }
    }

    @Test func bothManualPagesRenderWithoutAWarning() throws {
        // Given abplayer installed
        let installed = try InstalledAbplayer("man")
        let man = installed.prefix.appendingPathComponent("share/man")

        // When man renders each page with every groff warning on
        for (page, expected) in [("man1/abplayer.1", ["SYNOPSIS", "abplayer play", "--output", "abplayer plugins", "REPL COMMANDS", "bookmark"]),
                                 ("man7/abplayer.7", ["NAME", "abplayer - ", "SEE ALSO"])] {
            let rendered = try Command.run(
                "man", ["--warnings=w", "-l", "-Tutf8", man.appendingPathComponent(page).path],
                environment: ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"], timeout: 60)

            // Then it renders, groff says nothing, and the page has what it is about
            #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(page): \(rendered.stderr)")
            let text = Self.plainText(rendered.stdoutString)
            for word in expected { #expect(text.contains(word), "\(page) lacks '\(word)'") }
        }
        // (abplayer(1) is the binary's own commands: every one it shows, as ArgumentParser dumps
        // them, has its section, and no hidden one has)
        let dump = try installed.run(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])["command"] as? [String: Any]
        let subcommands = try #require(root?["subcommands"] as? [[String: Any]])
        let page = try String(contentsOf: man.appendingPathComponent("man1/abplayer.1"), encoding: .utf8)
        for command in subcommands {
            let name = try #require(command["commandName"] as? String)
            let shown = command["shouldDisplay"] as? Bool ?? true
            #expect(page.contains(".SS \"abplayer \(name)\"") == shown, "\(name) (shown: \(shown))")
        }
        #expect(subcommands.count > 20)
    }

    /// scripts/guide-man.awk on the Markdown a guide is written in, rendered by man.
    @Test func theGuidesMarkdownBecomesAManualPage() throws {
        // Given a guide with a code span over a line break, a link whose words are code, a web
        // link, a nested list, a table, a fenced block with a leading dot, and a comment
        let work = try BuildProducts.temporaryDirectory("guide-man")
        let guide = work.appendingPathComponent("guide.md")
        try """
            <!-- not for the page -->
            # abplayer — the listener's guide

            Start with `abplayer
            import FOLDER`, then read [`docs/commands.md`](commands.md) or [the site](https://example.org/abplayer).

            ## First steps

            - one **bold** step
              - a *nested* one
            - back\\slash

            | Key | Does |
            |-----|------|
            | `q` | quits |

            ```
            .not-a-macro --option
            ```
            """.write(to: guide, atomically: true, encoding: .utf8)

        // When it is converted and rendered with every groff warning on
        let page = try Command.run("awk", ["-v", "version=9.9", "-f", BuildProducts.packageDirectory.appendingPathComponent("scripts/guide-man.awk").path,
                                           guide.path]).requireSuccess()
        let pageFile = work.appendingPathComponent("abplayer.7")
        try page.stdout.write(to: pageFile)
        let rendered = try Command.run("man", ["--warnings=w", "-l", "-Tutf8", pageFile.path],
                                       environment: ["LC_ALL": "C.UTF-8", "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"], timeout: 60)

        // Then groff says nothing, and each construct reads as its words
        #expect(rendered.status == 0 && rendered.stderr.isEmpty, "\(rendered.stderr)")
        // (words only: how man fills and indents them is its own)
        let text = Self.plainText(rendered.stdoutString).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for expected in ["ABPLAYER(7)", "abplayer - the listener's guide", "abplayer 9.9", "DESCRIPTION", "Start with abplayer import FOLDER, then read docs/commands.md or",
                         "the site (https://example.org/abplayer)", "FIRST STEPS", "• one bold step", "• a nested one", "back\\slash",
                         "Key Does", "q quits", ".not-a-macro --option"] {
            #expect(text.contains(expected), "lacks '\(expected)': \(text)")
        }
        #expect(!text.contains("not for the page") && !text.contains("`") && !text.contains("**") && !text.contains("]("), "\(text)")
    }

    @Test func eachShellLoadsItsCompletionAndCompletesACommand() throws {
        // Given abplayer installed, its completions where each shell looks
        let installed = try InstalledAbplayer("completion")
        let share = installed.prefix.appendingPathComponent("share")
        let bash = share.appendingPathComponent("bash-completion/completions/abplayer").path
        let zsh = share.appendingPathComponent("zsh/vendor-completions/_abplayer").path
        let fish = share.appendingPathComponent("fish/vendor_completions.d/abplayer.fish").path

        // When each shell loads its script and completes "abplayer pl"
        let bashResult = try Command.run("bash", ["--norc", "--noprofile", "-c", """
            source "$1" && complete -p abplayer && COMP_WORDS=(abplayer pl) COMP_CWORD=1 && _abplayer abplayer pl abplayer \
            && printf '%s\\n' "${COMPREPLY[@]}"
            """, "bash", bash])
        let zshResult = try Command.run("zsh", ["-f", "-c", "autoload -U compinit && compinit -u -D && source \"$1\" && print -r -- ${_comps[abplayer]}", "zsh", zsh])
        let fishResult = try Command.run("fish", ["--no-config", "-c", "source $argv[1]; complete -C 'abplayer pl'", fish])

        // Then each registers abplayer and offers its commands
        #expect(bashResult.status == 0 && bashResult.stdoutString.contains("-F _abplayer abplayer"), "\(bashResult.stderr)")
        #expect(bashResult.stdoutString.split(separator: "\n").contains("plugins"), "\(bashResult.stdoutString)")
        #expect(zshResult.status == 0 && zshResult.stdoutString == "_abplayer\n", "\(zshResult.stdoutString) \(zshResult.stderr)")
        #expect(fishResult.status == 0 && fishResult.stdoutString.contains("plugins\t"), "\(fishResult.stdoutString) \(fishResult.stderr)")
    }

    @Test func theUserUnitRunsTheInstalledDaemonAndSystemdAcceptsIt() throws {
        // Given abplayer installed straight under a PREFIX (no DESTDIR): the unit names the real path
        let installed = try InstalledAbplayer("unit", destdir: false)
        let unit = installed.prefix.appendingPathComponent("lib/systemd/user/abplayer.service")
        let text = try String(contentsOf: unit, encoding: .utf8)
        let execStart = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }?.dropFirst("ExecStart=".count))
        let command = execStart.split(separator: " ").map(String.init)
        #expect(command == [installed.binary.path, "--daemon"])

        // When systemd checks it as a user unit (the executable, the man pages it names)
        let runtime = installed.home.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let verified = try Command.run("systemd-analyze", ["verify", "--user", unit.path], environment: [
            "XDG_RUNTIME_DIR": runtime.path, "MANPATH": installed.prefix.appendingPathComponent("share/man").path,
        ], timeout: 60)
        // Then it has nothing to say
        #expect(verified.status == 0 && verified.stderr.isEmpty, "\(verified.stderr)")

        // When its command runs as systemd would start it (no terminal), then is stopped as
        // `systemctl --user stop` stops it
        let template = strdup("/tmp/abpu-XXXXXX")!
        defer { free(template) }
        let socketFolder = String(cString: mkdtemp(template)) // (short: a socket path holds 108 bytes)
        defer { try? FileManager.default.removeItem(atPath: socketFolder) }
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: command[0])
        daemon.arguments = Array(command.dropFirst())
        daemon.environment = installed.environment.merging(["XDG_RUNTIME_DIR": socketFolder]) { _, new in new }
        daemon.standardInput = FileHandle.nullDevice
        let log = installed.home.appendingPathComponent("daemon.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        daemon.standardOutput = try FileHandle(forWritingTo: log)
        daemon.standardError = try FileHandle(forWritingTo: log)
        try daemon.run()
        defer { if !daemon.hasEnded { kill(daemon.processIdentifier, SIGKILL) } }
        let socket = socketFolder + "/abplayer/control"
        let listening = waitUntil(within: 60) { FileManager.default.fileExists(atPath: socket) || daemon.hasEnded }

        // Then the installed player runs as the daemon, answers `remote` (its empty library), and saves and ends on SIGTERM
        #expect(listening && !daemon.hasEnded, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        let status = try installed.run(["remote", "ls"], environment: ["XDG_RUNTIME_DIR": socketFolder])
        #expect(status.status == 0, "\(status.stderr)")
        kill(daemon.processIdentifier, SIGTERM)
        #expect(daemon.waitForEnd(timeout: 60) && daemon.endStatus == 0, "\((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }

    @Test func uninstallRemovesWhatInstallPutThereAndNothingElse() throws {
        // Given abplayer installed beside a file of someone else's in one of its folders
        let installed = try InstalledAbplayer("uninstall")
        let foreign = installed.prefix.appendingPathComponent("share/man/man1/other.1")
        try "other".write(to: foreign, atomically: true, encoding: .utf8)

        // When it is uninstalled
        try installed.make("uninstall")

        // Then that file is the only one left, and abplayer's own folders are gone
        let left = try Command.run("find", [installed.destdir.path, "-type", "f"]).requireSuccess().stdoutString
        #expect(left == foreign.path + "\n")
        #expect(!FileManager.default.fileExists(atPath: installed.prefix.appendingPathComponent("lib/abplayer").path))
        // (and an install with nothing left to remove says so)
        #expect(throws: CommandError.self) { try installed.make("uninstall") }
    }

    @Test func thePackageIsVersionedAsTheProgramSaysItIs() throws {
        // Given debian/changelog's first line: abplayer (VERSION) ...
        let changelog = try String(contentsOf: BuildProducts.packageDirectory.appendingPathComponent("debian/changelog"), encoding: .utf8)
        let packaged = changelog.split(separator: "\n").first.flatMap { line in
            line.split(separator: "(").dropFirst().first?.split(separator: ")").first.map(String.init)
        }
        // Then it is the version the binary prints
        let version = try AbplayerProcess("deb-version").run(["--version"]).stdoutString
        #expect(packaged.map { version.hasPrefix("abplayer \($0)\n") } == true, "changelog \(packaged ?? "?"), binary: \(version)")
    }

    /// The binary's RUNPATH as readelf prints it.
    static func runpath(_ file: URL) throws -> String? {
        let dynamic = try Command.run("readelf", ["-d", file.path]).requireSuccess().stdoutString
        guard let line = dynamic.split(separator: "\n").first(where: { $0.contains("(RUNPATH)") }),
              let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
        return String(line[line.index(after: open)..<close])
    }

    /// The folders a build's RUNPATH names by absolute path (the toolchain's runtime).
    static func absoluteRunpathEntries(_ file: URL) throws -> [String] {
        (try runpath(file) ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// man's output without its overstrike bold and underline (`X\bX`, `_\bX`).
    static func plainText(_ rendered: String) -> String {
        var text: [Character] = []
        for character in rendered {
            if character == "\u{8}" { _ = text.popLast(); continue }
            text.append(character)
        }
        return String(text).replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
    }
}

/// abplayer installed by `make install` of the build under test into a folder of one test.
struct InstalledAbplayer {
    let home: URL
    /// DESTDIR: where the files are.
    let destdir: URL
    /// What the files are installed as (PREFIX).
    let prefixSetting: String
    /// Where they are: DESTDIR + PREFIX.
    let prefix: URL
    var binary: URL { prefix.appendingPathComponent("bin/abplayer") }

    /// `make install DESTDIR=HOME/root PREFIX=/usr`, or (destdir: false) `PREFIX=HOME/root`.
    init(_ name: String, destdir useDestdir: Bool = true) throws {
        home = try BuildProducts.temporaryDirectory("install-\(name)")
        if useDestdir {
            destdir = home.appendingPathComponent("root")
            prefixSetting = "/usr"
        } else {
            destdir = URL(fileURLWithPath: "/")
            prefixSetting = home.appendingPathComponent("root").path
        }
        prefix = URL(fileURLWithPath: useDestdir ? destdir.path + prefixSetting : prefixSetting)
        try make("install")
    }

    /// `make TARGET` in the package, with this install's DESTDIR and PREFIX and the build under
    /// test as BUILD_DIR. Not the calling make's flags (`make test` runs the tests).
    func make(_ target: String) throws {
        var arguments = ["--no-print-directory", "-C", BuildProducts.packageDirectory.path, target,
                         "PREFIX=\(prefixSetting)", "BUILD_DIR=\(BuildProducts.binDirectory.path)"]
        if destdir.path != "/" { arguments.append("DESTDIR=\(destdir.path)") }
        try Command.run("make", arguments, environment: ["MAKEFLAGS": "", "MAKELEVEL": "", "MFLAGS": ""], timeout: 300).requireSuccess()
    }

    /// A PATH and library path that name no toolchain, and private XDG folders and home.
    var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging([
            "PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": "", "HOME": home.path, "ABPLAYER_PLUGIN_PATH": "",
            "XDG_DATA_HOME": home.appendingPathComponent("data").path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
        ]) { _, new in new }
    }

    /// The installed abplayer run in a folder of its own (not the package's, not the install's).
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> CommandResult {
        let elsewhere = home.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let environment = self.environment.merging(extra) { _, new in new }
        return try Command.run("sh", ["-c", "cd \"$1\" && shift && exec \"$@\"", "sh", elsewhere.path, binary.path] + arguments,
                               environment: environment, timeout: 120)
    }
}
