import Foundation
import PlayerCore
import PluginHost
import TestSupport
import Testing

/// Outputs are named and chosen from the sink descriptors alone: the host knows no plugin by name.
@Suite struct OutputResolutionTests {
    static func registry(_ directory: URL) -> PluginRegistry {
        PluginRegistry(
            searchPath: PluginSearchPath(directories: [.init(path: directory.path, isExplicit: true, filePrefix: "")]),
            cacheDirectory: nil, log: { _, _, _ in })
    }

    @Test func anOutputNamesItsPluginItsArgumentAndItsOptions() throws {
        // Given the plugins of this tree
        let registry = PlaybackEngineTests.registry()
        // When outputs are named as on the command line
        // Then `:ARG` fills the option the descriptor says, a comma inside ARG stays there, and
        // trailing `,key=value` pairs naming real options are options
        let cases: [(String, String, [String: String], String)] = [
            ("alsa:hw:1,0", "alsa", ["device": "hw:1,0"], "alsa:hw:1,0"),
            ("wav:/tmp/a,b.wav,paced=false", "wav", ["path": "/tmp/a,b.wav", "paced": "false"], "wav:/tmp/a,b.wav,paced=false"),
            ("pulse,latency-ms=50", "pulse", ["latency-ms": "50"], "pulse,latency-ms=50"),
            ("pulse:speakers,client-name=book,latency-ms=80", "pulse",
             ["sink": "speakers", "client-name": "book", "latency-ms": "80"], "pulse:speakers,client-name=book,latency-ms=80"),
            ("jack", "jack", [:], "jack"),
        ]
        for (text, id, options, description) in cases {
            let output = try registry.output(named: text)
            #expect(output.pluginID == id, "\(text)")
            #expect(output.options == options, "\(text)")
            #expect(output.description == description, "\(text)")
        }
        // and what is not an output gets one line saying what would be right
        let refusals: [(String, String)] = [
            ("speakers", "'speakers' is not an output: use alsa[:DEVICE], jack[:SERVER], null, pulse[:SINK], wav[:PATH]"),
            ("null:x", "null takes no :ARG"),
            ("wav:", "wav: nothing after ':'"),
            ("pulse,latency-ms=soon", "latency-ms=soon: not a whole number"),
            ("pulse,volume=3", "pulse: 'volume=3' is not key=value with one of its options (server, sink, latency-ms, client-name)"),
        ]
        for (text, says) in refusals {
            #expect(throws: OptionSyntaxError.self, "\(text)") { try registry.output(named: text) }
            do {
                _ = try registry.output(named: text)
            } catch {
                #expect(error.description.contains(says), "\(text): \(error.description)")
                #expect(!error.description.contains("\n"))
            }
        }
        // and a listener's output keeps time: a file output is asked to, one with a clock is left as it is
        #expect(try registry.inRealTime(registry.output(named: "wav:/tmp/x.wav")).options == ["path": "/tmp/x.wav", "paced": "true"])
        #expect(try registry.inRealTime(registry.output(named: "pulse")).options == [:])
        // (a sink with ABP_CAP_REALTIME keeps time by itself: never passed paced=true, even when it
        // declares `paced`, as null does; plugin.h, "Options")
        #expect(try registry.inRealTime(registry.output(named: "null")).options == [:])
        // and decode's go as fast as decoded, null included (it keeps time unless told not to)
        let fallback = try #require(registry.fallbackOutput)
        #expect(registry.asFastAsDecoded(fallback).options == ["paced": "false"])
        #expect(try registry.asFastAsDecoded(registry.output(named: "null,paced=true")).options == ["paced": "true"])
        // and decode's files go to the sink that lists their extension
        #expect(try registry.fileOutput(path: "/tmp/Out.WAV").options == ["path": "/tmp/Out.WAV"])
        #expect(throws: OptionSyntaxError.self) { try registry.fileOutput(path: "/tmp/out.flac") }
    }

