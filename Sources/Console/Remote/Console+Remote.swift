import PlayerCore

/// Lines from outside the terminal, and what observers are told after every input.
extension Console {
    /// Runs a remote line like a typed one (never the empty-line toggle), capturing what it says.
    func perform(_ request: RemoteRequest) -> Outcome {
        let capture = OutputCapture()
        let wasAtPrompt = userIsAtPrompt
        self.capture = capture
        let outcome = execute(line: request.line)
        self.capture = nil
        userIsAtPrompt = wasAtPrompt
        // Published before the reply: a client asking for the state right after its command
        // returned (playerctl play-pause; playerctl status) sees what the command did.
        publishState()
        request.reply(RemoteReply(ok: outcome != .failed, output: capture.output, errors: capture.errors,
                                  quit: outcome == .quit, status: capture.status))
        return outcome
    }

    /// Publishes the state after an input. After a position event only the position can have
    /// changed, so the queue's length is not read again.
    func publishState(after event: PlaybackEvent? = nil) {
        if let event { broadcast.publish(.engine(event)) }
        guard let session else {
            broadcast.update(nil, jumped: false)
            return
        }
        var status = Status(session: session)
        if broadcast.wantsCoverFiles { status.cover = coverFile(ofBook: session.book.id!) }
        let isPositionEvent = if case .position = event { true } else { false }
        if isPositionEvent, let current = broadcast.current {
            status.queue = current.queue
        } else {
            status.queue = (try? library.queue().count) ?? 0
        }
        let jumped = session.jumps != publishedJumps
        publishedJumps = session.jumps
        broadcast.update(status, jumped: jumped)
    }
}
