import Player
import PluginHost

extension Outputs {
    /// The outputs of the loaded sink plugins, for the player controller. A listener hears in
    /// real time, also into a file (`inRealTime`); the automatic choice follows the sinks'
    /// priorities, and its warning goes with it to the player, which says it.
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
                    return AutomaticOutput(name: registry.fallbackOutput?.description ?? "")
                }
                return AutomaticOutput(name: automatic.choice.description, warning: automatic.warning)
            },
            names: registry.outputNames)
    }
}
