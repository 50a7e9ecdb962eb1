import ABPluginABI
import Foundation
import Synchronization
import TestSupport
import Testing

/// The version rule: a plugin declares the lowest host minor it needs and uses newer features
/// only where the host offers them. Checked on the built plugins themselves, called through
/// their entry point and ops as a host of another minor would.
@Suite struct VersionRuleTests {
    /// What a host table of `major.minor` looks like to a plugin (nothing to log to, no cache).
    static func hostTable(major: UInt16 = UInt16(ABP_ABI_MAJOR), minor: UInt16) -> abp_host_api {
        var table = abp_host_api()
        table.struct_size = UInt32(MemoryLayout<abp_host_api>.size)
        table.abi_major = major
        table.abi_minor = minor
        return table
    }

    static func entry(of id: String) throws -> abp_entry_fn {
        let handle = try #require(dlopen(BuildProducts.plugin(id).path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE))
        return unsafeBitCast(try #require(dlsym(handle, ABP_ENTRY_SYMBOL)), to: abp_entry_fn.self)
    }

    @Test(arguments: ["mpg123", "opusfile", "vorbisfile", "flac", "faad", "null", "wav", "alsa", "pulse", "jack"])
    func aPluginBuiltWithTheseHeadersWorksWithA10Host(id: String) throws {
        let entry = try Self.entry(of: id)
        // A 1.0 host gets the descriptor, which asks for no more than 1.0
        var old = Self.hostTable(minor: 0)
        let descriptor = try #require(entry(&old), "\(id) refused a 1.0 host")
        #expect(descriptor.pointee.abi_major == UInt16(ABP_ABI_MAJOR) && descriptor.pointee.abi_minor == 0)
        // and a host of another major gets nothing
        var other = Self.hostTable(major: UInt16(ABP_ABI_MAJOR) + 1, minor: 0)
        #expect(entry(&other) == nil)
    }

    /// Counts what the sink does with the source it was given.
    final class SourceProbe: Sendable {
        let pulls = Atomic<Int>(0)
        let waits = Atomic<Int>(0)
    }

    /// The null sink, unpaced, given a source with no audio: when the source's struct_size covers
    /// `wait` (every 1.0 host's does) it sleeps in `wait`; given a source that stops short of it
    /// (as a struct grown after a plugin was built would look the other way round), it never
    /// reads the field beyond struct_size, and polls instead.
    @Test(arguments: [true, false])
    func theNullSinkReadsNoSourceFieldBeyondItsStructSize(hostHasWait: Bool) throws {
        let entry = try Self.entry(of: "null")
        var host = Self.hostTable(minor: 0)
        let descriptor = try #require(entry(&host))
        let ops = try #require(descriptor.pointee.sink).pointee
        let open = try #require(ops.open), start = try #require(ops.start)
        let stop = try #require(ops.stop), close = try #require(ops.close)
        let probe = SourceProbe()
        let context = Unmanaged.passRetained(probe)
        defer { context.release() }
        let withoutWait = MemoryLayout<abp_audio_source>.offset(of: \.wait)!
        var source = abp_audio_source(
            struct_size: UInt32(hostHasWait ? MemoryLayout<abp_audio_source>.size : withoutWait),
            ctx: context.toOpaque(),
            pull: { context, _, _ in
                Unmanaged<SourceProbe>.fromOpaque(context!).takeUnretainedValue().pulls.add(1, ordering: .relaxed)
                return 0
            },
            status: nil,
            // Present in memory in both cases: an old host's source simply ends before it.
            wait: { context, _, timeout in
                Unmanaged<SourceProbe>.fromOpaque(context!).takeUnretainedValue().waits.add(1, ordering: .relaxed)
                letRealTimePass(seconds: Double(timeout) / 1000, because: "a host's wait blocks up to the plugin's timeout when no audio comes")
            })
        var format = abp_format(rate: 44100, channels: 2)
        var actual = abp_format()
        var sink: OpaquePointer?
        var error = [CChar](repeating: 0, count: 256)
        let status = "paced".withCString { name in
            "false".withCString { value in
                var option = abp_option(name: name, value: value)
                return open(&host, &format, &option, 1, &source, &sink, &actual, &error, error.count)
            }
        }
        #expect(status == ABP_OK, "\(String(decoding: error.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))")
        let opened = try #require(sink)
        #expect(start(opened) == ABP_OK)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while probe.pulls.load(ordering: .relaxed) < 20 && clock.now < deadline { usleep(10_000) }
        _ = stop(opened)
        close(opened)
        #expect(probe.pulls.load(ordering: .relaxed) >= 20)
        if hostHasWait {
            #expect(probe.waits.load(ordering: .relaxed) > 0)
        } else {
            #expect(probe.waits.load(ordering: .relaxed) == 0)
        }
    }
}
