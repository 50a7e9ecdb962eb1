import Foundation
import PlayerCore
@testable import PluginHost
import TestSupport
import Testing

/// The decoder contract on hostile input: cut, mutated and random files are refused or end early
/// with one clear reason, never a crash (it would end this process) or a hang (each file has a
/// deadline). Probe scores put the right decoder first.
@Suite struct DecoderContractBadInputTests {
    @Test(arguments: DecoderContract.cases)
    func aCutFileIsRefusedOrPlaysWhatItHasAndEnds(_ contractCase: DecoderContractCase) throws {
        // Given the fixture cut at several places, as an interrupted download is
        let fixture = contractCase.fixture
        let full = try DecoderContract.fullDecode(contractCase)
        let harness = try ContractHarness(pluginPath: contractCase.pluginPath)
        for fraction in [0.005, 0.1, 0.5, 0.9, 0.99] {
            let cut = try Fixtures.truncated(full.file, keepingFraction: fraction)
            // When it is opened and read to its end
            let outcome = try #require(harness.attempt(cut, limit: full.frames + full.rate), "a hang on \(cut.lastPathComponent)")
            // Then it is refused, or ends (never runs on), saying so in at most one clear line
            #expect(!outcome.overran, "\(cut.lastPathComponent) never ends")
            #expect(outcome.messages.count <= 1, "\(cut.lastPathComponent): \(outcome.messages)")
            for message in [outcome.refusal, outcome.readError].compactMap({ $0 }) {
                #expect(BadInputOutcome.problem(with: message, file: cut) == nil, "\(cut.lastPathComponent): \(BadInputOutcome.problem(with: message, file: cut) ?? "")")
            }
            guard outcome.refusal == nil else {
                // (a cut that keeps half or more is played, when the format allows)
                #expect(fixture.cutSlack == nil || fraction < 0.5, "\(cut.lastPathComponent) refused: \(outcome.refusal ?? "")")
                continue
            }
            // and what it played is the file's audio up to the cut (the last frames before a cut
            // may be partial: they are left out)
            #expect(outcome.frames <= full.frames, "\(cut.lastPathComponent): \(outcome.frames) of \(full.frames) frames")
            // (a plugin that says nothing must have known the length it plays at open)
            if outcome.messages.isEmpty, let reported = outcome.reportedFrames {
                #expect(Int64(outcome.frames) == reported, "\(cut.lastPathComponent): reported \(reported) frames at open, played \(outcome.frames) without a word")
            }
            let compared = max(0, outcome.frames - 4096) * full.channels
            let difference = AudioAnalysis.maxAbsDifference(Array(outcome.samples.prefix(compared)), Array(full.samples.prefix(compared)))
            #expect(fixture.seekTolerance == 0 ? difference == 0 : difference < fixture.seekTolerance,
                    "\(cut.lastPathComponent): \(difference) from the whole file's decode")
            if fraction == 0.5, let slack = fixture.cutSlack {
                // cut in half, about half plays, and the seconds are where they were
                let played = Double(outcome.frames) / Double(full.frames)
                #expect(abs(played - 0.5) < slack, "played \(played) of a file cut in half")
                let second = fixture.seconds / 4
                #expect(AudioAnalysis.secondAt(frame: second * full.rate + full.rate / 2, in: outcome.samples,
                                               channels: full.channels, rate: full.rate) == second)
            }
        }
    }

    @Test(arguments: DecoderContract.cases)
    func randomBytesWithTheExtensionAreRefusedWithOneClearReason(_ contractCase: DecoderContractCase) throws {
        // Given 8 KiB of no format, named like the fixture's format
        let harness = try ContractHarness(pluginPath: contractCase.pluginPath)
        let directory = try BuildProducts.temporaryDirectory("contract-garbage")
        let garbage = directory.appendingPathComponent("garbage." + contractCase.fixture.garbageExtension)
        try randomBytes(count: 8192).write(to: garbage)
        // When the plugin opens it
        let outcome = try #require(harness.attempt(garbage, limit: 48000 * 60, within: 30), "a hang on \(garbage.path)")
        // Then it is refused, with one clear line saying why
        let refusal = try #require(outcome.refusal, "random bytes opened and played \(outcome.frames) frames")
        #expect(BadInputOutcome.problem(with: refusal, file: garbage) == nil, "\(BadInputOutcome.problem(with: refusal, file: garbage) ?? "")")
        #expect(outcome.messages.count == 1, "\(outcome.messages)")
        if let words = contractCase.fixture.garbageReason {
            #expect(refusal.lowercased().contains(words), "\(refusal)")
        }
    }

    @Test(arguments: DecoderContract.cases)
    func mutatedFilesAreRefusedOrEndWithoutACrashOrAHang(_ contractCase: DecoderContractCase) throws {
        // Given the fixture mutated as `make fuzz` mutates it (numbers 1...24)
        let full = try DecoderContract.fullDecode(contractCase)
        let harness = try ContractHarness(pluginPath: contractCase.pluginPath)
        let seed = [UInt8](try Data(contentsOf: full.file))
        let directory = try BuildProducts.temporaryDirectory("contract-mutated-\(contractCase.pluginID)")
        for number in UInt64(1)...24 {
            let file = directory.appendingPathComponent("mutated-\(number).\(full.file.pathExtension)")
            try Data(FuzzMutation.mutate(seed, number: number)).write(to: file)
            // When it is opened, read to its end and, if that went well, seeked in
            let outcome = try #require(harness.attempt(file, limit: 4 * full.frames + 10 * full.rate, seeking: true, within: 60),
                                       "a hang on \(file.path)")
            // Then it ended: refused, or played and stopped, with clear reasons
            #expect(!outcome.overran, "\(file.path) never ends")
            for message in [outcome.refusal, outcome.readError].compactMap({ $0 }) {
                #expect(BadInputOutcome.problem(with: message, file: file) == nil, "\(file.path): \(BadInputOutcome.problem(with: message, file: file) ?? "")")
            }
            // and what it logged is lines, not a flood (damage may be reported where it lies:
            // a few spots, then a summary)
            for line in outcome.logged {
                #expect(!line.isEmpty && !line.contains("\n"), "\(file.path) logged '\(line)'")
            }
            #expect(outcome.logged.count <= 16, "\(file.path): \(outcome.logged.count) lines logged")
        }
        try? FileManager.default.removeItem(at: directory)
    }

    @Test(arguments: DecoderContract.cases)
    func probeScoresPutTheRightDecoderFirst(_ contractCase: DecoderContractCase) throws {
        let harness = try ContractHarness(pluginPath: contractCase.pluginPath)
        let plugin = harness.plugin
        // Given its own file, it claims it
        let own = try harness.probe(try contractCase.fixture.make())
        #expect(own > 0, "\(plugin.id) does not claim \(contractCase.fixture.name)")
        // and a file of every other format gets no higher a score from it than from a decoder of
        // that format (which claims it)
        for fixture in ContractFixture.all where !plugin.mimeTypes.contains(fixture.format) {
            let file = try fixture.make()
            let right = try DecoderContract.buildRegistry.decoders
                .filter { $0.mimeTypes.contains(fixture.format) && $0.path != plugin.path }
                .map { try ContractHarness.probe($0, file) }.max() ?? 0
            let score = try harness.probe(file)
            #expect(right > 0, "no decoder of the build claims \(fixture.name)")
            guard score > right else { continue }
            // (or, scoring it higher, it declines it at open — a container shared by formats,
            // an .m4a holding ALAC, an .ogg holding FLAC — and the host's next claimant plays it)
            #expect(throws: (any Error).self, "\(plugin.id) scores \(fixture.name) \(score), above its own decoder (\(right)), and opens it") {
                _ = try harness.open(file)
            }
            let chosen = try DecoderContract.buildRegistry.openDecoder(path: file.path) as? PluginDecoder
            let chosenFormats = DecoderContract.buildRegistry.decoders.first { $0.id == chosen?.pluginID }?.mimeTypes ?? []
            #expect(chosenFormats.contains(fixture.format), "\(fixture.name) is played by \(chosen?.pluginID ?? "nothing")")
        }
        // and random bytes, with each of its extensions or none, score below its own file
        let directory = try BuildProducts.temporaryDirectory("contract-probe-\(plugin.id)")
        for name in ["noise.bin", "noise"] + plugin.extensions.map({ "noise.\($0)" }) {
            let noise = directory.appendingPathComponent(name)
            try randomBytes(count: 8192).write(to: noise)
            let score = try harness.probe(noise)
            #expect(score < own, "\(plugin.id) scores random bytes named \(name) \(score), its own file \(own)")
        }
    }
}

