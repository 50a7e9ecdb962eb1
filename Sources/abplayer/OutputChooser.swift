import PlayerCore
import PluginHost

/// Finds the output to play to when the user named none: PulseAudio if a server answers, else
/// JACK if a server runs, else ALSA's `default` if it opens, else `null` (with a warning saying
/// what was tried and how to choose).
struct OutputChooser {
    let registry: PluginRegistry

    static let preference: [OutputSpec] = [.pulse(sink: nil), .jack(server: nil), .alsa(device: "default")]

    /// The first output of `preference` that opens for `format`, tried by opening and closing it.
    func choose(for format: AudioFormat) -> OutputSpec {
        var tried: [String] = []
        for spec in Self.preference {
            do {
                let opener = try registry.sinkOpener(pluginID: spec.pluginID, options: spec.options)
                let sink = try opener.openSink(format: format, source: RingBuffer(channels: format.channels, capacityFrames: 1024))
                sink.close()
                return spec
            } catch let error as AudioError {
                tried.append("\(spec): \(error.reason)")
            } catch {
                tried.append("\(spec): \(error)")
            }
        }
        printError("abplayer: no audio output answered (\(tried.joined(separator: "; "))); playing to null. "
            + "Choose one with --output \(OutputSpec.syntax)")
        return .null
    }
}
