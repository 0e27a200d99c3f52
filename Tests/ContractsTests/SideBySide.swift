import Foundation
import MockBinding

/// Jobs that spend much of their time waiting — a live run's client waits while the served mock
/// answers, and the mock waits for the next request — each on a thread of its own, all at once.
/// `Concurrently.map` goes through Dispatch's `concurrentPerform`, which runs at most as many
/// jobs at once as there are cores whatever `width` asks, so on two cores a core sat idle
/// whenever both jobs were waiting at the same moment, and the longest job ran alone at the end.
/// Results come in the jobs' order; the first error in that order is rethrown once every job
/// is done. Each thread runs with the caller's `LoadedSpecs` bound.
enum SideBySide {
    private final class Slots<T>: @unchecked Sendable {
        // Unchecked: `results` is written under `lock`, and read once every thread signalled `done`.
        let lock = NSLock()
        var results: [Result<T, any Error>?]
        let done = DispatchSemaphore(value: 0)
        init(_ n: Int) { results = Array(repeating: nil, count: n) }
    }

    private struct Job<E, T>: @unchecked Sendable {
        // Unchecked: the body and the element are used by one thread while the caller waits.
        let element: E
        let body: (E) throws -> T
    }

    static func map<E, T>(_ jobs: [E], _ body: @escaping (E) throws -> T) throws -> [T] {
        let slots = Slots<T>(jobs.count)
        let specs = LoadedSpecs.current
        for (i, element) in jobs.enumerated() {
            let job = Job(element: element, body: body)
            let thread = Thread {
                let r = LoadedSpecs.$current.withValue(specs) { Result { try job.body(job.element) } }
                slots.lock.withLock { slots.results[i] = r }
                slots.done.signal()
            }
            thread.stackSize = 8 << 20 // as the served mock's threads: JSON and filters recurse
            thread.start()
        }
        for _ in jobs { slots.done.wait() }
        return try slots.results.map { try $0!.get() }
    }
}
