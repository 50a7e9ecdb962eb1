import Player

/// Lines and requests from outside the process: the control socket's clients and MPRIS.
extension PlayerService {
    /// Runs a remote line like a typed one (never the empty-line toggle) in the client's shelf,
    /// capturing what it says into the client's reply.
    func perform(_ request: RemoteRequest) -> CommandRunner.Outcome {
        switch request.content {
        case let .line(line):
            let capture = OutputCapture()
            let outcome = commands.capturing(capture, in: request.shelf) { commands.execute(line: line) }
            request.reply(RemoteReply(ok: outcome != .failed, output: capture.output, errors: capture.errors,
                                      quit: outcome == .quit, status: capture.status))
            return outcome
        case let .words(words, id):
            let capture = OutputCapture(typed: true)
            let outcome = commands.capturing(capture, in: request.shelf) { commands.execute(words: words) }
            request.reply(RemoteReply(ok: outcome != .failed, output: capture.output, errors: capture.errors,
                                      quit: outcome == .quit, status: capture.status, outcomes: capture.outcomes, id: id))
            return outcome
        }
    }

    /// Runs a typed request (MPRIS); false when it asks the player to quit.
    func perform(_ request: PlayerRequest) -> Bool {
        switch request.action {
        case .quit:
            request.reply(.success(.done))
            return false
        case let .perform(command):
            request.reply(Result { () throws(PlayerError) in try player.perform(command) })
            return true
        }
    }
}
