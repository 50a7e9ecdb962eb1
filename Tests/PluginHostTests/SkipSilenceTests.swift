import Foundation
import PlayerCore
import PluginHost
import TestSupport
import Testing

/// Skip silence in the engine, with the real wav decoder and outputs: a time-coded tone cut by
/// digital silences of known lengths, checked on the audio that comes out and on the positions
/// reported while it is heard.
@Suite struct SkipSilenceTests {
    static let rate = 44100
    /// The silences put between the tone's pieces, in seconds: one under the 0.6 s minimum.
    static let silences = [0.3, 1.0, 2.5, 5.0]
    static let pieceSeconds = 2
    static let keptFrames = Int(SilenceSkipping.keptSeconds * Double(rate))

    /// Where each piece of tone sits in the fixture: its first frame and the tone second it
    /// starts with.
    struct Piece {
        let start: Int
        let firstSecond: Int
        var frames: Int { SkipSilenceTests.pieceSeconds * SkipSilenceTests.rate }
    }

    /// Mono FLAC (made by the flac tool; lossless, so it decodes to the WAV's samples): 2 s of the
    /// time-coded tone (whole seconds, so it fades in and out), each silence in turn, and 2 s
    /// more after each (seconds 0-1, silence, 2-3, ..., 8-9).
    static func fixture() throws -> (url: URL, samples: [Float], pieces: [Piece]) {
        let tone = TimeCodedSignal.render(seconds: pieceSeconds * (silences.count + 1), rate: rate, channels: 1)
        var samples: [Float] = []
        var pieces: [Piece] = []
        for index in 0...silences.count {
            pieces.append(Piece(start: samples.count, firstSecond: index * pieceSeconds))
            let from = index * pieceSeconds * rate
            samples += tone[from..<(from + pieceSeconds * rate)]
            if index < silences.count { samples += [Float](repeating: 0, count: Int(silences[index] * Double(rate))) }
        }
        let directory = try BuildProducts.temporaryDirectory("skip-silence-fixture")
        let wav = directory.appendingPathComponent("tone-silences.wav")
        let url = directory.appendingPathComponent("tone-silences.flac")
        try WavFile(rate: rate, channels: 1, samples: samples, encoding: .pcm16).write(to: wav)
        try Command.run("flac", ["--silent", "--force", "-o", url.path, wav.path]).requireSuccess()
        return (url, try WavFile.read(wav).samples, pieces)
    }

    /// Runs of frames under `threshold` at least `shortest` frames long, as (start, length).
    static func quietRuns(_ samples: [Float], threshold: Float, shortest: Int) -> [(start: Int, length: Int)] {
        var runs: [(Int, Int)] = []
        var start = -1
        for (index, sample) in samples.enumerated() {
            if abs(sample) < threshold {
                if start < 0 { start = index }
            } else {
                if start >= 0, index - start >= shortest { runs.append((start, index - start)) }
                start = -1
            }
        }
        if start >= 0, samples.count - start >= shortest { runs.append((start, samples.count - start)) }
        return runs
    }

    /// Plays `url` to a WAV file as fast as it decodes with skip silence on, after `configure`;
    /// returns what came out and the seconds the engine said it skipped.
    static func render(_ url: URL, name: String, configure: (PlaybackEngine) -> Void = { _ in }) async throws -> (WavFile, Double) {
        let registry = PlaybackEngineTests.registry()
        let output = try BuildProducts.temporaryDirectory("skip-silence-\(name)").appendingPathComponent("out.wav")
        let engine = PlaybackEngine(
            decoders: registry, sinks: try registry.sinkOpener(pluginID: "wav", options: ["path": output.path]))
        engine.setSilenceSkipping(SilenceSkipping())
        configure(engine)
        engine.load([url.path])
        let events = await TestSupport.events(of: engine, within: 60)
        engine.shutdown()
        #expect(events.contains { if case .ended = $0 { true } else { false } }, "\(name) did not end")
        let skipped = events.reduce(0.0) { total, event in
            if case let .silenceSkipped(_, frames, rate) = event { total + Double(frames) / Double(rate) } else { total }
        }
        return (try WavFile.read(output), skipped)
    }

