import Foundation

extension Concurrently {
    /// `map` on threads of its own: `body` over every element, exactly `width` at a time (fewer
    /// when there are fewer elements), results in the elements' order, the first error in that
    /// order rethrown once every element is done; each thread runs with the caller's
    /// `TaskConfiguration`. `map` goes through Dispatch's `concurrentPerform`, which runs no more
    /// bodies at once than there are cores whatever `width` asks: on two cores two bodies that
    /// mostly wait (for PostgreSQL's answers, for their psql set-ups) left a core idle. For work
    /// that waits; a body may itself use `map` or `Concurrently` (its threads are not Dispatch's).
    package static func onThreads<E>(_ elements: [E], width: Int, _ body: (E) throws -> T) throws -> [T] {
        if elements.count < 2 || width < 2 { return try elements.map(body) }
        let slots = MapSlots<T>(elements.count)
        let threads = min(width, elements.count)
        let finished = DispatchSemaphore(value: 0)
        try withoutActuallyEscaping(body) { body in
            // The threads may still hold their blocks after signalling: they reach the body
            // through `work`, emptied before `body` stops being valid.
            let work = ThreadWork((elements, body))
            let context = TaskConfiguration.current
            for _ in 0..<threads {
                let thread = Thread {
                    context.apply {
                        while true {
                            let i: Int = slots.lock.withLock {
                                defer { slots.next += 1 }; return slots.next
                            }
                            guard let (elements, body) = work.value, i < elements.count else { break }
                            let r = Result { try body(elements[i]) }
                            slots.lock.withLock { slots.results[i] = r }
                        }
                    }
                    finished.signal()
                }
                thread.stackSize = 8 << 20 // the oracle, JSON and filters recurse
                thread.start()
            }
            for _ in 0..<threads { finished.wait() }
            work.value = nil
        }
        return try slots.results.map { try $0!.get() }
    }
}

/// What `onThreads`' threads work on, emptied once they are done.
private final class ThreadWork<V>: @unchecked Sendable {
    // Unchecked: set before the threads start, read by them, emptied after they are done.
    var value: V?
    init(_ value: V) { self.value = value }
}
