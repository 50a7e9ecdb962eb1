import Player

/// Lines and requests from outside the process: the control socket's clients and MPRIS.
extension PlayerService {
    /// Runs a remote line like a typed one (never the empty-line toggle) in the client's shelf,
    /// capturing what it says into the client's reply; also what its player commands did (for
    /// the terminal face to announce).
    func perform(_ request: RemoteRequest) -> (CommandRunner.Outcome, [PlayerOutcome]) {
        commands.recordingOutcomes {
            switch request.content {
            case let .line(line):
                let capture = OutputCapture(requester: request.requester)
                let outcome = commands.capturing(capture, in: request.shelf) { commands.execute(line: line) }
                request.reply(RemoteReply(ok: outcome != .failed, output: capture.output, errors: capture.errors,
                                          quit: outcome == .quit, status: capture.status))
                return outcome
            case let .words(words, id):
                let capture = OutputCapture(typed: true, requester: request.requester)
                let outcome = commands.capturing(capture, in: request.shelf) { commands.execute(words: words) }
                request.reply(RemoteReply(ok: outcome != .failed, output: capture.output, errors: capture.errors,
                                          quit: outcome == .quit, status: capture.status, outcomes: capture.outcomes, id: id))
                return outcome
            }
        }
    }

    /// Runs a typed request (MPRIS); nil when it asks the player to quit, else what it did (none
    /// when it failed).
    func perform(_ request: PlayerRequest) -> [PlayerOutcome]? {
        switch request.action {
        case .quit:
            request.reply(.success(.done))
            return nil
        case let .perform(command):
            let result = Result { () throws(PlayerError) in try player.perform(command) }
            request.reply(result)
            return (try? result.get()).map { [$0] } ?? []
        }
    }
}
