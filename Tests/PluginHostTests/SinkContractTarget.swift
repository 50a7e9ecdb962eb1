import Foundation
@testable import PluginHost
import TestSupport
import Testing

/// One sink as the contract suite drives it: a plugin found by its descriptor, the options it is
/// opened with, what it plays to in a test, and the pace it should keep there.
///
/// The host names no plugin, and neither does the suite's discovery: every sink in the build
/// directory is a target, and a sink with the reserved `paced` option is run both ways. Only
/// `SinkContractTargets.provisions` knows sinks by id, to give each the server or device it needs
/// on a machine without a sound card (the MPD idea of one test that drives any plugin).
struct SinkContractTarget: Sendable, CustomTestStringConvertible {
    /// How fast a started sink should take audio from the ring here.
    enum Pace: Sendable, Equatable {
        /// At about its rate, by a clock of its own or its device's.
        case realTime
        /// As fast as the host supplies it (a file, or a device with no clock).
        case asFastAsItComes
    }

    let plugin: LoadedPlugin
    let registry: PluginRegistry
    /// Options given to every open (the user's, for a third party's sink; `paced`).
    let options: [String: String]
    let provision: SinkContractProvision
    let pace: Pace
    let label: String

    var testDescription: String { label }

    /// ABP_CAP_FIXED_RATE: it may run at another rate than asked.
    var mayChangeRate: Bool { plugin.capabilities.contains(.fixedRate) }
    /// Whether what the device plays can be recorded (the PulseAudio server's monitor).
    var canBeListenedTo: Bool { provision == .pulseServer }
    /// Without ABP_CAP_LATENCY, latency() is a constant (plugin.h).
    var measuresLatency: Bool { plugin.capabilities.contains(.latency) }

    /// A file sink (or one with nothing to hear): a frame written is final, so its latency is 0.
    var writtenIsHeard: Bool {
        if case .file = provision { return true }
        return SinkContractTargets.nothingToHear.contains(plugin.id)
    }
}

/// What a target plays to in a test, and what can be observed there.
enum SinkContractProvision: Sendable, Equatable {
    /// Nothing to set up (null, or a third party's sink given its options).
    case nothing
    /// A file named by the sink's path option, in the test's directory (wav).
    case file(option: String, extension: String)
    /// ALSA's own `file` PCM over `null` (alsa.conf's `pcm.file`: the harness's asoundrc
    /// `testcap`, without the process-wide ALSA_CONFIG_PATH an asoundrc needs): what it is given,
    /// unpaced, in a raw file.
    case alsaFilePCM
    /// A private PulseAudio with a null sink, its monitor recorded.
    case pulseServer
    /// A private jackd on the dummy driver.
    case jackServer

    /// Whether the device keeps time; nil when only the descriptor can say.
    var deviceKeepsTime: Bool? {
        switch self {
        case .alsaFilePCM: false
        case .pulseServer, .jackServer: true
        case .nothing, .file: nil
        }
    }

    /// How the device can be lost mid-play, if this test bench can do it.
    var loss: SinkContractLoss? {
        switch self {
        case .pulseServer, .jackServer: .serverKilled
        case .file, .alsaFilePCM: .diskFull
        case .nothing: nil
        }
    }

    /// An option value the plugin itself must refuse at open (the host cannot know it is bad),
    /// and the text its one-line error must contain.
    func refusedValue(in directory: URL, plugin: LoadedPlugin) -> (option: String, value: String)? {
        switch self {
        case .file(let option, let fileExtension):
            return (option, directory.appendingPathComponent("no-such-folder/out.\(fileExtension)").path)
        case .alsaFilePCM: return (plugin.argumentOption ?? "device", "abp_no_such_pcm")
        case .pulseServer: return ("server", "unix:/nonexistent/abp-no-such-server")
        case .jackServer: return ("server", "abp_no_such_server")
        case .nothing: return nil
        }
    }
}

enum SinkContractLoss: Sendable, Equatable {
    case serverKilled
    case diskFull
}

enum SinkContractTargets {
    /// The test bench each in-tree sink needs; a sink not listed is run with its defaults
    /// (descriptor-driven: a sink whose `:ARG` is a path and that lists extensions writes a file).
    static let provisions: [String: SinkContractProvision] = [
        "alsa": .alsaFilePCM,
        "pulse": .pulseServer,
        "jack": .jackServer,
    ]

