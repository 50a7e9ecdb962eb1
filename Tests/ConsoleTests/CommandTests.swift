@testable import Console
import Testing

@Suite struct CommandTests {
    @Test func playbackCommands() throws {
        #expect(try parse("play") == .play(nil))
        #expect(try parse("play Dune Messiah") == .play("Dune Messiah"))
        #expect(try parse("+") == .skip(forward: true, seconds: nil))
        #expect(try parse("-") == .skip(forward: false, seconds: nil))
        #expect(try parse("+15") == .skip(forward: true, seconds: 15))
        #expect(try parse("-1:30") == .skip(forward: false, seconds: 90))
        #expect(try parse("+5m") == .skip(forward: true, seconds: 300))
        #expect(try parse("seek 1:02:03") == .seek(.absolute(seconds: 3723)))
        #expect(try parse("seek +90") == .seek(.relative(seconds: 90)))
        #expect(try parse("seek -5m") == .seek(.relative(seconds: -300)))
        #expect(try parse("seek 50%") == .seek(.percent(50)))
        #expect(try parse("goto 3") == .goto(item: "3", seconds: nil))
        #expect(try parse("goto 3 1:05") == .goto(item: "3", seconds: 65))
        #expect(try parse("goto \"Part 2\" 0:07") == .goto(item: "Part 2", seconds: 7))
        #expect(try parse("chapter next") == .chapter(.next))
        #expect(try parse("chapter prev") == .chapter(.previous))
        #expect(try parse("chapter 4") == .chapter(.number(4)))
        #expect(try parse("speed 1.5") == .speed(1.5))
        #expect(try parse("volume 150") == .volume(150))
        #expect(try parse("volume 80%") == .volume(80))
        #expect(try parse("speed 1.25x") == .speed(1.25))
        #expect(try parse("+1h30m") == .skip(forward: true, seconds: 5400))
        #expect(try parse("-1:02:03.250") == .skip(forward: false, seconds: 3723.25))
        #expect(try parse("status --json") == .status(json: true))
        #expect(try parse("bookmark the good bit") == .bookmark(note: "the good bit"))
        #expect(try parse("cd") == .changeShelf("/"))
        #expect(try parse("exit") == .quit)
    }

    @Test func badCommandsSayWhatIsWrongAndWhatIsRight() throws {
        #expect(try failure("fly") == "unknown command 'fly': 'help' lists the commands")
        #expect(try failure("seek soon") == "seek: 'soon' is not a time: use a time from the start (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m), +/- an amount (+90, -5m) or a share from 0% to 100% (50%)")
        #expect(try failure("seek 1:99") == "seek: '1:99' is not a time: use a time from the start (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m), +/- an amount (+90, -5m) or a share from 0% to 100% (50%)")
        #expect(try failure("seek 101%") == "seek: '101%' is not a time: use a time from the start (90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m), +/- an amount (+90, -5m) or a share from 0% to 100% (50%)")
        #expect(try failure("seek") == "usage: seek 1:02:03 | +90 | -5m | 50%")
        #expect(try failure("speed 5") == "speed: '5' is out of range: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)")
        #expect(try failure("speed 0.4") == "speed: '0.4' is out of range: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)")
        #expect(try failure("speed fast") == "speed: 'fast' is not a speed: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal)")
        // a sign makes a step (as cmus's `vol -10%`), which the player stops at the range's ends
        #expect(try parse("volume -1") == .stepVolume(-1))
        #expect(try parse("volume +5%") == .stepVolume(5))
        #expect(try parse("speed +0.1") == .stepSpeed(0.1))
        #expect(try parse("speed -0.25x") == .stepSpeed(-0.25))
        #expect(try failure("volume +200") == "volume: '+200' is not a step: use +N or -N, at most 150")
        #expect(try failure("speed -x") == "speed: '-x' is not a step: use +N or -N, at most 3.5")
        #expect(try failure("volume 151%") == "volume: '151%' is out of range: use a volume from 0 to 150 percent (80 or 80%)")
        #expect(try failure("volume loud") == "volume: 'loud' is not a volume: use a volume from 0 to 150 percent (80 or 80%)")
        #expect(try failure("chapter 0") == "chapter: chapters are numbered from 1; use next, prev, a name or a number")
        #expect(try failure("+ten") == "'+ten' is not an amount of time: use +N or -N, N as 90, 1:30, 1:02:03.250, 90s, 30m, 1h or 1h30m (0 or more)")
        #expect(try failure("pause now") == "pause takes no arguments")
        #expect(try failure("status --yaml") == "usage: status [--json]")
    }

    @Test func aTypoGetsTheNearestCommandAndQQuits() throws {
        #expect(try failure("paly Dune").contains("did you mean 'play'?"))
        #expect(try failure("bookmakrs").contains("did you mean 'bookmarks'?"))
        #expect(try failure("xyzzy") == "unknown command 'xyzzy': 'help' lists the commands")
        #expect(try parse("q") == .quit)
        #expect(Suggestion.nearest(to: "listne", among: ["listen", "import", "play"]) == "listen")
        #expect(Suggestion.nearest(to: "pla", among: ["play", "pause"]) == "play")
        #expect(Suggestion.nearest(to: "zz", among: ["play", "pause"]) == nil)
    }

