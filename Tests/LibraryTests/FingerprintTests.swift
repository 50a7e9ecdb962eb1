import Foundation
import Library
import Testing
import TestSupport

/// Fingerprints are stored in every library: the same bytes must give the same value forever,
/// whatever the code reading them (values by an independent FNV-1a 64 over the same bytes).
@Suite struct FingerprintTests {
    @Test func aLargeFileHashesItsFirst128KiBAndLast64KiBAndASmallOneWhole() throws {
        let folder = try BuildProducts.temporaryDirectory("fingerprint")
        let large = folder.appending(path: "large.bin")
        try Data((0..<200_000).map { UInt8($0 % 251) }).write(to: large)
        let small = folder.appending(path: "small.bin")
        try Data((0..<1000).map { UInt8($0 % 7) }).write(to: small)

        #expect(Fingerprint.of(path: large.path)?.fingerprint == "200000:106f38e7536b7254")
        #expect(Fingerprint.of(path: small.path)?.fingerprint == "1000:2496dc29a34226fc")
        #expect(Fingerprint.of(path: small.path)?.size == 1000)
        #expect(Fingerprint.of(path: folder.path) == nil)
        #expect(Fingerprint.of(path: folder.appending(path: "missing").path) == nil)
    }
}
