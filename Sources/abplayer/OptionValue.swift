import ArgumentParser
import PlayerCore

/// `--from`, `--to`, `--at`: times in the one grammar of `Timecode`, from 0. Taken as text and
/// parsed with `optionValue`, so a bad time is one `abplayer:` line (an ArgumentParser transform
/// would add the usage after it).
enum TimeArgument {
    static let help = "90, 1:30, 1:02:03.250, 30m, 1h30m"

    /// The seconds `text` says (nil: not given), or one line naming `option` and exit status 64.
    static func seconds(_ option: String, _ text: String?) throws -> Double? {
        try optionValue(option, text) { (text: String) throws(RefusedValue) in try Timecode.seconds(text) }
    }
}

/// Parses an option's text (nil: not given) in `run()` or `validate()`, where a refusal can be exactly one line,
/// `abplayer: --OPTION: why` (ArgumentParser's own errors add the usage after), with the exit
/// status of a usage error (64, as ArgumentParser's).
func optionValue<Value>(_ name: String, _ text: String?, _ parse: (String) throws(RefusedValue) -> Value) throws -> Value? {
    guard let text else { return nil }
    do {
        return try parse(text)
    } catch {
        printError("abplayer: \(name): \(error)")
        throw ExitCode.validationFailure
    }
}

/// Refuses an option whose value has a problem (nil: none) as `optionValue` does.
func refuse(option name: String, _ problem: String?) throws {
    guard let problem else { return }
    printError("abplayer: \(name): \(problem)")
    throw ExitCode.validationFailure
}

/// `--from T --to T`: where `play` and `decode` start and stop, parsed as `TimeArgument`.
struct TimeRangeOptions: ParsableArguments {
    @Option(name: .customLong("from"), help: ArgumentHelp("Start here (\(TimeArgument.help)); in the first file for play.", valueName: "T"))
    var fromText: String?

    @Option(name: .customLong("to"), help: ArgumentHelp("Stop here (\(TimeArgument.help)); in the last file for play.", valueName: "T"))
    var toText: String?

    var from: Double? { get throws { try TimeArgument.seconds("--from", fromText) } }
    var to: Double? { get throws { try TimeArgument.seconds("--to", toText) } }

    /// Refuses `--to` at or before `--from` (when both are in one file).
    func checkOrder(sameFile: Bool = true) throws {
        if sameFile, let from = try from, let to = try to, to <= from { try refuse(option: "--to", "must be after --from") }
    }
}