extension DecoderContractBadInputTests {
    @Test func theMutationsAreTheFuzzToolsOwn() throws {
        // Given scripts/fuzz-mutate.c built with cc, and a seed file
        let directory = try BuildProducts.temporaryDirectory("contract-fuzz-mutate")
        let tool = directory.appendingPathComponent("fuzz-mutate")
        let source = BuildProducts.packageDirectory.appendingPathComponent("scripts/fuzz-mutate.c")
        try Command.run("cc", ["-O2", "-o", tool.path, source.path]).requireSuccess()
        let seed = try Fixtures.flac(seconds: 2)
        let bytes = [UInt8](try Data(contentsOf: seed))
        var changed = 0
        for number in UInt64(1)...24 {
            // When the tool and the contract mutate it with the same number
            let out = directory.appendingPathComponent("tool-\(number).flac")
            try Command.run(tool.path, [seed.path, out.path, String(number)]).requireSuccess()
            // Then they make the same file: a contract failure can be made again with `make fuzz`'s tool
            let mutated = FuzzMutation.mutate(bytes, number: number)
            #expect([UInt8](try Data(contentsOf: out)) == mutated, "number \(number)")
            changed += mutated == bytes ? 0 : 1
        }
        // (and they do change it)
        #expect(changed >= 20, "only \(changed) of 24 mutations changed the file")
        try? FileManager.default.removeItem(at: directory)
    }
}
