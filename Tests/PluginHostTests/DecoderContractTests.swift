import Foundation
import PlayerCore
@testable import PluginHost
import TestSupport
import Testing

/// The decoder contract: exact length, the source's audio, exact seeks and metadata through the
/// callbacks, for every decoder plugin (see DecoderContract for where the cases come from).
@Suite struct DecoderContractTests {
    @Test func everyDecoderInTheBuildHasAFixture() throws {
        // Given the decoders the build's descriptors declare
        let decoders = DecoderContract.buildRegistry.decoders
        // Then there are some, and each meets at least one fixture of its format: a decoder added
        // without a fixture maker in the table would otherwise pass the contract by running no case
        #expect(!decoders.isEmpty, "no decoder plugin in \(BuildProducts.binDirectory.path): build first")
        for plugin in decoders {
            #expect(ContractFixture.all.contains { plugin.mimeTypes.contains($0.format) },
                    "decoder \(plugin.id) (\(plugin.mimeTypes)) has no fixture maker in ContractFixture.all")
        }
        // and every fixture of the table reaches a decoder
        for fixture in ContractFixture.all {
            #expect(decoders.contains { $0.mimeTypes.contains(fixture.format) }, "no decoder lists \(fixture.format) (\(fixture.name))")
        }
    }

    @Test(arguments: DecoderContract.cases)
    func lengthAndAudioAreTheSources(_ contractCase: DecoderContractCase) throws {
        // Given the fixture decoded to its end by the plugin
        let fixture = contractCase.fixture
        let full = try DecoderContract.fullDecode(contractCase)
        // Then it ended without an error, at the length it reported at open
        #expect(full.error == nil, "\(full.error ?? "")")
        if let total = full.info.totalFrames { #expect(Int(total) == full.frames, "reported \(total) frames at open, decoded \(full.frames)") }
        if let rate = fixture.rate { #expect(full.rate == rate) }
        if let channels = fixture.channels { #expect(full.channels == channels) }
        // and that length is the source's, as far as the codec allows
        switch fixture.length {
        case .source:
            #expect(full.info.totalFrames == Int64(fixture.seconds * full.rate))
            #expect(full.frames == fixture.seconds * full.rate)
        case .ffmpegMinus(let frames):
            let reference = try Fixtures.ffmpegDecode(full.file)
            #expect(full.info.totalFrames == Int64(reference.samples.count / reference.channels - frames))
            #expect(full.frames == reference.samples.count / reference.channels - frames)
        case .reference(let wav):
            let reference = try WavFile.read(wav)
            #expect(full.rate == reference.rate && full.channels == reference.channels)
            #expect(full.frames == reference.frameCount)
        case .selfConsistent:
            #expect(full.frames > 0)
        case .stated(let frames):
            #expect(full.info.totalFrames == Int64(frames))
            #expect(full.frames == frames)
        }
        // and the audio is the source's
        try expectSourceAudio(full, fixture)
        if fixture.timeCoded {
            for second in [0, fixture.seconds / 4, fixture.seconds / 2 + 3, fixture.seconds - 1] {
                #expect(AudioAnalysis.secondAt(frame: second * full.rate + full.rate / 2, in: full.samples, channels: full.channels, rate: full.rate) == second)
            }
        }
    }

    private func expectSourceAudio(_ full: DecoderContract.FullDecode, _ fixture: ContractFixture) throws {
        switch fixture.audio {
        case .lossless(let correlation):
            let source = try WavFile.read(try Fixtures.timeCodedWAV(seconds: fixture.seconds, rate: full.rate, channels: full.channels))
            #expect(source.samples.count == full.samples.count)
            #expect(AudioAnalysis.maxAbsDifference(full.samples, source.samples) == 0)
            let reference = try Fixtures.ffmpegDecode(full.file)
            #expect(reference.samples.count == full.samples.count)
            #expect(AudioAnalysis.correlation(full.samples, reference.samples) > correlation)
        case let .ffmpeg(skip, sameLength, maxDifference, correlation):
            let reference = try Fixtures.ffmpegDecode(full.file)
            let aligned = Array(reference.samples.dropFirst(skip * reference.channels))
            #expect(reference.channels == full.channels && reference.rate == full.rate)
            if sameLength {
                #expect(aligned.count == full.samples.count)
            } else {
                #expect(aligned.count >= full.samples.count)
            }
            let prefix = Array(aligned.prefix(full.samples.count))
            #expect(AudioAnalysis.correlation(full.samples, prefix) > correlation)
            if let maxDifference { #expect(AudioAnalysis.maxAbsDifference(full.samples, prefix) < maxDifference) }
            // and it is not shifted: a second around the middle (across a change of tone) lines up
            // with ffmpeg's at lag 0
            let middle = full.frames / 2 - full.rate / 2
            let ours = AudioAnalysis.channel(full.window(from: middle, count: full.rate), channels: full.channels, index: 0)
            let theirs = AudioAnalysis.channel(Array(prefix[(middle * full.channels)..<((middle + full.rate) * full.channels)]),
                                               channels: full.channels, index: 0)
            #expect(AudioAnalysis.bestLag(ours, theirs, maxLag: 2048) == 0)
        case let .ffmpegOverlap(skip, correlation):
            let reference = try Fixtures.ffmpegDecode(full.file)
            #expect(reference.channels == full.channels && reference.rate == full.rate)
            let aligned = Array(reference.samples.dropFirst(skip * reference.channels))
            let common = min(aligned.count, full.samples.count)
            #expect(AudioAnalysis.correlation(Array(full.samples.prefix(common)), Array(aligned.prefix(common))) > correlation)
            let middle = full.frames / 2 - full.rate / 2
            let ours = AudioAnalysis.channel(full.window(from: middle, count: full.rate), channels: full.channels, index: 0)
            let theirs = AudioAnalysis.channel(Array(aligned[(middle * full.channels)..<((middle + full.rate) * full.channels)]),
                                               channels: full.channels, index: 0)
            #expect(AudioAnalysis.bestLag(ours, theirs, maxLag: 2048) == 0)
        case let .reference(wav, lossless):
            let reference = try WavFile.read(wav)
            if lossless {
                #expect(AudioAnalysis.maxAbsDifference(full.samples, reference.samples) == 0)
            } else {
                #expect(AudioAnalysis.correlation(full.samples, reference.samples) > 0.999)
            }
        case .none:
            break
        }
    }

    @Test(arguments: DecoderContract.cases)
    func seeksLandOnTheExactFrame(_ contractCase: DecoderContractCase) throws {
        // Given the full decode as the reference for every frame, and the plugin seekable
        let fixture = contractCase.fixture
        let full = try DecoderContract.fullDecode(contractCase)
        let harness = try ContractHarness(pluginPath: contractCase.pluginPath)
        let decoder = try harness.open(full.file)
        #expect(decoder.info.isSeekable, "\(contractCase.pluginID) cannot seek in \(full.file.lastPathComponent)")
        guard decoder.info.isSeekable, full.frames > 0 else { return }
        // When it seeks to the start, into the middle, near the end, then back near the start
        // (20 s: 0, 7.75, 10.75, 13.75, 19.9 then 0.01 s), reading on to a quarter second past
        // the next change of second: within one second the signal is one tone, and a tone whose
        // frequency is a multiple of 25 Hz repeats itself every 40 ms, so only a window across a
        // change of tone shows a seek to be exact
        let places = [0, 0.3875, 0.5375, 0.6875, 0.995, 0.0005].map { Int(Double(full.frames) * $0) }
        for place in places {
            let window = (place / full.rate + 1) * full.rate + full.rate / 4 - place
            try decoder.seek(to: Int64(place))
            let heard = try ContractHarness.read(decoder, frames: window)
            let expected = full.window(from: place, count: window)
            #expect(heard.count == expected.count, "after a seek to \(place)")
            switch fixture.seeks {
            case .exactFrame, .knownIssue:
                // Then each window is the full decode's frames at that offset
                let difference = AudioAnalysis.maxAbsDifference(heard, expected)
                let exact = fixture.seekTolerance == 0 ? difference == 0 : difference < fixture.seekTolerance
                if case .knownIssue(let reason) = fixture.seeks {
                    withKnownIssue(Comment(rawValue: reason), isIntermittent: true) { #expect(exact, "after a seek to frame \(place): \(difference)") }
                } else {
                    #expect(exact, "after a seek to frame \(place): \(difference) from the full decode")
                }
            case .historyDependent:
                break
            case .timestamps(let frames):
                // Then the window lines up with the full decode's within the timestamps' precision
                // (across the change of tone it ends on), and the second heard after it is the next
                let tail = full.rate / 2
                guard heard.count >= tail * full.channels, place + window - tail >= 0 else { continue }
                let ours = AudioAnalysis.channel(Array(heard.suffix(tail * full.channels)), channels: full.channels, index: 0)
                let theirs = AudioAnalysis.channel(full.window(from: place + window - tail, count: tail), channels: full.channels, index: 0)
                #expect(abs(AudioAnalysis.bestLag(ours, theirs, maxLag: 2048)) <= frames, "after a seek to frame \(place)")
                if place / full.rate + 1 < fixture.seconds {
                    // (the quarter second after the change of tone, clear of its fade)
                    let from = window - full.rate / 4 + full.rate / 40
                    let pitch = AudioAnalysis.dominantFrequency(heard, channels: full.channels, rate: full.rate, from: from, count: window - from)
                    #expect(TimeCodedSignal.second(forFrequency: pitch) == place / full.rate + 1, "after a seek to frame \(place)")
                }
            }
        }
        // and the second heard after a seek to a whole second is that second
        if fixture.timeCoded {
            let second = fixture.seconds / 2 + 1
            try decoder.seek(to: Int64(second * full.rate))
            let heard = try ContractHarness.read(decoder, frames: full.rate)
            let heardSecond = AudioAnalysis.secondAt(frame: full.rate / 2, in: heard, channels: full.channels, rate: full.rate)
            if case .knownIssue(let reason) = fixture.seeks {
                withKnownIssue(Comment(rawValue: reason), isIntermittent: true) { #expect(heardSecond == second) }
            } else {
                #expect(heardSecond == second)
            }
        }
        // and a seek to the very end leaves nothing to read
        if let total = decoder.info.totalFrames {
            try decoder.seek(to: total)
            #expect(try ContractHarness.read(decoder, frames: 4096).isEmpty)
        } else {
            // or, where the length is not known, a seek a minute past the end is refused as
            // ABP_ERR_SEEK and reading goes on from a valid place (plugin.h, `seek`)
            #expect { try decoder.seek(to: Int64(full.frames + 60 * full.rate)) } throws: { ($0 as? AudioError)?.kind == .seek }
            let after = ContractHarness.readToEnd(decoder, limit: full.frames)
            #expect(after.error == nil, "reading after a seek past the end: \(String(describing: after.error))")
        }
    }

    @Test(arguments: DecoderContract.cases)
    func tagsAndChaptersArriveThroughTheCallbacks(_ contractCase: DecoderContractCase) throws {
        let harness = try ContractHarness(pluginPath: contractCase.pluginPath)
        // Given the fixture, and a tagged copy with chapters where the format carries them
        let plain = try harness.open(try contractCase.fixture.make())
        // Then whatever chapters arrive lie inside the stream
        for chapter in plain.metadata.chapters {
            #expect(chapter.startFrame >= 0 && chapter.startFrame <= (plain.info.totalFrames ?? .max), "\(chapter)")
        }
        guard let metadata = contractCase.fixture.metadata else { return }
        #expect(harness.plugin.capabilities.contains(.tags) && harness.plugin.capabilities.contains(.chapters),
                "\(contractCase.pluginID) does not declare ABP_CAP_TAGS and ABP_CAP_CHAPTERS for a format that carries them")
        let tagged = try harness.open(try metadata.make())
        // When it is opened, the tags that went in come out
        for (key, value) in metadata.tags {
            #expect(tagged.metadata.tags.values(key) == [value], "\(key): \(tagged.metadata.tags.entries)")
        }
        // and the chapters, at the exact frames of their times at the output rate, with their titles
        let rate = Double(tagged.info.format.rate)
        #expect(tagged.metadata.chapters.map(\.title) == metadata.chapters.map(\.title))
        #expect(tagged.metadata.chapters.map(\.startFrame) == metadata.chapters.map { Int64(($0.startSeconds * rate).rounded()) })
    }
}
