import Foundation
import GRDB
import Library
import Listening
@testable import Player
import PlayerCore
import TestSupport
import Testing

/// Evening out books' loudness, through the controller with the real plugins, libebur128 and the
/// wav sink, checked against ffmpeg's EBU R128 meter.
@Suite struct LoudnessTests {
    /// A harness playing as fast as it decodes into `heard.wav`, with a book per narration.
    /// `prepare` may add files to a book's folder before it is imported.
    static func harness(_ name: String, books: [(title: String, gainDB: Double, normalizedPeak: Bool)],
                        prepare: (URL) throws -> Void = { _ in }) throws
        -> (ControllerHarness, output: URL, ids: [Int64]) {
        let output = try BuildProducts.temporaryDirectory("loudness-\(name)-out").appending(path: "heard.wav")
        let harness = try ControllerHarness("loudness-\(name)", paced: false, wavOutput: output)
        var ids: [Int64] = []
        for book in books {
            let folder = harness.folder.appending(path: book.title)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let flac = try Fixtures.narration("01.flac", in: folder, gainDB: book.gainDB, normalizedPeak: book.normalizedPeak)
            // The source as PCM, beside the book (not in it) for comparisons.
            try FileManager.default.moveItem(at: folder.appending(path: "01.flac.wav"),
                                             to: harness.folder.appending(path: "\(book.title).wav"))
            try prepare(flac)
            _ = try Importer(library: harness.library, inspector: DecoderInspector(decoders: ControllerHarness.registry))
                .importPaths([folder.path])
            ids.append(try harness.library.books.book(matching: book.title).id!)
        }
        return (harness, output, ids)
    }

    static func measured(_ harness: ControllerHarness) -> Int {
        harness.notices.filter { if case .loudnessMeasured = $0 { true } else { false } }.count
    }

    static func ended(_ harness: ControllerHarness) -> Bool {
        harness.events.contains { if case .ended = $0 { true } else { false } }
    }

    @Test func theMeasureAgreesWithFFmpegsMeter() throws {
        // Given two narrations, one 20 dB quieter than the other
        let folder = try BuildProducts.temporaryDirectory("loudness-meter")
        let loud = try Fixtures.narration("loud.flac", in: folder, gainDB: 0)
        let quiet = try Fixtures.narration("quiet.flac", in: folder, gainDB: -20)
        for file in [loud, quiet] {
            // When abplayer's meter measures each
            let reading = try LoudnessMeter(decoders: ControllerHarness.registry).measure(paths: [file.path])
            // Then its integrated loudness is within 0.5 LU of ffmpeg's, and its true peak within 0.5 dB
            let reference = try LoudnessMeasure.ffmpeg(file)
            let integrated = try #require(reading.integratedLUFS)
            let peak = try #require(reading.peakDBTP)
            #expect(abs(integrated - reference.integratedLUFS) <= 0.5, "\(file.lastPathComponent): \(integrated) vs \(reference.integratedLUFS)")
            #expect(abs(peak - reference.truePeakDBTP) <= 0.5, "\(file.lastPathComponent): \(peak) vs \(reference.truePeakDBTP)")
            #expect(reading.isTruePeak)
        }
    }

    @Test func twoBooksRecordedAt20dBApartComeOutWithin1LUOfTheTarget() async throws {
        var outputs: [LoudnessMeasure] = []
        for (title, gain) in [("Loud", 0.0), ("Quiet", -20.0)] {
            // Given a book recorded loud, or 20 dB quieter, measured first
            let (harness, output, ids) = try Self.harness(title, books: [(title, gain, false)])
            try harness.perform(.loudness(.measure(bookId: ids[0])))
            #expect(await harness.run(until: { Self.measured(harness) == 1 }))
            // When it plays to its end into the wav sink
            try harness.perform(.play(bookId: ids[0]))
            #expect(harness.status.loudnessGain != nil, "\(harness.status.loudness ?? "")")
            #expect(await harness.run(until: { Self.ended(harness) }))
            harness.controller.close()
            outputs.append(try LoudnessMeasure.ffmpeg(output))
        }
        // Then both come out within 1 LU of the -18 LUFS target and of each other
        for measure in outputs {
            #expect(abs(measure.integratedLUFS - Loudness.defaultTargetLUFS) <= 1, "\(measure.integratedLUFS) LUFS")
        }
        #expect(abs(outputs[0].integratedLUFS - outputs[1].integratedLUFS) <= 1)
    }

