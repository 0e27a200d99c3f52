import Foundation

/// The one way the mock backend holds state that concurrent requests share.
///
/// The discipline, followed by every service (database, GoTrue, storage, functions, injected
/// faults, the token cache, the URLProtocol registry and the apps' server-side pieces):
///
/// 1. Shared mutable state is a value (usually a struct) owned by a `Guarded` and stored nowhere
///    else. It is reachable only inside `withLock { state in … }`, so code that touches it without
///    holding the lock does not compile. No service keeps a lock and a `var` side by side.
/// 2. A closure given to `withLock` works on its own state only: it does not call into another
///    service, run registered code (triggers, functions, view providers) or let the state escape.
///    Such locks are leaves: they are never held while another is taken, so they cannot deadlock.
///    Calling `withLock` again on the same instance from inside the closure is a programming
///    error that traps (Swift's exclusivity check) instead of racing.
/// 3. The database is the one re-entrant service: triggers, views and database functions run
///    inside a statement and call back into it. Its state is an object (`DatabaseEngine`) reachable
///    only through `withReentrantLock`, which may nest on one thread. Leaf locks may be taken
///    inside it (storage requests run under the database lock); the database lock is never taken
///    inside a leaf. Readers outside a statement do not take it at all: they read the frozen
///    snapshot the last write published (see `Database`).
///
/// Work that needs no shared state (parsing, JWT signatures, JSON encoding) runs outside every
/// lock, so requests of different clients overlap wherever they can.
package final class Guarded<State>: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var state: State
    /// How many `withReentrantLock` calls are open (all on the thread holding the lock).
    private var holds = 0

    /// Guards `initial`.
    package init(_ initial: State) { state = initial }

    /// Runs `body` with exclusive access to the state and returns its result.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

extension Guarded where State: AnyObject {
    /// Runs `body` with the state object while holding the lock; calls may nest on one thread
    /// (the database's triggers and functions re-enter it). The object must not escape `body`.
    package func withReentrantLock<R>(_ body: (State) throws -> R) rethrows -> R {
        lock.lock()
        holds += 1
        defer {
            holds -= 1
            lock.unlock()
        }
        return try body(state)
    }

    /// Whether the calling thread is inside `withReentrantLock` of this instance now. Never
    /// waits: a lock held by another thread answers false at once.
    ///
    /// A recursive lock's `try()` succeeds for the thread that holds it, and for anyone when it
    /// is free; `holds` (changed only under the lock) tells the two apart.
    package func isHeldByCurrentThread() -> Bool {
        guard lock.try() else { return false }
        defer { lock.unlock() }
        return holds > 0
    }
}