    @Test func longSilencesAreShortenedToThePauseAndEverythingElseIsBitExact() async throws {
        // Given the tone with silences of 0.3, 1, 2.5 and 5 s, and a book level of -9 LUFS (the
        // tone's): the threshold is -41 dBFS
        let (url, source, pieces) = try Self.fixture()
        let threshold = Float(pow(10, (-9 - SilenceSkipping.belowSpeechDecibels) / 20))
        let sourceRuns = Self.quietRuns(source, threshold: threshold, shortest: Self.rate / 10)
        #expect(sourceRuns.count == Self.silences.count)
        // When it plays with skip silence on (minimum 0.6 s)
        let (wav, skippedSeconds) = try await Self.render(url, name: "exact") { $0.setReferenceLoudness(-9) }
        // Then every quiet run of at least 0.6 s comes out exactly the pause kept, the shorter one whole
        let minimum = Int(SilenceSkipping.defaultMinimumSeconds * Double(Self.rate))
        let expected = sourceRuns.map { $0.length >= minimum ? Self.keptFrames : $0.length }
        let outputRuns = Self.quietRuns(wav.samples, threshold: threshold, shortest: Self.rate / 10)
        #expect(outputRuns.map(\.length) == expected, "source runs \(sourceRuns.map(\.length)), out \(outputRuns.map(\.length))")
        // and the output is the source less exactly what was removed, which the engine reported
        let removed = sourceRuns.reduce(0) { $0 + ($1.length >= minimum ? $1.length - Self.keptFrames : 0) }
        #expect(wav.frameCount == source.count - removed)
        #expect(abs(skippedSeconds - Double(removed) / Double(Self.rate)) < 1e-9)
        // and each piece of tone is the source's, sample for sample
        var outputStart = 0
        for (index, piece) in pieces.enumerated() {
            let heard = Array(wav.samples[outputStart..<min(wav.samples.count, outputStart + piece.frames)])
            #expect(heard == Array(source[piece.start..<(piece.start + piece.frames)]), "piece \(index) differs")
            if index < Self.silences.count {
                outputStart += piece.frames + (pieces[index + 1].start - piece.start - piece.frames) - (sourceRuns[index].length >= minimum ? sourceRuns[index].length - Self.keptFrames : 0)
            }
        }
        // and nothing clicks: no step between samples is larger than the source's largest
        let largestStep = { (samples: [Float]) in zip(samples, samples.dropFirst()).map { abs($0 - $1) }.max() ?? 0 }
        #expect(largestStep(wav.samples) <= largestStep(source) + 1e-6)
    }

    @Test func withoutAReferenceTheLevelHeardSetsTheThreshold() async throws {
        // Given the same fixture and no loudness known for the book
        let (url, _, _) = try Self.fixture()
        // When it plays with skip silence on
        let (wav, _) = try await Self.render(url, name: "adaptive")
        // Then the silences found in what came out are the short one whole and the pause kept,
        // within 10 ms (the edges of the tone's fades are quiet too)
        let runs = Self.quietRuns(wav.samples, threshold: 0.001, shortest: Self.rate / 10).map { Double($0.length) / Double(Self.rate) }
        let expected = [0.3, 0.25, 0.25, 0.25]
        #expect(runs.count == expected.count, "runs \(runs)")
        for (run, target) in zip(runs, expected) { #expect(abs(run - target) <= 0.01, "run \(run) s, expected \(target) s") }
    }

    /// Plays the fixture to a `RecordingSink` at `sinkRate`, at `speed`, as fast as it decodes:
    /// what was heard, and the positions reported after each pull.
    static func record(speed: Double, sinkRate: Int) throws -> (heard: [Float], positions: [(outputFrame: Int, position: PlaybackPosition)], source: [Float], pieces: [Piece]) {
        let (url, source, pieces) = try Self.fixture()
        let opener = RecordingSink.Opener(rate: sinkRate)
        let engine = PlaybackEngine(decoders: PlaybackEngineTests.registry(), sinks: opener)
        opener.engine.withLock { $0 = engine }
        engine.setSilenceSkipping(SilenceSkipping())
        engine.setSpeed(speed)
        engine.load([url.path])
        let deadline = ContinuousClock.now + .seconds(60)
        while engine.state != .stopped || opener.heard.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
        }
        engine.shutdown()
        opener.engine.withLock { $0 = nil }
        return (opener.heard.withLock { $0 }, opener.positions.withLock { $0 }, source, pieces)
    }

    /// Synchronous: the wait blocks this thread (see EngineSeekTests.waitFor).
    @Test func thePositionReportedIsTheSourceFrameHeard() throws {
        // Given the fixture playing at speed 1 with skip silence on
        let (heard, positions, source, _) = try Self.record(speed: 1, sinkRate: Self.rate)
        // Then at every moment the position reported is the source frame of the next sample
        // heard: found by matching the heard samples around it in the source
        #expect(positions.count > 100)
        var checked = 0
        for (outputFrame, position) in positions where outputFrame + 64 < heard.count && position.frame + 64 < source.count {
            guard position.item == 0 else { continue }
            let next = Array(heard[outputFrame..<(outputFrame + 64)])
            let there = Array(source[Int(position.frame)..<(Int(position.frame) + 64)])
            // Inside a silence every place looks the same; a crossfade mixes two: check the tone.
            guard next.contains(where: { abs($0) > 0.05 }) else { continue }
            #expect(next == there, "output frame \(outputFrame): position \(position.frame) is not what was heard")
            checked += 1
        }
        #expect(checked > 50)
    }

