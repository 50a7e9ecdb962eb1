import Foundation
import Listening
import Player
import Synchronization

/// A yes/no question the REPL asked; the next line typed answers it.
struct PendingQuestion {
    let command: PlayerCommand
    /// What is said when the answer is no.
    let refused: String
}

/// What `chapters detect` was asked, carried to where what it found is offered.
public struct ChapterDetectionRequest: Sendable {
    let bookId: Int64
    let title: String
    let minimumSilence: Double
    let confirmed: Bool
}

/// `chapters detect` at a terminal: the detection running beside the REPL, and the question asked
/// when it ended (the next line typed answers it).
struct ChapterDetectionState {
    var running: ChapterDetection.Running?
    var question: PendingQuestion?
}

/// Runs a detection on a thread of its own: waited for, or beside the REPL with its end handed back.
enum ChapterDetection {
    /// A detection under way, and how far it got.
    final class Running: Sendable {
        let request: ChapterDetectionRequest
        private let progress = Atomic<Int>(0)
        var percent: Int { progress.load(ordering: .relaxed) }

        init(request: ChapterDetectionRequest) { self.request = request }

        func advance(to fraction: Double) { progress.store(Int(fraction * 100), ordering: .relaxed) }
    }

    /// Starts a detection on a thread of its own; `done` is called there with what it found.
    static func start(_ detector: ChapterDetector, paths: [String], request: ChapterDetectionRequest,
                      done: @escaping @Sendable (Result<ChapterDetector.Result, any Error>) -> Void) -> Running {
        let running = Running(request: request)
        let thread = Thread {
            done(Result { try detector.detect(paths: paths) { running.advance(to: $0) } })
        }
        thread.name = "abplayer.chapters-detect"
        thread.start()
        return running
    }

    /// Runs a detection on a thread of its own and waits for it.
    static func run(_ detector: ChapterDetector, paths: [String], request: ChapterDetectionRequest) throws -> ChapterDetector.Result {
        let outcome = Outcome()
        _ = start(detector, paths: paths, request: request) { result in
            outcome.result.withLock { $0 = result }
            outcome.done.signal()
        }
        outcome.done.wait()
        return try outcome.result.withLock { $0! }.get()
    }

    /// What the detecting thread hands the one waiting for it.
    private final class Outcome: Sendable {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<ChapterDetector.Result, any Error>?>(nil)
    }
}
