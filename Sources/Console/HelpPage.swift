/// What `help` was asked for, and its lines at a width. Everything comes from `CommandHelp`.
public enum HelpPage: Equatable, Sendable {
    /// Plain `help`: the topics, a line each, and the first commands a listener needs.
    case overview
    /// `help all`: every command, by topic.
    case all
    case topic(HelpTopic)
    /// `help COMMAND`: its usage and summary, then each of its actions'.
    case command(CommandHelp)
    /// `help bookmark note`: one action of a command.
    case action(CommandHelp.Action)

    /// The width of a page said where the window's is unknown (a script, a pipe, a socket client).
    static let unknownWidthColumns = 80

    /// `help`'s arguments. A topic named like a command (`library`) is the topic, which lists that
    /// command. Words after a command that name none of its actions are its arguments: the
    /// command's page answers them.
    init(arguments: [String]) throws(CommandError) {
        guard let first = arguments.first else { self = .overview; return }
        if arguments == ["all"] { self = .all; return }
        if arguments.count == 1, let topic = HelpTopic(rawValue: first) { self = .topic(topic); return }
        guard let command = CommandHelp.named(first) else {
            let topics = HelpTopic.allCases.map(\.rawValue)
            let near = Suggestion.nearest(to: first, among: topics + CommandHelp.all.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            throw CommandError("help: no command or topic '\(first)'\(near): topics are \(topics.joined(separator: ", ")); 'help all' lists every command")
        }
        if arguments.count >= 2, let action = command.action(arguments[1]) {
            self = .action(action)
        } else {
            self = .command(command)
        }
    }

    /// The page in lines of at most `columns` cells (a word longer than a line stays whole).
    func lines(columns: Int) -> [String] {
        switch self {
        case .overview:
            let topics = HelpTopic.allCases.map { (usage: $0.rawValue, summary: $0.summary) }
            let first = CommandHelp.firstCommands.compactMap(CommandHelp.named).map { (usage: $0.usage, summary: $0.summary) }
            return Self.wrap("Topics ('help TOPIC'; 'help COMMAND' explains one, 'help all' lists every one):", width: columns)
                + Self.table(topics, columns: columns, indent: 2)
                + ["To start:"]
                + Self.table(first, columns: columns, indent: 2)
        case .all:
            return HelpTopic.allCases.enumerated().flatMap { index, topic in
                (index == 0 ? [] : [""]) + Self.topicLines(topic, columns: columns)
            }
        case let .topic(topic):
            return Self.topicLines(topic, columns: columns)
        case let .command(command):
            var lines = Self.entry(command.usage, command.summary, columns: columns)
            for action in command.actions { lines += Self.entry(action.usage, action.summary, columns: columns) }
            if !command.aliases.isEmpty { lines.append("also: \(command.aliases.joined(separator: ", "))") }
            lines += Self.wrap("topic: \(command.topic.rawValue) ('help \(command.topic.rawValue)' lists its commands)", width: columns)
            return lines
        case let .action(action):
            return Self.entry(action.usage, action.summary, columns: columns)
        }
    }

    /// A topic's title line, then its commands in a table.
    private static func topicLines(_ topic: HelpTopic, columns: Int) -> [String] {
        let commands = CommandHelp.all.filter { $0.topic == topic }
        return wrap("\(topic.rawValue): \(topic.summary)", width: columns)
            + table(commands.map { (usage: $0.usage, summary: $0.summary) }, columns: columns, indent: 2)
    }

    /// A usage on its line(s), its summary indented below it.
    private static func entry(_ usage: String, _ summary: String, columns: Int) -> [String] {
        wrap(usage, width: columns) + wrap(summary, width: columns - 2).map { "  " + $0 }
    }

    /// Usages in a column, summaries beside them wrapped at word boundaries under their own
    /// column; a usage too long for the column has its summary below it, at the column; in a
    /// window too narrow for two columns each summary goes indented below its usage.
    static func table(_ rows: [(usage: String, summary: String)], columns: Int, indent: Int = 0) -> [String] {
        let margin = String(repeating: " ", count: indent)
        let width = columns - indent
        // The column fits the longest usage of at most a third of the width: a longer one would
        // squeeze every summary for its own sake.
        let widest = max(8, width / 3)
        let usageColumn = (rows.map { TextFit.cells($0.usage) }.filter { $0 <= widest }.max() ?? widest) + 2
        let besideUsage = width - usageColumn >= 20
        let summaryIndent = besideUsage ? usageColumn : 4
        let pad = String(repeating: " ", count: summaryIndent)
        var lines: [String] = []
        for row in rows {
            let summary = wrap(row.summary, width: width - summaryIndent)
            if besideUsage, TextFit.cells(row.usage) <= usageColumn - 2 {
                let padding = String(repeating: " ", count: usageColumn - TextFit.cells(row.usage))
                lines.append(row.usage + padding + (summary.first ?? ""))
                lines += summary.dropFirst().map { pad + $0 }
            } else {
                lines += wrap(row.usage, width: width)
                lines += summary.map { pad + $0 }
            }
        }
        return lines.map { margin + $0 }
    }

    /// `text` in lines of at most `width` cells, broken between words.
    static func wrap(_ text: String, width: Int) -> [String] {
        TextFit.wrap(text.split(separator: " ").map(String.init), separator: " ", width: width)
    }
}
