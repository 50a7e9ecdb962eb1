import ArgumentParser
import PluginHost

/// A placeholder prompt until the REPL lands: enough to look at files and plugins.
struct Prompt: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prompt", abstract: "Start the interactive prompt (the default).")

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let registry = plugins.makeRegistry()
        print("abplayer — \(registry.decoders.count) decoders, \(registry.sinks.count) outputs. Type 'help'.")
        while true {
            print("abplayer> ", terminator: "")
            guard let line = readLine() else { print(); return }
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case nil: continue
            case "quit", "exit": return
            case "help":
                print("probe FILE...   what abplayer sees in files\nplugins         loaded and refused plugins\nquit")
            case "plugins":
                for plugin in registry.plugins { print("\(plugin.id)\t\(plugin.kind.rawValue)\t\(plugin.path)") }
                for rejection in registry.rejected { print("refused: \(rejection)") }
            case "probe":
                for file in words.dropFirst() {
                    do { print(ProbeReport(path: file, decoder: try registry.openDecoder(path: file)).text) }
                    catch { print("\(error)") }
                }
            case let command?:
                print("unknown command '\(command)': try 'help'")
            }
        }
    }
}
