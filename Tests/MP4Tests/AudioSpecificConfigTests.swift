@testable import MP4
import Testing

/// The AudioSpecificConfig parser, on configurations written out from ISO 14496-3.
///
/// No encoder on this machine makes HE-AAC (Debian's ffmpeg has only its native AAC-LC encoder,
/// there is no fdkaac or libfdk in Debian 12, and libfaad only decodes), so SBR and PS are
/// covered here by the configurations HE-AAC files carry, in each signalling style. The output
/// rate itself comes from libfaad: the plugin uses the rate libfaad reports after decoding the
/// first frame, which is where implicit SBR (not visible in any config) shows.
@Suite struct AudioSpecificConfigTests {
    @Test func plainLCStereo() throws {
        // AOT 2, 44100 Hz (index 4), 2 channels: what ffmpeg's encoder writes
        let config = try AudioSpecificConfig([0x12, 0x10])
        #expect(config == (try AudioSpecificConfig.expected(objectType: 2, rate: 44100, channels: 2)))
        #expect(config.sampleRate == 44100 && config.channelConfiguration == 2 && !config.sbr && config.frameLength == 1024)
    }

    @Test func explicitHierarchicalSBR() throws {
        // AOT 5 (SBR), core 24000 Hz, stereo, extension 48000 Hz, core AOT 2
        let config = try AudioSpecificConfig([0x2B, 0x11, 0x88, 0x00])
        #expect(config.sbr && !config.ps)
        #expect(config.objectType == 2 && config.sampleRate == 24000 && config.extensionSampleRate == 48000)
        #expect(config.channelConfiguration == 2 && config.frameLength == 1024)
    }

    @Test func explicitParametricStereo() throws {
        // AOT 29 (PS), core 24000 Hz, mono, extension 48000 Hz: HE-AAC v2
        let config = try AudioSpecificConfig([0xEB, 0x09, 0x88, 0x00])
        #expect(config.sbr && config.ps)
        #expect(config.sampleRate == 24000 && config.extensionSampleRate == 48000 && config.channelConfiguration == 1)
    }

    @Test func backwardCompatibleSyncExtension() throws {
        // AOT 2 at 24000 Hz stereo, then sync 0x2B7, AOT 5, sbr present, extension 48000 Hz
        let config = try AudioSpecificConfig([0x13, 0x10, 0x56, 0xE5, 0x98])
        #expect(config.objectType == 2 && config.sbr && config.extensionSampleRate == 48000)
    }

    @Test func truncatedAndReservedConfigsAreErrors() {
        #expect(throws: MP4Error.self) { try AudioSpecificConfig([0x12]) }
        #expect(throws: MP4Error.self) { try AudioSpecificConfig([0x17, 0x90]) } // frequency index 14 is reserved
    }
}

extension AudioSpecificConfig {
    static func expected(objectType: Int, rate: Int, channels: Int) throws -> AudioSpecificConfig {
        // Re-encode and parse, so the test states the fields, not the bits.
        let index = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000].firstIndex(of: rate)!
        let bits = objectType << 11 | index << 7 | channels << 3
        return try AudioSpecificConfig([UInt8(bits >> 8), UInt8(bits & 0xFF)])
    }
}

extension AudioSpecificConfigTests {
    @Test func aCoreCoderFlagWithoutItsDelayEndsTheConfig() throws {
        // Given AAC-LC 44100 Hz stereo with dependsOnCoreCoder set and no coreCoderDelay after it
        // (ffmpeg reads the missing bits as zeros and plays such files)
        let config = try AudioSpecificConfig([0x12, 0x12])
        // Then it is the plain LC config
        #expect(config == (try AudioSpecificConfig.expected(objectType: 2, rate: 44100, channels: 2)))
        // and with the delay present it is read past as before
        #expect(try AudioSpecificConfig([0x12, 0x12, 0x00, 0x00]).sampleRate == 44100)
    }
}
