import Foundation
import TestSupport
import Testing

/// Bad files get one line each, naming the file and the reason; the good files in the same command
/// are still processed; nothing crashes or hangs.
@Suite struct BadInputTests {
    @Test func everyBadFileGetsOneLineAndTheGoodOnesStillPlay() throws {
        // Given good files mixed with every kind of bad one
        let goodMP3 = try Fixtures.mp3(seconds: 5, vbr: true)
        let goodOpus = try Fixtures.opus(seconds: 5)
        let directory = try BuildProducts.temporaryDirectory("bad-input-dir")
        let bad: [(URL, String)] = [
            (URL(fileURLWithPath: "/nonexistent/book.mp3"), "no such file"),
            (directory, "is a directory"),
            (try Fixtures.emptyFile(named: "empty.mp3"), "empty file"),
            (try Fixtures.textFile(named: "notes.mp3"), "no mpeg audio frames"),
            (try Fixtures.textFile(named: "notes.opus"), "not an ogg file"),
            (try Fixtures.textFile(named: "notes.txt"), "not a recognised audio file"),
        ]
        // (an Opus file whose tags are broken but whose audio is whole: libopusfile refuses it,
        // and the host's next claimant, the ffmpeg catch-all, plays it without its tags, saying
        // so in one line)
        let brokenTags = try Fixtures.opusWithBrokenTags()
        let files = [goodMP3] + bad.map(\.0) + [brokenTags, goodOpus]
        // When probed in one command
        let result = try AbplayerProcess("bad-input").run(["probe", "--json"] + files.map(\.path), timeout: 60)
        // Then the exit status says something failed, the good files were reported on stdout,
        // and each bad file has exactly one line on stderr with its reason
        #expect(result.status != 0)
        let reported = result.stdoutString.split(separator: "\n")
        #expect(reported.count == 3)
        #expect(reported.first?.contains(goodMP3.lastPathComponent) == true)
        #expect(reported.dropFirst().first?.contains(brokenTags.lastPathComponent) == true)
        #expect(reported.dropFirst().first?.contains("\"plugin\":\"ffmpeg\"") == true, "\(reported)")
        #expect(reported.last?.contains(goodOpus.lastPathComponent) == true)
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == bad.count + 1, "stderr: \(result.stderr)")
        #expect(errors.filter { $0.contains(brokenTags.path) && $0.contains("opusfile refused it") && $0.hasSuffix("ffmpeg plays it") }.count == 1,
                "stderr: \(result.stderr)")
        for (file, reason) in bad {
            let lines = errors.filter { $0.contains(file.path + ":") }
            #expect(lines.count == 1, "\(file.path): \(lines)")
            #expect(lines.first?.lowercased().contains(reason) == true, "\(file.path): \(lines)")
        }
    }

    @Test func timesPastTheEndOrMalformedAreRefusedClearly() throws {
        let mp3 = try Fixtures.mp3(seconds: 5, vbr: true)
        let abplayer = try AbplayerProcess("bad-times")
        let past = try abplayer.run(["decode", mp3.path, "--from", "1:00"])
        #expect(past.status != 0)
        #expect(past.stderr.contains("past the end"))
        // and a malformed or backwards time is one line naming the option, for every command
        let refusals: [([String], String)] = [
            (["decode", mp3.path, "--from", "1:99"], "abplayer: --from: '1:99' is not a time: use 90, 1:30"),
            (["play", mp3.path, "--output", "null", "--to", "5x"], "abplayer: --to: '5x' is not a time"),
            (["decode", mp3.path, "--from", "3", "--to", "2"], "abplayer: --to: must be after --from"),
            (["bookmarks", "add", "Book", "--at", "1:2:3:4"], "abplayer: --at: '1:2:3:4' is not a time"),
            (["bookmarks", "rm", "Book", "#3"], "abplayer: bookmarks rm: '#3' is not a bookmark number: use N as 'abplayer bookmarks BOOK' lists them"),
        ]
        for (arguments, says) in refusals {
            let refused = try abplayer.run(arguments)
            #expect(refused.status == 64, "\(arguments)")
            #expect(refused.stderr.hasPrefix(says), "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(arguments): \(refused.stderr)")
        }
    }

    @Test func anErrorNoCommandHandlesIsStillOneAbplayerLine() throws {
        // Given a library, and a folder that does not exist
        let abplayer = try AbplayerProcess("unhandled-error")
        let library = abplayer.home.appending(path: "library.sqlite").path
        _ = try abplayer.run(["shelves", "--library", library]).requireSuccess()
        // When the state is exported into it (Foundation's error reaches the command line)
        let result = try abplayer.run(["export", "/nonexistent/abplayer-folder/state.json", "--library", library])
        // Then it is one line naming the file, not "Error:" and an NSError dump
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("abplayer: /nonexistent/abplayer-folder/state.json: "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!result.stderr.contains("Domain="), "\(result.stderr)")
    }

    @Test func aFileOutputNeverReplacesAFileThatIsNotAWav() throws {
        // Given a book's MP3 and a library, each an existing file that is not a WAV
        let abplayer = try AbplayerProcess("wav-over")
        let book = abplayer.home.appending(path: "book.mp3")
        try FileManager.default.copyItem(at: try Fixtures.mp3(seconds: 3, vbr: true), to: book)
        let library = abplayer.home.appending(path: "library.sqlite")
        _ = try abplayer.run(["import", "--library", library.path, book.path]).requireSuccess()
        for target in [book, library] {
            let before = try Data(contentsOf: target)
            // When the WAV output is named with that file (a slip for the book itself)
            let result = try abplayer.run(["play", "--output", "wav:\(target.path),paced=false", book.path], timeout: 60)
            // Then nothing is written over it, and one line says why
            #expect(result.status != 0, "\(target.lastPathComponent): \(result.stderr)")
            #expect(result.stderr.contains("is not a .wav file: not replaced"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(try Data(contentsOf: target) == before, "\(target.lastPathComponent) was changed")
        }
    }
}
