import ABPluginABI
import Foundation
public import PlayerCore

/// An output resolved against the loaded sinks: the plugin and the options the user gave it.
public struct OutputChoice: Sendable, Equatable, CustomStringConvertible {
    public let pluginID: String
    public let options: [String: String]
    /// As it would be typed: `ID[:ARG][,key=value...]`.
    public let description: String
}

/// How outputs are named and chosen. The host knows no sink by name: `--output ID[:ARG][,k=v]`
/// resolves against the descriptors (`argument_option` says which option `:ARG` fills), and the
/// automatic choice follows their priorities (plugin.h, "priority").
extension PluginRegistry {
    public static let outputSyntax = "ID[:ARG][,key=value...]"

    /// What `--output` and `output` accept, from the sinks loaded: `pulse[:SINK], alsa[:DEVICE], ...`.
    public var outputSummary: String {
        let forms = sinks.map { sink in
            sink.argumentOption.map { "\(sink.id)[:\($0.uppercased())]" } ?? sink.id
        }
        return forms.isEmpty ? "none loaded" : forms.joined(separator: ", ")
    }

    /// Names to offer when completing an output: each sink's id, and `ID:` for those taking an argument.
    public var outputNames: [String] {
        sinks.flatMap { sink in sink.argumentOption == nil ? [sink.id] : [sink.id, sink.id + ":"] }
    }

    /// Resolves `ID[:ARG][,key=value...]`. A trailing `,name=value` whose name is one of the
    /// sink's options is an option; anything else belongs to ARG (so `alsa:hw:1,0` keeps its comma).
    public func output(named text: String) throws(OptionSyntaxError) -> OutputChoice {
        let idEnd = text.firstIndex { $0 == ":" || $0 == "," } ?? text.endIndex
        let id = String(text[..<idEnd])
        guard let sink = sinks.first(where: { $0.id == id }) else {
            throw OptionSyntaxError("'\(text)' is not an output: use \(outputSummary), with ,key=value options (`abplayer plugins ID` lists them)")
        }
        let separator = idEnd < text.endIndex ? text[idEnd] : nil
        var segments = separator == nil ? [] : text[text.index(after: idEnd)...]
            .split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var options: [String: String] = [:]
        var optionOrder: [String] = []
        // Options are peeled off the end; after `ID:` the first segment always belongs to ARG.
        while let last = segments.last, segments.count > 1 || separator == ",",
              let equals = last.firstIndex(of: "="), sink.option(named: String(last[..<equals])) != nil {
            let name = String(last[..<equals])
            if options[name] == nil {
                options[name] = String(last[last.index(after: equals)...])
                optionOrder.insert(name, at: 0)
            }
            segments.removeLast()
        }
        let rest = segments.joined(separator: ",")
        if separator == ":" {
            guard let argumentOption = sink.argumentOption else {
                throw OptionSyntaxError("\(id) takes no :ARG (\(text)); its options go as \(id),key=value")
            }
            guard !rest.isEmpty else {
                throw OptionSyntaxError("\(id): nothing after ':' (\(id):\(argumentOption.uppercased()))")
            }
            options[argumentOption] = rest
        } else if !rest.isEmpty {
            let known = sink.options.map(\.name).joined(separator: ", ")
            throw OptionSyntaxError("\(id): '\(rest)' is not key=value with one of its options (\(known.isEmpty ? "it has none" : known))")
        }
        if let problem = sink.optionProblems(options, subject: "\(id): ").first { throw OptionSyntaxError(problem) }
        return choice(sink, options, order: optionOrder)
    }

    /// The output to use when none was named, for audio of `format`: every sink of positive
    /// priority, highest first, by opening and closing it; when none opens, the highest of
    /// negative priority that opens (a fallback, such as a null output) with a warning that says
    /// what was tried. A sink of priority 0 (one that needs an argument, such as a file) is never
    /// chosen by itself.
    public func automaticOutput(for format: AudioFormat) -> (choice: OutputChoice, warning: String?)? {
        // Equal priorities keep the order loaded (plugin.h, `priority`).
        let choosable = sinks.enumerated().sorted { ($0.element.priority, $1.offset) > ($1.element.priority, $0.offset) }.map(\.element)
        var tried: [String] = []
        for sink in choosable where sink.priority > 0 {
            do {
                try trialOpen(sink, format: format)
                return (choice(sink, [:]), nil)
            } catch {
                tried.append("\(sink.id): \((error as? AudioError)?.reason ?? "\(error)")")
            }
        }
        for sink in choosable where sink.priority < 0 {
            guard (try? trialOpen(sink, format: format)) != nil else { continue }
            let warning = "no audio output answered (\(tried.isEmpty ? "none to try" : tried.joined(separator: "; "))); "
                + "playing to \(sink.id). Choose one with --output \(outputSummary)"
            return (choice(sink, [:]), warning)
        }
        return nil
    }

    /// The fallback output (the highest sink of negative priority, such as a null output), for
    /// `decode` without a file.
    public var fallbackOutput: OutputChoice? {
        sinks.filter { $0.priority < 0 }.max { $0.priority < $1.priority }.map { choice($0, [:]) }
    }

