import Player
import PluginHost

extension Outputs {
    /// The outputs of the loaded sink plugins, for the player controller. A listener hears in
    /// real time, also into a file (`inRealTime`); the automatic choice follows the sinks'
    /// priorities and its warning goes to standard error.
    /// `inRealTime`: a sink that can write as fast as it is fed (wav) is paced unless the user
    /// says otherwise, as a listener needs; `play` leaves each sink's own default.
    static func fromRegistry(_ registry: PluginRegistry, inRealTime: Bool = true) -> Outputs {
        Outputs(
            open: { name in
                let chosen = try registry.output(named: name)
                return try registry.sinkOpener(for: inRealTime ? registry.inRealTime(chosen) : chosen)
            },
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
