import ArgumentParser
import PluginHost

struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the plugins found, and the files refused with the reason.")

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let registry = plugins.makeRegistry()
        let rows = registry.plugins.map { plugin in
            [plugin.id, plugin.kind.rawValue, plugin.version,
             plugin.extensions.isEmpty ? "-" : plugin.extensions.joined(separator: ","), plugin.path]
        }
        print(Table(header: ["ID", "KIND", "VERSION", "EXTENSIONS", "PATH"], rows: rows).rendered)
        if !registry.rejected.isEmpty {
            print("\nRejected:")
            for rejection in registry.rejected { print("  \(rejection)") }
        }
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