    /// The sink that writes files with `path`'s extension (a sink's `extensions`), e.g. for
    /// `decode -o out.wav`: of two that list it, the higher priority, then the one loaded first
    /// (plugin.h, `extensions`).
    public func fileOutput(path: String) throws(OptionSyntaxError) -> OutputChoice {
        let fileExtension = (path as NSString).pathExtension.lowercased()
        let writers = sinks.filter { $0.extensions.contains(fileExtension) && $0.argumentOption != nil }
        // max(by:) keeps the first of equals: the one loaded first wins a tie.
        guard let sink = writers.max(by: { $0.priority < $1.priority }), let argument = sink.argumentOption else {
            let known = sinks.flatMap(\.extensions).map { "." + $0 }
            throw OptionSyntaxError("no output writes '\(fileExtension.isEmpty ? path : "." + fileExtension)' files (\(known.isEmpty ? "none loaded" : known.joined(separator: ", ")))")
        }
        return choice(sink, [argument: path])
    }

    /// The same output for a listener, who hears it in real time: a sink without a clock of its
    /// own (no ABP_CAP_REALTIME) is asked to keep one through its `paced` option (a name plugin.h
    /// reserves) unless the user set it; one that cannot is refused.
    public func inRealTime(_ output: OutputChoice) throws(OptionSyntaxError) -> OutputChoice {
        try pacing(output, paced: true)
    }

    /// The same output as fast as decoded (`decode`): `paced=false` where the sink has it.
    public func asFastAsDecoded(_ output: OutputChoice) -> OutputChoice {
        (try? pacing(output, paced: false)) ?? output
    }

    /// Opens outputs of the sink plugin `pluginID` with `options` (checked against the options the
    /// plugin declares and their types).
    public func sinkOpener(pluginID: String, options: [String: String] = [:],
                           statusHandler: SinkStatusHandler? = nil) throws -> any SinkOpener {
        guard let plugin = sinks.first(where: { $0.id == pluginID }), let ops = plugin.sinkOps else {
            let known = sinks.map(\.id).joined(separator: ", ")
            throw AudioError(.invalidArgument, subject: "output \(pluginID)",
                             reason: "no such output plugin (available: \(known.isEmpty ? "none" : known))")
        }
        if let problem = plugin.optionProblems(options, subject: "").first {
            throw AudioError(.invalidArgument, subject: "output \(pluginID)", reason: problem)
        }
        return PluginSinkOpener(plugin: plugin, ops: ops, options: options, hostAPI: hostAPI, statusHandler: statusHandler)
    }

    public func sinkOpener(for output: OutputChoice, statusHandler: SinkStatusHandler? = nil) throws -> any SinkOpener {
        try sinkOpener(pluginID: output.pluginID, options: output.options, statusHandler: statusHandler)
    }

    private func pacing(_ output: OutputChoice, paced: Bool) throws(OptionSyntaxError) -> OutputChoice {
        guard let sink = sinks.first(where: { $0.id == output.pluginID }), output.options["paced"] == nil else { return output }
        // A sink keeping time by itself needs no asking to; one that can be asked is asked
        // either way (a null output keeps time unless told not to).
        guard sink.option(named: "paced")?.type == .bool else {
            if !paced || sink.capabilities.contains(.realtime) { return output }
            throw OptionSyntaxError("\(sink.id) does not play in real time (no clock of its own, no 'paced' option): choose another")
        }
        if paced && sink.capabilities.contains(.realtime) { return output }
        var options = output.options
        options["paced"] = paced ? "true" : "false"
        return choice(sink, options, order: output.options.keys.sorted() + ["paced"])
    }

    private func choice(_ sink: LoadedPlugin, _ options: [String: String], order: [String]? = nil) -> OutputChoice {
        var text = sink.id
        if let argument = sink.argumentOption, let value = options[argument] { text += ":" + value }
        for name in (order ?? options.keys.sorted()) where name != sink.argumentOption {
            if let value = options[name] { text += ",\(name)=\(value)" }
        }
        return OutputChoice(pluginID: sink.id, options: options, description: text)
    }

    private func trialOpen(_ sink: LoadedPlugin, format: AudioFormat) throws {
        let opener = try sinkOpener(pluginID: sink.id)
        try opener.openSink(format: format, source: RingBuffer(channels: format.channels, capacityFrames: 1024)).close()
    }
}

private struct PluginSinkOpener: SinkOpener, @unchecked Sendable {
    let plugin: LoadedPlugin
    let ops: abp_sink_ops
    let options: [String: String]
    let hostAPI: PluginHostAPI
    let statusHandler: SinkStatusHandler?

    func openSink(format: AudioFormat, source: RingBuffer) throws -> any Sink {
        try PluginSink(plugin: plugin, ops: ops, requested: format, options: options, ring: source,
                       hostAPI: hostAPI, statusHandler: statusHandler)
    }

    /// Status goes to `onStatus` (the engine) and to the opener's own handler when it has one.
    func openSink(format: AudioFormat, source: RingBuffer,
                  onStatus: @escaping @Sendable (SinkStatus) -> Void) throws -> any Sink {
        let own = statusHandler
        return try PluginSink(plugin: plugin, ops: ops, requested: format, options: options, ring: source,
                              hostAPI: hostAPI, statusHandler: { status in
                                  own?(status)
                                  onStatus(status)
                              })
    }
}
