import Player
import PluginHost

extension Outputs {
    /// The outputs of the loaded sink plugins, for the player controller. A listener hears in
    /// real time, also into a file (`inRealTime`); the automatic choice follows the sinks'
    /// priorities and its warning goes to standard error.
    static func fromRegistry(_ registry: PluginRegistry) -> Outputs {
        Outputs(
            open: { name in try registry.sinkOpener(for: registry.inRealTime(registry.output(named: name))) },
            automatic: { format in
                guard let automatic = registry.automaticOutput(for: format) else {
                    return registry.fallbackOutput?.description ?? ""
                }
                if let warning = automatic.warning { printError("abplayer: \(warning)") }
                return automatic.choice.description
            },
            names: registry.outputNames)
    }
}
