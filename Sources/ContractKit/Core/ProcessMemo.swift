import Foundation

/// A value per key computed at most once per process and then shared: the RLS report of an
/// app, which `verify`'s `rls` and `goldens` kinds and the gate's suites all read. The one kind
/// of process-wide mutable state this package keeps, on purpose: what it holds is a pure
/// function of the key (the app's contract files, read once per process), so sharing it changes
/// no answer, only how often it is computed.
///
/// Thread-safe; callers asking for different keys compute side by side, callers asking for the
/// same key wait for the first one's result (or error, which is kept too: the inputs do not
/// change within a process).
package final class ProcessMemo<Value>: @unchecked Sendable {
    private final class Cell: @unchecked Sendable {
        let lock = NSLock()
        var result: Result<Value, any Error>?
    }
    private let lock = NSLock()
    private var cells: [String: Cell] = [:]

    package init() {}

    /// The value of `key`, computing it with `compute` when no caller has yet.
    package func value(_ key: String, _ compute: () throws -> Value) throws -> Value {
        let cell = lock.withLock { () -> Cell in
            if let c = cells[key] { return c }
            let c = Cell()
            cells[key] = c
            return c
        }
        cell.lock.lock(); defer { cell.lock.unlock() }
        if let r = cell.result { return try r.get() }
        let r = Result { try compute() }
        cell.result = r
        return try r.get()
    }
}