    @Test func bookmarkCommandsAndNotesThatLookLikeThem() throws {
        // Listing, with and without the automatic ones, of the book loaded or another
        #expect(try parse("bookmarks") == .bookmarks(all: false))
        #expect(try parse("bookmarks --all") == .bookmarks(all: true))
        #expect(try parse("bookmarks Dune") == .library(.bookmarks(book: "Dune", all: false)))
        #expect(try parse("bookmarks --all Dune Messiah") == .library(.bookmarks(book: "Dune Messiah", all: true)))
        #expect(try parse("bookmarks Dune --all") == .library(.bookmarks(book: "Dune", all: true)))
        // Going to one: jump N is the form (N as listed: 3, or a3 for an automatic one); goto bookmark N its alias
        #expect(try parse("jump 3") == .jumpToBookmark(.user(3)))
        #expect(try parse("jump a3") == .jumpToBookmark(.automatic(3)))
        #expect(try parse("goto bookmark 3") == .jumpToBookmark(.user(3)))
        #expect(try failure("jump soon") == "jump: 'soon' is not a bookmark number: use jump N, N as 'bookmarks' lists them "
                + "(aN for an automatic one, as 'bookmarks --all' lists them)")
        // (no list writes #N: that is a book's id; nor 0, a sign, or another letter)
        for written in ["#3", "0", "a0", "+3", "b3", "a"] {
            #expect(try failure("jump \(written)").hasPrefix("jump: '\(written)' is not a bookmark number"))
        }
        #expect(try failure("jump") == "usage: jump N")
        // rm and note with a number are commands; the note is the rest of the line as typed
        #expect(try parse("bookmark rm 3") == .removeBookmark(.user(3)))
        #expect(try parse("bookmark rm a2") == .removeBookmark(.automatic(2)))
        #expect(try parse("bookmark note 3 Don't forget; the duel") == .noteBookmark(.user(3), note: "Don't forget; the duel"))
        #expect(try parse("bookmark note a1 before the duel") == .noteBookmark(.automatic(1), note: "before the duel"))
        #expect(try parse("bookmark note 3") == .noteBookmark(.user(3), note: nil))
        // A note that starts like them: longer, quoted, or after --
        #expect(try parse("bookmark rm 3 times") == .bookmark(note: "rm 3 times"))
        #expect(try parse("bookmark \"rm 3\"") == .bookmark(note: "rm 3"))
        #expect(try parse("bookmark -- rm 3") == .bookmark(note: "rm 3"))
        #expect(try parse("bookmark -- note 3 it's good") == .bookmark(note: "note 3 it's good"))
        #expect(try parse("bookmark rm the dishes") == .bookmark(note: "rm the dishes"))
        #expect(try parse("bookmark Don't forget") == .bookmark(note: "Don't forget"))
        // A note that reads like a misspelt edit of bookmark N is asked about, not made
        #expect(try failure("bookmark rename 2 foo") == "bookmark: did you mean 'bookmark note 2 foo'? (a bookmark with that note: 'bookmark -- rename 2 foo')")
        #expect(try failure("bookmark delete a4") == "bookmark: did you mean 'bookmark rm a4'? (a bookmark with that note: 'bookmark -- delete a4')")
        #expect(try failure("bookmark goto 4") == "bookmark: did you mean 'jump 4'? (a bookmark with that note: 'bookmark -- goto 4')")
        #expect(try parse("bookmark -- rename 2 foo") == .bookmark(note: "rename 2 foo"))
        #expect(try parse("bookmark rename the chapter") == .bookmark(note: "rename the chapter"))
        // a command after `bookmark rm N` on the same line still runs
        #expect(try Tokenizer.commands(in: "bookmark rm 3; bookmarks") == [["bookmark", "rm", "3"], ["bookmarks"]])
        #expect(try Tokenizer.commands(in: "bookmark note 3; bookmarks") == [["bookmark", "note", "3"], ["bookmarks"]])
        #expect(try Tokenizer.commands(in: "bookmark rm a3; bookmarks") == [["bookmark", "rm", "a3"], ["bookmarks"]])
        #expect(try Tokenizer.commands(in: "bookmark --; status") == [["bookmark", "--"], ["status"]])
        #expect(try parse("bookmark --") == .bookmark(note: nil))
        #expect(try Tokenizer.commands(in: "status; bookmark note 3 a; b") == [["status"], ["bookmark", "note", "3", "a; b"]])
        // each documented in help
        #expect(CommandHelp.named("jump") != nil && CommandHelp.named("bookmark")!.usage.contains("rm N"))
        #expect(CommandHelp.named("bookmark")!.action("--")?.summary.contains("bookmark -- rm 3") == true)
    }

    @Test func defaultsTakeTheUnitsTypedEverywhere() throws {
        #expect(try parse("set") == .defaults(.show))
        #expect(try parse("set speed 1.3") == .defaults(.set(.speed, 1.3)))
        #expect(try parse("set skip 30") == .defaults(.set(.skip, 30)))
        #expect(try parse("set skip 1:30") == .defaults(.set(.skip, 90)))
        #expect(try parse("set rewind 20s") == .defaults(.set(.rewind, 20)))
        #expect(try parse("set rewind off") == .defaults(.set(.rewind, 0)))
        #expect(try parse("set sleep 30m") == .defaults(.set(.sleep, 1800)))
        #expect(try parse("set sleep off") == .defaults(.set(.sleep, nil)))
        #expect(try parse("set speed default") == .defaults(.set(.speed, nil)))
        #expect(try parse("unset skip") == .defaults(.set(.skip, nil)))
        #expect(try parse("speed default") == .useDefault(.speed))
        #expect(try failure("set speed 5") == "set speed: '5' is out of range: use a speed from 0.5 to 4 (1.25 or 1.25x; 1 is normal) or default")
        #expect(try failure("set sleep 2d").hasPrefix("set sleep: '2d' is not a time"))
        #expect(try failure("set volume 80") == "set: 'volume' is not a default: use speed, skip, rewind, sleep, silence, loudness, loudness-target, intro, outro or plain ('set' lists them)")
        #expect(try failure("set speed") == "usage: set speed VALUE | default")
    }
}

