import ArgumentParser
import Console
import PluginHost

struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the plugins found, and the files refused with the reason; with an ID, one plugin's options.")

    @OptionGroup var plugins: PluginOptions

    @Argument(help: "A plugin's id: show its description, capabilities and options.")
    var id: String?

    func run() throws {
        let registry = try plugins.makeRegistry()
        if let id {
            guard let plugin = registry.plugins.first(where: { $0.id == id }) else {
                printError("abplayer: no plugin '\(id)' is loaded (loaded: \(registry.plugins.map(\.id).joined(separator: ", ")))")
                throw ExitCode.failure
            }
            print(Self.details(of: plugin))
            return
        }
        let rows = registry.plugins.map { plugin in
            [plugin.id, plugin.kind.rawValue, plugin.version, String(plugin.priority),
             plugin.extensions.isEmpty ? "-" : plugin.extensions.joined(separator: ","), plugin.path]
        }
        print(Table(header: ["ID", "KIND", "VERSION", "PRIORITY", "EXTENSIONS", "PATH"], rows: rows).rendered)
        if !registry.rejected.isEmpty {
            print("\nRejected:")
            for rejection in registry.rejected { print("  " + TerminalText.visible("\(rejection)")) }
        }
    }

    /// Everything the descriptor says, and how to use the plugin from the command line.
    static func details(of plugin: LoadedPlugin) -> String {
        var lines = ["\(plugin.id): \(plugin.name) \(plugin.version) (\(plugin.kind.rawValue), plugin ABI 1.\(plugin.abiMinor) or newer)",
                     plugin.description, "", "file:          \(plugin.path)"]
        switch plugin.kind {
        case .sink:
            let argument = plugin.argumentOption.map { "[:\($0.uppercased())]" } ?? ""
            lines.append("use:           --output \(plugin.id)\(argument)[,key=value...]")
            let when = plugin.priority > 0 ? "tried when no --output is given, highest first"
                : plugin.priority < 0 ? "a fallback when no other output opens" : "only when named"
            lines.append("priority:      \(plugin.priority) (\(when))")
            if !plugin.extensions.isEmpty {
                lines.append("writes:        \(plugin.extensions.map { "." + $0 }.joined(separator: ", ")) files (decode -o)")
            }
        case .decoder:
            lines.append("reads:         \(plugin.extensions.map { "." + $0 }.joined(separator: ", "))")
            if !plugin.mimeTypes.isEmpty { lines.append("MIME types:    \(plugin.mimeTypes.joined(separator: ", "))") }
            lines.append("priority:      \(plugin.priority) (between decoders that claim a file equally)")
            if !plugin.options.isEmpty { lines.append("use:           --decoder-option \(plugin.id).key=value") }
        }
        lines.append("capabilities:  \(plugin.capabilities.names.isEmpty ? "none" : plugin.capabilities.names.joined(separator: ", "))")
        guard !plugin.options.isEmpty else { return (lines + ["options:       none"]).joined(separator: "\n") }
        lines.append("options:")
        let rows = plugin.options.map { option in
            ["  " + option.name, option.type.rawValue, option.defaultValue.map { "default \($0)" } ?? "no default",
             option.help + (option.name == plugin.argumentOption ? " (the :ARG)" : "")]
        }
        lines.append(Table(header: ["  NAME", "TYPE", "DEFAULT", "MEANING"], rows: rows).rendered)
        return lines.joined(separator: "\n")
    }
}

/// Left-aligned columns, two spaces apart.
struct Table {
    let header: [String]
    let rows: [[String]]

    var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
