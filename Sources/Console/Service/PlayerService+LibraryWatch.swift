import Foundation
import Library
import Listening

extension PlayerService {
    /// Watches the folders the library's books came from while this player runs; what changes
    /// comes back through `inputs`, is said one line per book, and is passed to the player (the
    /// book playing takes its new items). Fails (and says why) when inotify cannot be used; the REPL
    /// works on without it.
    public func watchLibrary() {
        guard watch == nil else { return }
        let inputs = self.inputs
        do {
            let watch = try LibraryWatch(
                library: library, inspector: DecoderInspector(decoders: decoders),
                onError: { inputs.yield(.libraryWatchFailed($0)) },
                onSkipped: { inputs.yield(.libraryWatchSkipped($0)) },
                onChange: { inputs.yield(.libraryChanged($0)) })
            try watch.start()
            self.watch = watch
        } catch {
            commands.complain(LibraryText.watchOffLine(error))
        }
    }

    /// Watches again from the library as it is now (after an import: its new books' folders).
    func rewatchLibrary() {
        guard watch != nil else { return }
        stopWatchingLibrary()
        watchLibrary()
    }

    func stopWatchingLibrary() {
        watch?.stop()
        watch = nil
    }
}
