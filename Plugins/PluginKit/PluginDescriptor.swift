public import ABPluginABI

/// A plugin's `abp_plugin` descriptor, built once in static storage from Swift values. Holds a
/// pointer that is never written after `init`, hence `@unchecked Sendable`.
public struct PluginDescriptor: @unchecked Sendable {
    public let pointer: UnsafePointer<abp_plugin>

    public struct Option: Sendable {
        public let name: String
        public let type: abp_option_type
        public let defaultValue: String?
        public let help: String

        public init(_ name: String, _ type: abp_option_type, default defaultValue: String?, help: String) {
            self.name = name
            self.type = type
            self.defaultValue = defaultValue
            self.help = help
        }
    }

    /// `minimumHostMinor`: the lowest ABI 1.x minor a host must speak for this plugin to work
    /// (what `abi_minor` declares). Features of later minors are used only where the host offers
    /// them (struct_size, the host's minor), so a plugin built with newer headers still runs in
    /// older hosts.
    public init(
        id: String, name: String, version: String, description: String,
        minimumHostMinor: UInt16 = 0,
        capabilities: UInt32, priority: Int32 = 0,
        extensions: [String] = [], mimeTypes: [String] = [], options: [Option] = [],
        argumentOption: String? = nil,
        decoder: abp_decoder_ops? = nil, sink: abp_sink_ops? = nil
    ) {
        precondition((decoder == nil) != (sink == nil), "a plugin is a decoder or a sink")
        var plugin = abp_plugin()
        plugin.struct_size = UInt32(MemoryLayout<abp_plugin>.size)
        plugin.abi_major = UInt16(ABP_ABI_MAJOR)
        precondition(minimumHostMinor <= UInt16(ABP_ABI_MINOR), "these headers know minors up to \(ABP_ABI_MINOR)")
        plugin.abi_minor = minimumHostMinor
        plugin.kind = decoder != nil ? ABP_KIND_DECODER : ABP_KIND_SINK
        plugin.id = immortalCString(id)
        plugin.name = immortalCString(name)
        plugin.version = immortalCString(version)
        plugin.description = immortalCString(description)
        plugin.capabilities = capabilities
        plugin.priority = priority
        plugin.extensions = immortalCStringList(extensions)
        plugin.mime_types = immortalCStringList(mimeTypes)
        precondition(argumentOption.map { name in options.contains { $0.name == name } } ?? true,
                     "argumentOption names one of the options")
        plugin.argument_option = argumentOption.map(immortalCString)
        if !options.isEmpty {
            let specs = UnsafeMutablePointer<abp_option_spec>.allocate(capacity: options.count)
            for (index, option) in options.enumerated() {
                (specs + index).initialize(to: abp_option_spec(
                    name: immortalCString(option.name), type: option.type,
                    default_value: option.defaultValue.map(immortalCString), help: immortalCString(option.help)))
            }
            plugin.options = UnsafePointer(specs)
            plugin.option_count = UInt32(options.count)
        }
        if var decoder {
            decoder.struct_size = UInt32(MemoryLayout<abp_decoder_ops>.size)
            let ops = UnsafeMutablePointer<abp_decoder_ops>.allocate(capacity: 1)
            ops.initialize(to: decoder)
            plugin.decoder = UnsafePointer(ops)
        }
        if var sink {
            sink.struct_size = UInt32(MemoryLayout<abp_sink_ops>.size)
            let ops = UnsafeMutablePointer<abp_sink_ops>.allocate(capacity: 1)
            ops.initialize(to: sink)
            plugin.sink = UnsafePointer(ops)
        }
        let storage = UnsafeMutablePointer<abp_plugin>.allocate(capacity: 1)
        storage.initialize(to: plugin)
        pointer = UnsafePointer(storage)
    }

    /// What the entry point returns: the descriptor when the host speaks our major version and at
    /// least the minor this plugin needs (its declared `abi_minor`, not the minor of the headers it
    /// was built with), else nil (the host then reports the plugin as refusing it).
    public func entry(for host: UnsafePointer<abp_host_api>?) -> UnsafePointer<abp_plugin>? {
        guard let host, host.pointee.abi_major == UInt16(ABP_ABI_MAJOR),
              host.pointee.abi_minor >= pointer.pointee.abi_minor else { return nil }
        return pointer
    }
}