    /// Sinks with nothing to hear, whose latency is 0 (plugin.h, `latency`); a file sink is
    /// known by its descriptor (`writtenIsHeard`).
    static let nothingToHear: Set<String> = ["null"]

    /// $ABPLAYER_CONTRACT_SINK: a third party's sink (.so) to run through the same contract,
    /// with $ABPLAYER_CONTRACT_SINK_OPTIONS="k=v,..." given to every open.
    static let thirdPartyVariable = "ABPLAYER_CONTRACT_SINK"
    static let thirdPartyOptionsVariable = "ABPLAYER_CONTRACT_SINK_OPTIONS"

    static func registry(_ directory: String, prefix: String) -> PluginRegistry {
        PluginRegistry(searchPath: PluginSearchPath(directories: [.init(path: directory, isExplicit: true, filePrefix: prefix)]),
                       cacheDirectory: nil, log: { _, _, _ in })
    }

    /// The sinks built in this tree.
    static let built = registry(BuildProducts.binDirectory.path, prefix: "libabplayer-")

    /// Every target, found when the suite is discovered; what could not be loaded is in `problems`.
    static let discovered: (targets: [SinkContractTarget], problems: [String]) = {
        var targets = built.sinks.flatMap { targetsFor($0, registry: built, options: [:], label: $0.id) }
        var problems: [String] = []
        let environment = ProcessInfo.processInfo.environment
        if let path = environment[thirdPartyVariable], !path.isEmpty {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            let registry = registry(url.deletingLastPathComponent().path, prefix: url.lastPathComponent)
            problems += registry.rejected.map { "\(thirdPartyVariable): \($0)" }
            if let plugin = registry.sinks.first(where: { $0.path == url.path }) {
                let options = parseOptions(environment[thirdPartyOptionsVariable] ?? "")
                targets += targetsFor(plugin, registry: registry, options: options, label: "third-party \(plugin.id)")
            } else {
                problems.append("\(thirdPartyVariable)=\(path): no sink plugin loaded from it")
            }
        }
        return (targets, problems)
    }()

    static var all: [SinkContractTarget] { discovered.targets }
    /// The targets whose device's output can be recorded.
    static var listenable: [SinkContractTarget] { all.filter(\.canBeListenedTo) }
    /// The targets whose device the bench can take away mid-play (a disk is filled only as root).
    static var losable: [SinkContractTarget] {
        all.filter { target in
            switch target.provision.loss {
            case .serverKilled: true
            case .diskFull: SmallDisk.canMount
            case nil: false
            }
        }
    }

    /// "k=v,k=v" as options; a pair without `=` is kept whole as a name with an empty value (the
    /// host then refuses it, naming it).
    static func parseOptions(_ text: String) -> [String: String] {
        var options: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            options[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return options
    }

    private static func targetsFor(_ plugin: LoadedPlugin, registry: PluginRegistry, options: [String: String],
                                   label: String) -> [SinkContractTarget] {
        let provision = provisions[plugin.id] ?? descriptorProvision(plugin, options: options)
        // A sink that can be asked to keep time (the reserved `paced`) is run both ways, unless
        // the user fixed it.
        if plugin.option(named: "paced")?.type == .bool, options["paced"] == nil {
            return [(true, SinkContractTarget.Pace.realTime), (false, .asFastAsItComes)].map { paced, pace in
                var withPacing = options
                withPacing["paced"] = paced ? "true" : "false"
                return SinkContractTarget(plugin: plugin, registry: registry, options: withPacing, provision: provision,
                                          pace: pace, label: "\(label),paced=\(paced)")
            }
        }
        let keepsTime: Bool
        if let paced = options["paced"] {
            keepsTime = ["true", "yes", "1"].contains(paced)
        } else {
            keepsTime = provision.deviceKeepsTime ?? plugin.capabilities.contains(.realtime)
        }
        return [SinkContractTarget(plugin: plugin, registry: registry, options: options, provision: provision,
                                   pace: keepsTime ? .realTime : .asFastAsItComes, label: label)]
    }

    /// A sink whose `:ARG` fills a path option and that names the files it writes writes a file.
    private static func descriptorProvision(_ plugin: LoadedPlugin, options: [String: String]) -> SinkContractProvision {
        guard let argument = plugin.argumentOption, plugin.option(named: argument)?.type == .path,
              options[argument] == nil, let fileExtension = plugin.extensions.first else { return .nothing }
        return .file(option: argument, extension: fileExtension)
    }
}
