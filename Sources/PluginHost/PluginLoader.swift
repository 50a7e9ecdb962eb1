import ABPluginABI
import Foundation
import PathNames

/// Finds plugin files, loads them and checks each against the ABI before touching any function
/// pointer but the entry point. Every refusal names the file and says why.
public struct PluginLoader: Sendable {
    let hostAPI: PluginHostAPI

    /// The size of `abp_plugin` at ABI 1.0: every 1.x descriptor is at least this big. A field a
    /// later minor appends is read only when the descriptor's struct_size covers it.
    private static let descriptorSizeAt10 = 168

    public func load(_ searchPath: PluginSearchPath) -> (loaded: [LoadedPlugin], rejected: [RejectedPlugin]) {
        var loaded: [LoadedPlugin] = []
        var rejected = searchPath.ignored.map {
            RejectedPlugin(path: $0, reason: "relative path in ABPLAYER_PLUGIN_PATH: ignored (only absolute directories are searched)")
        }
        for directory in searchPath.directories {
            // Whatever made the search path: a relative directory is the current one's business.
            guard directory.path.hasPrefix("/") else {
                rejected.append(RejectedPlugin(path: directory.path, reason: "not an absolute path: not searched"))
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                if directory.isExplicit {
                    rejected.append(RejectedPlugin(path: directory.path, reason: "plugin directory does not exist"))
                }
                continue
            }
            if let reason = FileOwnership.unsafeDirectoryReason(directory.path, use: "loading it") {
                rejected.append(RejectedPlugin(path: directory.path, reason: reason))
                continue
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
                .filter { $0.hasSuffix(".so") && $0.hasPrefix(directory.filePrefix) }
                .sorted()
            for name in names {
                let path = directory.path + "/" + name
                switch loadPlugin(at: path) {
                case .success(let plugin):
                    if let first = loaded.first(where: { $0.id == plugin.id }) {
                        rejected.append(RejectedPlugin(
                            path: path, reason: "duplicate plugin id '\(plugin.id)': already loaded from \(first.path)"))
                    } else {
                        loaded.append(plugin)
                    }
                case .failure(let rejection):
                    rejected.append(rejection)
                }
            }
        }
        return (loaded, rejected)
    }

    func loadPlugin(at path: String) -> Result<LoadedPlugin, RejectedPlugin> {
        func reject(_ reason: String) -> Result<LoadedPlugin, RejectedPlugin> { .failure(RejectedPlugin(path: path, reason: reason)) }
        // Loading a file others can write would run their code as us.
        if let reason = FileOwnership.unsafeReason(path, use: "loading it") { return reject(reason) }
        // RTLD_NODELETE: unloading Swift code makes later dynamic casts in the host crash.
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            return reject("cannot load: " + (dlerror().map { String(cString: $0) } ?? "unknown dlopen error"))
        }
        guard let symbol = dlsym(handle, ABP_ENTRY_SYMBOL) else {
            dlclose(handle)
            return reject("not an abplayer plugin: no '\(ABP_ENTRY_SYMBOL)' symbol")
        }
        let entry = unsafeBitCast(symbol, to: abp_entry_fn.self)
        guard let descriptor = entry(hostAPI.table) else {
            return reject("the plugin refused this host (abplayer ABI \(ABP_ABI_MAJOR).\(ABP_ABI_MINOR))")
        }
        // Only the three leading fields may be read before they are known to be compatible.
        let header = descriptor.pointee
        let (major, minor, size) = (header.abi_major, header.abi_minor, Int(header.struct_size))
        guard major == UInt16(ABP_ABI_MAJOR) else {
            return reject("built for plugin ABI \(major).\(minor); this abplayer speaks \(ABP_ABI_MAJOR).x")
        }
        guard minor <= UInt16(ABP_ABI_MINOR) else {
            return reject("built for plugin ABI \(major).\(minor), newer than this abplayer's \(ABP_ABI_MAJOR).\(ABP_ABI_MINOR): update abplayer")
        }
        let needed = Self.descriptorSizeAt10
        guard size >= needed else {
            return reject("descriptor is \(size) bytes; ABI \(major).\(minor) needs at least \(needed) (struct_size too short)")
        }
        return validate(descriptor, path: path)
    }

