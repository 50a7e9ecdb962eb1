@testable import Console
import Testing

/// `help`: the topics, a topic's commands, one command or one action of it, and every command;
/// all of it from `CommandHelp`, laid out at a width.
@Suite struct HelpTests {
    /// Every name and alias help lists, with the entry it names.
    let names = CommandHelp.all.flatMap { entry in ([entry.name] + entry.aliases).map { ($0, entry) } }

    @Test func everyCommandTheParserTakesIsInExactlyOneTopic() throws {
        // Each name belongs to one entry only, and each entry has one topic
        let counts = Dictionary(grouping: names, by: \.0).mapValues(\.count)
        #expect(counts.filter { $0.value > 1 }.isEmpty, "\(counts.filter { $0.value > 1 })")
        // The parser takes every listed name (a usage complaint is fine: the name was understood)...
        for (name, _) in names {
            let refused = (try? parse(name)) == nil ? try failure(name) : ""
            #expect(!refused.hasPrefix("unknown command"), "\(name): \(refused)")
        }
        // ...and nothing else: a word help does not list is an unknown command
        #expect(try failure("version").hasPrefix("unknown command 'version'"))
        #expect(try failure("bookmark-all").hasPrefix("unknown command"))
        // Each topic's page lists its commands and no other topic's page does
        for entry in CommandHelp.all {
            let listing = HelpTopic.allCases.filter { topic in
                HelpPage.topic(topic).lines(columns: 1000).contains { $0.hasPrefix("  " + entry.usage + " ") }
            }
            #expect(listing == [entry.topic], "\(entry.name): \(listing)")
        }
        // A topic named like a command holds that command
        for topic in HelpTopic.allCases {
            #expect(CommandHelp.all.contains { $0.topic == topic }, "\(topic) is empty")
            if let command = CommandHelp.named(topic.rawValue) { #expect(command.topic == topic, "\(topic)") }
        }
    }

    @Test func helpTakesATopicACommandAnActionOrAll() throws {
        #expect(try parse("help") == .help(.overview))
        #expect(try parse("?") == .help(.overview))
        #expect(try parse("help all") == .help(.all))
        for topic in ["playback", "library", "bookmarks", "sync", "settings", "chapters", "screens"] {
            #expect(try parse("help \(topic)") == .help(.topic(try #require(HelpTopic(rawValue: topic)))))
        }
        #expect(try parse("help seek") == .help(.command(try #require(CommandHelp.named("seek")))))
        // aliases and the forms of + and -
        #expect(try parse("help q") == .help(.command(try #require(CommandHelp.named("quit")))))
        #expect(try parse("help resume") == .help(.command(try #require(CommandHelp.named("resume")))))
        #expect(try parse("help -15") == .help(.command(try #require(CommandHelp.named("+")))))
        // an action of a command: its own usage; other words after a command are its arguments
        guard case let .help(.action(note)) = try parse("help bookmark note") else { Issue.record("not an action"); return }
        #expect(note.usage == "bookmark note N [TEXT]")
        #expect(try parse("help chapter next") == .help(.command(try #require(CommandHelp.named("chapter")))))
        for entry in CommandHelp.all {
            for action in entry.actions {
                guard case let .help(.action(shown)) = try Command(words: ["help", entry.name, action.name]) else {
                    Issue.record("help \(entry.name) \(action.name)")
                    continue
                }
                #expect(shown.usage.hasPrefix(entry.name + " ") && shown.usage.contains(action.name), "\(shown.usage)")
            }
        }
        // anything else: one line naming the topics
        #expect(try failure("help nonsense") == "help: no command or topic 'nonsense': topics are playback, chapters, bookmarks, library, sync, settings, screens; 'help all' lists every command")
        #expect(try failure("help bokmark").hasPrefix("help: no command or topic 'bokmark' (did you mean 'bookmark'?): topics are"))
    }

    @Test func everyPageFitsItsWidthAndTheTableKeepsEveryWordInOrder() {
        let pages: [HelpPage] = [.overview, .all, .action(CommandHelp.named("sync")!.actions[0])]
            + HelpTopic.allCases.map { .topic($0) } + CommandHelp.all.map { .command($0) }
        for columns in [40, 60, 80, 120] {
            for page in pages {
                let lines = page.lines(columns: columns)
                #expect(lines.allSatisfy { TextFit.cells($0) <= columns }, "\(page) at \(columns): \(lines.filter { TextFit.cells($0) > columns })")
            }
            // every word of every usage and summary is there, in order
            let lines = HelpPage.table(CommandHelp.all.map { (usage: $0.usage, summary: $0.summary) }, columns: columns)
            let words = CommandHelp.all.flatMap { ($0.usage + " " + $0.summary).split(separator: " ").map(String.init) }
            #expect(lines.joined(separator: " ").split(separator: " ").map(String.init) == words)
        }
    }

    @Test func plainHelpIsShortAndNamesTheTopicsAndTheFirstCommands() {
        let lines = HelpPage.overview.lines(columns: 80)
        #expect(lines.count < 24, "\(lines.count) lines")
        for topic in HelpTopic.allCases {
            #expect(lines.contains { $0.hasPrefix("  \(topic.rawValue) ") && $0.hasSuffix(topic.summary) }, "\(topic): \(lines)")
        }
        for usage in ["play [BOOK | ITEM]", "pause", "+[N] | -[N]", "bookmark [NOTE]", "help [TOPIC | COMMAND | all]"] {
            #expect(lines.contains { $0.hasPrefix("  " + usage) }, "\(usage)")
        }
        // while `help all` has every command
        #expect(HelpPage.all.lines(columns: 80).count > 100)
        let all = HelpPage.all.lines(columns: 1000)
        for entry in CommandHelp.all { #expect(all.contains { $0.hasPrefix("  " + entry.usage) }, "\(entry.usage)") }
    }
}