    @Test func aBookPlaysAtOnceIsMeasuredInTheBackgroundOnceAndTheMeasureIsKept() async throws {
        // Given a quiet book never measured
        let (harness, _, ids) = try Self.harness("first-play", books: [("Quiet", -20, false)])
        // When it plays
        try harness.perform(.play(bookId: ids[0]))
        // Then it starts at once, its loudness being measured
        #expect(harness.status.loudness == "loudness measuring")
        #expect(harness.status.loudnessGain == nil)
        // and once measured, the gain applies (about +18.6 dB toward -18 LUFS) and status says it
        #expect(await harness.run(until: { Self.measured(harness) == 1 }))
        let gain = try #require(harness.status.loudnessGain)
        #expect(gain > 15 && gain < 22, "\(gain)")
        #expect(harness.status.text.contains("gain +"), "\(harness.status.text)")
        #expect(harness.controller.session?.engine.loudnessGainDecibels == gain)
        // and the measure is in the library file, over the book's one item
        let path = harness.folder.appending(path: "library.sqlite").path
        let stored = try DatabaseQueue(path: path).read { db in
            try Row.fetchOne(db, sql: "SELECT integratedLUFS, peakDBTP, measuredOver, measuredAt FROM bookLoudness WHERE bookId = ?",
                             arguments: [ids[0]])
        }
        let row = try #require(stored)
        let integrated: Double = row[0]
        #expect(abs(integrated - (Loudness.defaultTargetLUFS - gain)) < 0.01)
        let measuredAt: String = row[3]
        let media = try harness.library.books.items(ofBook: ids[0])
        #expect((row[2] as String) == "\(media[0].id!):\(media[0].fingerprint)")

        // When it is played again
        harness.controller.close()
        try harness.perform(.play(bookId: ids[0]))
        // Then the stored gain applies at once, and nothing is measured again
        #expect(harness.status.loudnessGain == gain)
        #expect(harness.controller.loudness.measuring.isEmpty)
        #expect(await harness.run(until: { Self.ended(harness) }))
        #expect(Self.measured(harness) == 1)
        let measuredAgain: String? = try await DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT measuredAt FROM bookLoudness WHERE bookId = ?", arguments: [ids[0]])
        }
        #expect(measuredAgain == measuredAt)
    }

    @Test func boostedAudioStaysUnderMinus1dBTP() async throws {
        // Given a narration peaking at -8.1 dBFS and about 7.6 dB under the target (a positive
        // gain), played at 150 % volume (+3.5 dB): its peaks would reach about +3 dBFS
        let (harness, output, ids) = try Self.harness("boosted", books: [("Peaky", -8, true)])
        try harness.perform(.loudness(.measure(bookId: ids[0])))
        #expect(await harness.run(until: { Self.measured(harness) == 1 }))
        try harness.perform(.play(bookId: ids[0]))
        _ = try harness.perform(.volume(percent: 150))
        let gain = try #require(harness.status.loudnessGain)
        #expect(gain > 0)
        // When it plays to its end
        #expect(await harness.run(until: { Self.ended(harness) }))
        harness.controller.close()
        // Then nothing heard passes -1 dBTP (ffmpeg's 4x oversampled true peak)
        let heard = try LoudnessMeasure.ffmpeg(output)
        #expect(heard.truePeakDBTP <= -1, "\(heard.truePeakDBTP) dBTP")
        // and it is louder than it was (the gain and the volume were applied, not dropped)
        let source = try LoudnessMeasure.ffmpeg(harness.folder.appending(path: "Peaky.wav"))
        #expect(heard.integratedLUFS > source.integratedLUFS + 3, "\(heard.integratedLUFS) vs \(source.integratedLUFS)")
    }

    @Test func withLoudnessOffTheOutputIsTheSourceBitForBit() async throws {
        // Given a book at -8 dB with loudness turned off by the listener's default
        let (harness, output, ids) = try Self.harness("off", books: [("Plain", -8, false)])
        _ = try harness.perform(.defaults(.set(.loudness, 0)))
        // When it plays to its end
        try harness.perform(.play(bookId: ids[0]))
        #expect(harness.status.loudness == "loudness off")
        #expect(await harness.run(until: { Self.ended(harness) }))
        harness.controller.close()
        // Then the samples heard are the source's, exactly, and nothing was measured
        let heard = try WavFile.read(output)
        let source = try WavFile.read(harness.folder.appending(path: "Plain.wav"))
        #expect(heard.frameCount == source.frameCount)
        #expect(heard.samples == source.samples)
        #expect(Self.measured(harness) == 0)
        #expect(try harness.library.settings.loudness(ofBook: ids[0]) == nil)
    }

    @Test func aBookWithABrokenFileSaysSoInOneLineAndStillPlays() async throws {
        // Given a book of three narrations whose second became garbage after the import
        let (harness, _, ids) = try Self.harness("broken", books: [("Broken", 0, false)]) { first in
            // (copies with one byte changed: the library knows files by content)
            for (number, byte) in [("02", 0xFF), ("03", 0x0F)] {
                var copy = try Data(contentsOf: first)
                copy[copy.count - 1] ^= UInt8(byte)
                try copy.write(to: first.deletingLastPathComponent().appending(path: "\(number).flac"))
            }
        }
        let broken = harness.folder.appending(path: "Broken/02.flac")
        try Data(repeating: 0x5A, count: 50_000).write(to: broken)
        #expect(try harness.library.books.items(ofBook: ids[0]).count == 3)
        // When it plays
        try harness.perform(.play(bookId: ids[0]))
        // Then it plays its first and last items to the end
        #expect(await harness.run(until: { Self.ended(harness) && harness.controller.loudness.measuring.isEmpty }))
        for item in [0, 2] {
            #expect(harness.events.contains { if case let .position(place) = $0 { place.item == item && place.frame > 44100 } else { false } })
        }
        // and the loudness says, in one line naming the file, that it could not be measured
        let lines = harness.notices.map(\.text).filter { $0.hasPrefix("loudness") }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("02.flac") == true, "\(lines)")
        #expect(lines.first?.contains("\n") == false)
        #expect(lines.first?.components(separatedBy: "02.flac").count == 2, "the file named once: \(lines)")
        #expect(harness.status.loudnessGain == nil)
        // and played again in the same run, neither the measure nor the skip says it again
        let before = harness.notices.count
        let endings = harness.events.filter { if case .ended = $0 { true } else { false } }.count
        try harness.perform(.play(bookId: ids[0]))
        #expect(await harness.run(until: {
            harness.events.filter { if case .ended = $0 { true } else { false } }.count > endings
                && harness.controller.loudness.measuring.isEmpty
        }))
        #expect(!harness.notices.dropFirst(before).contains { $0.text.contains("02.flac") }, "\(harness.notices)")
    }

    @Test func aMeasureIsStaleOnceTheBooksItemsChange() throws {
        // Given a book of two items with a measure stored over them
        let harness = try ControllerHarness(clocked: "loudness-stale")
        let id = try harness.book("Two", itemSeconds: [2, 3])
        let media = try harness.library.books.items(ofBook: id)
        let reading = LoudnessReading(integratedLUFS: -23, peakDBTP: -3, isTruePeak: true)
        try harness.library.settings.saveLoudness(reading, ofBook: id, measuredOver: media)
        #expect(try harness.library.settings.loudness(ofBook: id) == reading)
        // When its items are put in another order
        try harness.library.books.reorderItems(ofBook: id, mediaIds: media.reversed().map { $0.id! })
        // Then the measure no longer applies; measured again over them, it does
        #expect(try harness.library.settings.loudness(ofBook: id) == nil)
        try harness.library.settings.saveLoudness(reading, ofBook: id, measuredOver: try harness.library.books.items(ofBook: id))
        #expect(try harness.library.settings.loudness(ofBook: id) == reading)
        // and when one is removed, or its file's content changes (a rescan gives it a new
        // fingerprint), it is stale again
        try harness.library.books.removeItems(fromBook: id, mediaIds: [media[0].id!])
        #expect(try harness.library.settings.loudness(ofBook: id) == nil)
        let left = try harness.library.books.items(ofBook: id)
        try harness.library.settings.saveLoudness(reading, ofBook: id, measuredOver: left)
        try harness.library.writer.write { db in
            try db.execute(sql: "UPDATE media SET fingerprint = 'changed' WHERE id = ?", arguments: [left[0].id!])
        }
        #expect(try harness.library.settings.loudness(ofBook: id) == nil)
    }

    @Test func theTargetAndTheBooksOwnSettingChangeTheGainAtOnce() async throws {
        // Given a measured book playing at its gain toward -18 LUFS
        let (harness, _, ids) = try Self.harness("settings", books: [("Book", -10, false)])
        try harness.perform(.loudness(.measure(bookId: ids[0])))
        #expect(await harness.run(until: { Self.measured(harness) == 1 }))
        try harness.perform(.play(bookId: ids[0]))
        let gain = try #require(harness.status.loudnessGain)
        // When the listener's target becomes -23 LUFS
        try harness.perform(.defaults(.set(.loudnessTarget, -23)))
        // Then the book is 5 dB quieter at once, in the status and in the engine
        let lower = try #require(harness.status.loudnessGain)
        #expect(abs(lower - (gain - 5)) < 1e-9)
        #expect(harness.controller.session?.engine.loudnessGainDecibels == lower)
        // and a target out of range is refused with the range, changing nothing
        #expect(throws: PlayerError("'-40' is out of range: use LUFS from -30 to -10 (-18 is the default)")) {
            try harness.perform(.defaults(.set(.loudnessTarget, -40)))
        }
        #expect(harness.status.loudnessGain == lower)
        // When the book's own setting turns it off, it plays as recorded, and the library keeps that
        guard case let .loudness(report) = try harness.perform(.loudness(.set(false))) else { Issue.record("no report"); return }
        #expect(report.state == .off && report.source == "book")
        #expect(harness.status.loudness == "loudness off")
        #expect(harness.controller.session?.engine.loudnessGainDecibels == 0)
        #expect(try harness.library.settings.ofBook(ids[0]).loudness == false)
        // and back to the default, the stored measure applies again without measuring
        try harness.perform(.loudness(.set(nil)))
        #expect(harness.status.loudnessGain == lower)
        #expect(harness.controller.loudness.measuring.isEmpty)
    }
}