    /// Synchronous: the wait blocks this thread.
    @Test func atSpeedAndResampledTheSilencesAreShortenedAndPositionsFollowTheTimeCode() throws {
        // Given the fixture played at speed 1.5 to a 48 kHz output (speed and the resampler after
        // skip silence)
        let (heard, positions, source, pieces) = try Self.record(speed: 1.5, sinkRate: 48000)
        // Then it lasts the source less the silences removed, at 1.5 times (within 2 %)
        let removedSeconds = [1.0, 2.5, 5.0].reduce(0) { $0 + $1 - SilenceSkipping.keptSeconds }
        let expectedSeconds = (Double(source.count) / Double(Self.rate) - removedSeconds) / 1.5
        let seconds = Double(heard.count) / 48000
        #expect(abs(seconds - expectedSeconds) / expectedSeconds < 0.02, "lasted \(seconds) s, expected \(expectedSeconds) s")
        // and its silences are the short one and three pauses, heard at 1.5 times (within 10 ms)
        let runs = Self.quietRuns(heard, threshold: 0.001, shortest: 48000 / 20).map { Double($0.length) / 48000 }
        let expected = [0.3, 0.25, 0.25, 0.25].map { $0 / 1.5 }
        #expect(runs.count == expected.count, "runs \(runs)")
        for (run, target) in zip(runs, expected) { #expect(abs(run - target) <= 0.01, "run \(run) s, expected \(target) s") }
        // and the position reported while a tone second is heard lies in that second of the source
        var checked = 0
        for (outputFrame, position) in positions where outputFrame >= 4800 {
            // Only where all of the window is tone: a pause kept in it says nothing of the second.
            guard Self.quietRuns(Array(heard[(outputFrame - 4800)..<outputFrame]), threshold: 0.001, shortest: 240).isEmpty else { continue }
            let frequency = AudioAnalysis.dominantFrequency(heard, channels: 1, rate: 48000, from: outputFrame - 4800, count: 4800)
            guard let second = TimeCodedSignal.second(forFrequency: frequency),
                  let piece = pieces.last(where: { $0.firstSecond <= second }), second - piece.firstSecond < Self.pieceSeconds
            else { continue }
            let secondStart = piece.start + (second - piece.firstSecond) * Self.rate
            // The window heard is the 0.1 s (0.15 s of source) before the position.
            let slack = Int(0.2 * Double(Self.rate))
            #expect(position.frame >= Int64(secondStart) && position.frame <= Int64(secondStart + Self.rate + slack),
                    "heard second \(second) (source \(secondStart)...) but position \(position.frame)")
            checked += 1
        }
        #expect(checked > 20)
    }
}

extension SkipSilenceTests {
    /// Synchronous: the waits block this thread.
    @Test func aSeekIntoASilenceAndAPauseKeepPositionsTheSourceFramesHeard() throws {
        // Given the fixture playing with skip silence on, to an output taking it as fast as it comes
        let (url, source, pieces) = try Self.fixture()
        let opener = RecordingSink.Opener(rate: Self.rate)
        let engine = PlaybackEngine(decoders: PlaybackEngineTests.registry(), sinks: opener)
        opener.engine.withLock { $0 = engine }
        engine.setSilenceSkipping(SilenceSkipping())
        engine.load([url.path])
        func waitUntil(_ condition: () -> Bool) -> Bool {
            let deadline = ContinuousClock.now + .seconds(60)
            while !condition(), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
            return condition()
        }
        // When, once a second was heard, it seeks 1 s into the 5 s silence, then pauses and plays again
        #expect(waitUntil { opener.heard.withLock { $0.count } > Self.rate })
        let fiveSecondSilence = pieces[4].start - Int(5.0 * Double(Self.rate))
        engine.seek(to: PlaybackPosition(item: 0, frame: Int64(fiveSecondSilence + Self.rate)))
        #expect(waitUntil { engine.position.map { $0.frame > Int64(pieces[4].start) } ?? false })
        engine.pause()
        #expect(waitUntil { engine.state == .paused })
        engine.play()
        #expect(waitUntil { engine.state == .stopped })
        engine.shutdown()
        opener.engine.withLock { $0 = nil }
        let heard = opener.heard.withLock { $0 }
        let positions = opener.positions.withLock { $0 }

        // Then every position reported while tone was heard is the source frame heard next, and
        // the frames after it are the source's that follow, up to 64 of them; no further than
        // the output's next stop: there the seek dropped the rest of the ring, and what is heard
        // after comes from the place sought (a pull just before it may have left only a few
        // frames to hear from this position; a pause keeps the ring, so it cuts no window short)
        var checked = 0
        for (outputFrame, position) in positions where outputFrame + 64 < heard.count && Int(position.frame) + 64 < source.count {
            let end = min(outputFrame + 64, opener.stop(after: outputFrame) ?? heard.count)
            let next = Array(heard[outputFrame..<end])
            guard next.contains(where: { abs($0) > 0.05 }) else { continue }
            #expect(next == Array(source[Int(position.frame)..<(Int(position.frame) + next.count)]),
                    "output frame \(outputFrame): position \(position.frame) is not what was heard")
            checked += 1
        }
        #expect(checked > 50)
        // and no silence was heard whole: none longer than two pauses (the pause and play may
        // have split one in two, each shortened)
        let runs = Self.quietRuns(heard, threshold: 0.001, shortest: Self.rate / 10)
        #expect(runs.allSatisfy { Double($0.length) / Double(Self.rate) <= 2 * SilenceSkipping.keptSeconds + 0.01 }, "\(runs.map(\.length))")
    }
}