    private func validate(_ descriptor: UnsafePointer<abp_plugin>, path: String) -> Result<LoadedPlugin, RejectedPlugin> {
        func reject(_ reason: String) -> Result<LoadedPlugin, RejectedPlugin> { .failure(RejectedPlugin(path: path, reason: reason)) }
        let header = descriptor.pointee
        guard let idPointer = header.id else { return reject("descriptor has no id") }
        let id = String(cString: idPointer)
        guard !id.isEmpty, id.utf8.count <= 64,
              id.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            return reject("invalid plugin id '\(id)' (lower-case letters, digits, - and _ only)")
        }
        let kind: PluginKind
        switch header.kind {
        case ABP_KIND_DECODER:
            guard let ops = header.decoder, header.sink == nil else { return reject("decoder '\(id)' has no decoder ops table") }
            guard Int(ops.pointee.struct_size) >= MemoryLayout<abp_decoder_ops>.size else {
                return reject("decoder ops table of '\(id)' is too short (struct_size \(ops.pointee.struct_size))")
            }
            let o = ops.pointee
            let missing = [("probe", o.probe == nil), ("open", o.open == nil), ("read", o.read == nil), ("close", o.close == nil)]
            if let name = missing.first(where: \.1)?.0 {
                return reject("decoder '\(id)' leaves \(name) NULL (only seek and last_error may be NULL)")
            }
            kind = .decoder
        case ABP_KIND_SINK:
            guard let ops = header.sink, header.decoder == nil else { return reject("sink '\(id)' has no sink ops table") }
            guard Int(ops.pointee.struct_size) >= MemoryLayout<abp_sink_ops>.size else {
                return reject("sink ops table of '\(id)' is too short (struct_size \(ops.pointee.struct_size))")
            }
            let o = ops.pointee
            let missing = [("open", o.open == nil), ("start", o.start == nil), ("pause", o.pause == nil),
                           ("resume", o.resume == nil), ("stop", o.stop == nil), ("close", o.close == nil)]
            if let name = missing.first(where: \.1)?.0 {
                return reject("sink '\(id)' leaves \(name) NULL (only latency, drain and last_error may be NULL)")
            }
            kind = .sink
        default:
            return reject("unknown plugin kind \(header.kind.rawValue)")
        }
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        var options: [PluginOptionSpec] = []
        if let specs = header.options {
            for index in 0..<Int(min(header.option_count, 64)) where specs[index].name != nil {
                let name = text(specs[index].name)
                guard let type = PluginOptionType(specs[index].type) else {
                    return reject("option '\(name)' has an unknown type \(specs[index].type.rawValue)")
                }
                options.append(PluginOptionSpec(
                    name: name, type: type, defaultValue: specs[index].default_value.map { String(cString: $0) },
                    help: text(specs[index].help)))
            }
        }
        // NULL, or the name of one of its options (plugin.h, `argument_option`).
        let argumentOption = header.argument_option.map { String(cString: $0) }
        if let argumentOption {
            guard kind == .sink else { return reject("decoder '\(id)' sets argument_option, which only sinks have") }
            guard options.contains(where: { $0.name == argumentOption }) else {
                return reject("argument_option '\(argumentOption)' is not one of its options (\(options.map(\.name).joined(separator: ", ")))")
            }
        }
        return .success(LoadedPlugin(
            id: id, name: text(header.name), version: text(header.version), description: text(header.description),
            kind: kind, capabilities: PluginCapabilities(rawValue: header.capabilities), priority: Int(header.priority),
            extensions: strings(header.extensions).map { $0.lowercased() }, mimeTypes: strings(header.mime_types),
            options: options, argumentOption: argumentOption, path: path, abiMinor: Int(header.abi_minor),
            descriptor: descriptor))
    }
}
