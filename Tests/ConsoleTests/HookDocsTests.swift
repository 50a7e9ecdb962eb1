@testable import Console
import Foundation
import Player
import TestSupport
import Testing

/// The hooks a listener can write are the ones docs/guide.md lists ("Hooks"): every event and
/// every variable, and no name the player does not set.
@Suite struct HookDocsTests {
    /// The guide's "Hooks" section: from its heading to the next one of its level.
    static func hooksSection() throws -> Substring {
        let guide = try String(contentsOf: BuildProducts.packageDirectory.appending(path: "docs/guide.md"), encoding: .utf8)
        let start = try #require(guide.range(of: "\n## Hooks\n"))
        let end = guide.range(of: "\n## ", range: start.upperBound..<guide.endIndex)?.lowerBound ?? guide.endIndex
        return guide[start.upperBound..<end]
    }

    @Test func theGuideListsEveryHookEventAndVariable() throws {
        // Given the guide's section on hooks
        let section = try Self.hooksSection()

        // Then each event has its item, named as its hook file is
        for kind in ListeningEvent.Kind.allCases {
            #expect(section.contains("\n- `\(kind.rawValue)`: "), "docs/guide.md does not list the hook '\(kind.rawValue)'")
        }
        // and each variable a hook gets is named
        for name in HookEnvironment.names {
            #expect(section.contains("`\(name)`"), "docs/guide.md does not list \(name)")
        }
        // and it names no variable the player does not set (but the one that sets the hooks' time limit)
        let named = Set(section.matches(of: /ABPLAYER_[A-Z_]+/).map { String($0.0) })
        #expect(named.subtracting(HookEnvironment.names).subtracting(["ABPLAYER_HOOK_TIMEOUT"]).isEmpty,
                "docs/guide.md names \(named.subtracting(HookEnvironment.names).sorted())")
    }
}