    @Test func anOutOfTreeSinkIsNamedAndChosenByItsDescriptor() throws {
        // Given sinks built out of tree: one that never opens (priority 50), one that opens
        // (20), one that must be named (0), and a fallback (-5)
        let directory = try BuildProducts.temporaryDirectory("sink-priority")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        _ = try TestSinkPlugin.build("high.so", ["ID=\"high\"", "PRIORITY=50", "OPENS=0"], in: directory)
        _ = try TestSinkPlugin.build("mid.so", ["ID=\"mid\"", "PRIORITY=20"], in: directory)
        _ = try TestSinkPlugin.build("never.so", ["ID=\"never\"", "PRIORITY=0"], in: directory)
        _ = try TestSinkPlugin.build("fallback.so", ["ID=\"fallback\"", "PRIORITY=-5"], in: directory)
        let registry = Self.registry(directory)
        #expect(registry.rejected.isEmpty, "\(registry.rejected)")
        let format = AudioFormat(rate: 44100, channels: 2)

        // When no output is named, the highest priority that opens is taken, silently
        let automatic = try #require(registry.automaticOutput(for: format))
        #expect(automatic.choice.pluginID == "mid")
        #expect(automatic.warning == nil)

        // When the one that opens is gone, the fallback is taken with a warning listing what was tried
        try FileManager.default.removeItem(at: directory.appendingPathComponent("mid.so"))
        let fallback = try #require(Self.registry(directory).automaticOutput(for: format))
        #expect(fallback.choice.pluginID == "fallback")
        let warning = try #require(fallback.warning)
        // (a priority-0 sink is never tried)
        #expect(warning.hasPrefix("no audio output answered (high: refused with options []); playing to fallback."), "\(warning)")

        // When named with an argument and options, the plugin receives exactly those options
        let named = try registry.output(named: "high:hw:2,0,rate=5")
        #expect(named.options == ["device": "hw:2,0", "rate": "5"])
        let opener = try registry.sinkOpener(for: named)
        #expect(throws: AudioError.self) {
            try opener.openSink(format: format, source: RingBuffer(channels: 2, capacityFrames: 1024))
        }
        do {
            _ = try opener.openSink(format: format, source: RingBuffer(channels: 2, capacityFrames: 1024))
        } catch {
            #expect("\(error)".contains("refused with options [device=hw:2,0 rate=5]"), "\(error)")
        }
        // and it is offered for completion with its argument
        #expect(registry.outputNames.contains("high:"))
    }

    @Test func ofTwoSinksWritingOneExtensionTheHigherPriorityThenTheFirstLoadedWritesIt() throws {
        // Given two sinks that both write .tst files, of priorities 0 and 3
        let directory = try BuildProducts.temporaryDirectory("sink-extension")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        _ = try TestSinkPlugin.build("a-low.so", ["ID=\"low\"", "PRIORITY=0", "EXTENSION=\"tst\""], in: directory)
        let high = try TestSinkPlugin.build("b-high.so", ["ID=\"high\"", "PRIORITY=3", "EXTENSION=\"tst\""], in: directory)
        // When `decode -o out.tst` asks which sink writes it, then the higher priority does
        #expect(try Self.registry(directory).fileOutput(path: "/tmp/out.tst").pluginID == "high")
        // Given instead two of equal priority, then the one loaded first (by file name) writes it
        try FileManager.default.removeItem(at: high)
        _ = try TestSinkPlugin.build("c-twin.so", ["ID=\"twin\"", "PRIORITY=0", "EXTENSION=\"tst\"", "CAPS=0"], in: directory)
        let twins = Self.registry(directory)
        #expect(try twins.fileOutput(path: "/tmp/out.tst").pluginID == "low")
        // and the other is still used when named
        #expect(try twins.output(named: "twin:/tmp/out.tst").pluginID == "twin")
        // but not by a listener: without ABP_CAP_REALTIME or a `paced` option it keeps no time
        let refusal = #expect(throws: OptionSyntaxError.self) { try twins.inRealTime(twins.output(named: "twin:/tmp/out.tst")) }
        #expect(refusal?.description.contains("does not play in real time") == true, "\(String(describing: refusal))")
    }

    @Test func aSinkMayLeaveLatencyDrainAndLastErrorNullButNotPause() async throws {
        // Given a sink without latency, drain and last_error, and one without pause
        let directory = try BuildProducts.temporaryDirectory("sink-null-ops")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        _ = try TestSinkPlugin.build("bare.so", ["ID=\"bare\"", "NO_LATENCY", "NO_DRAIN", "NO_LAST_ERROR"], in: directory)
        _ = try TestSinkPlugin.build("nopause.so", ["ID=\"nopause\"", "NO_PAUSE"], in: directory)
        let sinks = Self.registry(directory)
        // Then the first loads and the second is refused, naming the function
        #expect(sinks.sinks.map(\.id) == ["bare"])
        #expect(sinks.rejected.map(\.reason) == ["sink 'nopause' leaves pause NULL (only latency, drain and last_error may be NULL)"])

        // When a 2 s file plays through the bare sink to its end
        let file = try Fixtures.mp3(seconds: 2, vbr: false)
        let countFile = directory.appendingPathComponent("pulled.txt")
        let engine = PlaybackEngine(decoders: PlaybackEngineTests.registry(),
                                    sinks: try sinks.sinkOpener(pluginID: "bare", options: ["count-file": countFile.path]))
        engine.load([file.path])
        let events = await TestSupport.events(of: engine, within: 60)
        engine.shutdown()
        // Then it ended, and the host, waiting for the sink instead of calling drain, let it
        // pull every frame before closing it
        #expect(events.contains { if case .ended = $0 { true } else { false } })
        let deadline = ContinuousClock.now + .seconds(20)
        while !FileManager.default.fileExists(atPath: countFile.path), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        let pulled = try String(contentsOf: countFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(Int(pulled) == 2 * 44100)
    }
}