@Suite struct TimeArgumentTests {
    @Test func seekTargets() {
        #expect(TimeArgument.seekTarget("0:05") == .absolute(seconds: 5))
        #expect(TimeArgument.seekTarget("30m") == .absolute(seconds: 1800))
        #expect(TimeArgument.seekTarget("-0:05") == .relative(seconds: -5))
        #expect(TimeArgument.seekTarget("+1h") == .relative(seconds: 3600))
        #expect(TimeArgument.seekTarget("+1h30m") == .relative(seconds: 5400))
        #expect(TimeArgument.seekTarget("12.5%") == .percent(12.5))
        #expect(TimeArgument.seekTarget("100%") == .percent(100))
        #expect(TimeArgument.seekTarget("-5%") == nil)
        #expect(TimeArgument.seekTarget("1e2%") == nil)
        #expect(TimeArgument.seekTarget("+") == nil)
        #expect(TimeArgument.seekTarget("+-5") == nil)
    }
}

/// `loudness ...` and the loudness defaults, as typed.
@Suite struct LoudnessLineTests {
    @Test func loudnessWordsParseAndBadOnesSayWhatIsRight() throws {
        #expect(try Command(words: ["loudness"]) == .loudness(.show))
        #expect(try Command(words: ["loudness", "on"]) == .loudness(.set(true)))
        #expect(try Command(words: ["loudness", "off"]) == .loudness(.set(false)))
        #expect(try Command(words: ["loudness", "default"]) == .loudness(.set(nil)))
        #expect(try Command(words: ["loudness", "measure"]) == .loudness(.measure(book: nil)))
        #expect(try Command(words: ["loudness", "measure", "Ender's", "Game"]) == .loudness(.measure(book: "Ender's Game")))
        #expect(throws: CommandError("loudness: 'loud' is not understood: usage: loudness [on | off | default | measure [BOOK]]")) {
            try Command(words: ["loudness", "loud"])
        }
    }

    @Test func theLoudnessDefaultsTakeOnOffAndATargetInRange() throws {
        #expect(try Command(words: ["set", "loudness", "off"]) == .defaults(.set(.loudness, 0)))
        #expect(try Command(words: ["set", "loudness", "on"]) == .defaults(.set(.loudness, 1)))
        #expect(try Command(words: ["unset", "loudness"]) == .defaults(.set(.loudness, nil)))
        #expect(try Command(words: ["set", "loudness-target", "-20.5"]) == .defaults(.set(.loudnessTarget, -20.5)))
        #expect(try Command(words: ["set", "plain", "on"]) == .defaults(.set(.plain, 1)))
        #expect(try Command(words: ["set", "plain", "off"]) == .defaults(.set(.plain, 0)))
        #expect(try Command(words: ["unset", "plain"]) == .defaults(.set(.plain, nil)))
        #expect(throws: CommandError("set plain: 'maybe' is not understood: use on, off or default")) {
            try Command(words: ["set", "plain", "maybe"])
        }
        #expect(throws: CommandError("set loudness-target: '-40' is out of range: use LUFS from -30 to -10 (-18 is the default) or default")) {
            try Command(words: ["set", "loudness-target", "-40"])
        }
        #expect(throws: CommandError("set loudness: 'loud' is not understood: use on, off or default")) {
            try Command(words: ["set", "loudness", "loud"])
        }
    }
}
