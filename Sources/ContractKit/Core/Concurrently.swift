import Foundation

/// Work started on another thread now and waited for later: `value()` blocks until it is done
/// and returns its result or rethrows its error. The one way this package overlaps independent
/// work (PostgreSQL answering while the mock computes, apps of `verify` side by side).
///
/// The body may capture values that are not `Sendable`: it runs while the caller holds on to
/// them and waits in `value()` before using them again, and each value it touches is used by it
/// alone meanwhile (or is itself locked: `PsqlSession`, the mock's `Database`).
package final class Concurrently<T>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<T, any Error>?

    /// Starts `body` on a global queue, with the caller's `TaskConfiguration`.
    package init(_ body: @escaping () throws -> T) {
        let box = UncheckedBox(body)
        let context = TaskConfiguration.current
        DispatchQueue.global().async { [self] in
            result = context.apply { Result { try box.value() } }
            done.signal()
        }
    }

    /// Waits for the body and returns what it returned (rethrows what it threw). Call once.
    package func value() throws -> T {
        done.wait()
        return try result!.get()
    }

    /// `body` over every element, at most `width` at a time, results in the elements' order
    /// (the first error, in that order, is rethrown once every element is done). Each worker
    /// runs with the caller's `TaskConfiguration`.
    package static func map<E>(_ elements: [E], width: Int = ProcessInfo.processInfo.activeProcessorCount, _ body: (E) throws -> T) throws -> [T] {
        if elements.count < 2 || width < 2 { return try elements.map(body) }
        let slots = MapSlots<T>(elements.count)
        try withoutActuallyEscaping(body) { body in
            let shared = UncheckedBox((elements, body))
            let context = TaskConfiguration.current
            DispatchQueue.concurrentPerform(iterations: min(width, elements.count)) { _ in
                context.apply {
                    while true {
                        let i: Int = slots.lock.withLock {
                            defer { slots.next += 1 }; return slots.next
                        }
                        guard i < shared.value.0.count else { return }
                        let r = Result { try shared.value.1(shared.value.0[i]) }
                        slots.lock.withLock { slots.results[i] = r }
                    }
                }
            }
            _ = try slots.results.map { try $0!.get() }
        }
        return try slots.results.map { try $0!.get() }
    }
}

/// The shared state of `Concurrently.map`: the next index to take and the results so far.
final class MapSlots<T>: @unchecked Sendable {
    let lock = NSLock()
    var next = 0
    var results: [Result<T, any Error>?]
    init(_ n: Int) { results = Array(repeating: nil, count: n) }
}

/// A value handed to another thread that its owner does not touch meanwhile.
struct UncheckedBox<V>: @unchecked Sendable {
    let value: V
    init(_ value: V) { self.value = value }
}

/// The task-local configuration of this package (`ContractsLocator.root`, `PostgresChecks.seed`,
/// `LoadedSpecs.current`), captured where work is handed to another thread and bound again there: Dispatch threads and
/// detached tasks do not inherit task-local values.
struct TaskConfiguration: Sendable {
    let root: URL
    let seed: UInt64
    let specs: LoadedSpecs?

    /// The values bound for the current task.
    static var current: TaskConfiguration {
        TaskConfiguration(root: ContractsLocator.root, seed: PostgresChecks.seed, specs: LoadedSpecs.current)
    }

    /// Runs `body` with these values bound.
    func apply<R>(_ body: () throws -> R) rethrows -> R {
        try ContractsLocator.$root.withValue(root) {
            try PostgresChecks.$seed.withValue(seed) { try LoadedSpecs.$current.withValue(specs) { try body() } }
        }
    }

    /// Runs `body` with these values bound.
    func apply<R>(_ body: () async throws -> R) async rethrows -> R {
        try await ContractsLocator.$root.withValue(root) {
            try await PostgresChecks.$seed.withValue(seed) { try await LoadedSpecs.$current.withValue(specs) { try await body() } }
        }
    }
}
