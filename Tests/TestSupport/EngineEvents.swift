public import PlayerCore

/// The engine's events until `.ended`, or those seen when `seconds` pass first.
public func events(of engine: PlaybackEngine, within seconds: Double) async -> [PlaybackEvent] {
    let collecting = Task {
        var events: [PlaybackEvent] = []
        for await event in engine.events {
            events.append(event)
            if case .ended = event { break }
        }
        return events
    }
    let deadline = atDeadline(in: seconds) { collecting.cancel() }
    defer { deadline.cancel() }
    return await collecting.value
}
