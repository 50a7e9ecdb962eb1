import Player
import PluginHost

extension Outputs {
    /// The outputs of the loaded sink plugins, for the player controller: a listener hears in
    /// real time, also into a file.
    static func fromRegistry(_ registry: PluginRegistry) -> Outputs {
        Outputs(
            open: { name in
                let spec = try OutputSpec(parsing: name)
                var options = spec.options
                if case .wav = spec { options["paced"] = "true" }
                return try registry.sinkOpener(pluginID: spec.pluginID, options: options)
            },
            automatic: { OutputChooser(registry: registry).choose(for: $0).description },
            names: ["pulse", "alsa", "jack", "null", "wav:"])
    }
}
