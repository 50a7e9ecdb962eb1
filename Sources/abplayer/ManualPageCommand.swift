import ArgumentParser
import Console

/// `abplayer man-page`: abplayer(1) in roff on standard output, for `make install` (hidden: a
/// listener reads the installed page with `man abplayer`). Made from this binary's own command
/// definitions, so the installed page cannot say what an older build parsed.
struct ManualPageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "man-page", abstract: "Print abplayer(1) in roff, made from the command definitions.", shouldDisplay: false)

    func run() throws {
        let page = ManualPage(dump: try HelpDump.of(Abplayer.self), replCommands: CommandHelp.all, version: VersionCommand.abplayer)
        print(page.roff, terminator: "")
    }
}
