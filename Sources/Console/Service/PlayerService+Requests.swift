import Player

/// Lines and requests from outside the terminal.
extension Console {
    /// Runs a remote line like a typed one (never the empty-line toggle) in the client's shelf,
    /// capturing what it says.
    func perform(_ request: RemoteRequest) -> Outcome {
        let capture = OutputCapture()
        let wasAtPrompt = userIsAtPrompt
        self.capture = capture
        here = request.shelf
        let outcome = execute(line: request.line)
        here = location
        self.capture = nil
        userIsAtPrompt = wasAtPrompt
        request.reply(RemoteReply(ok: outcome != .failed, output: capture.output, errors: capture.errors,
                                  quit: outcome == .quit, status: capture.status))
        return outcome
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
