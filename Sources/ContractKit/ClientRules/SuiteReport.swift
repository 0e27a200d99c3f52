import Foundation

/// One broken rule: its id in client-rules.json and what happened.
public struct RuleViolation: Sendable, Equatable, CustomStringConvertible, Error {
    /// The rule's id (`cache.savedCities`, `rate.claimUnclaim`, `loader.fresh-skips-network`).
    public var ruleID: String
    /// What the implementation did, against what the rule says.
    public var message: String

    /// `cache.savedCities: TTL 300 s: stale at age 299.999 s, expected fresh`.
    public var description: String { "\(ruleID): \(message)" }
}

/// What a conformance suite found: the rules it checked and the violations.
public struct SuiteReport: Sendable, CustomStringConvertible {
    /// The suite (`cache`, `rate-limit`, `realtime`, `loader`, `optimistic`).
    public var suite: String
    /// Rule ids checked, in order, each once.
    public var checked: [String]
    /// Everything that went wrong.
    public var violations: [RuleViolation]

    /// Whether no rule was broken (and at least one was checked).
    public var passed: Bool { violations.isEmpty && !checked.isEmpty }

    public func violations(of ruleID: String) -> [RuleViolation] { violations.filter { $0.ruleID == ruleID } }

    /// Whether a rule was broken.
    public func violated(_ ruleID: String) -> Bool { violations.contains { $0.ruleID == ruleID } }

    /// One result per rule checked, for `contracts verify` (kind `client-rules`).
    package func caseResults(app: String) -> [CaseResult] {
        checked.map { id in
            let v = violations(of: id)
            return CaseResult(
                app: app, kind: "client-rules", name: "\(suite) · \(id)", passed: v.isEmpty,
                message: v.map(\.message).joined(separator: "; "))
        }
    }

    /// The checked rules and every violation, one per line.
    public var description: String {
        var s = "\(suite): \(checked.count) rules checked, \(violations.count) violations"
        for v in violations { s += "\n  \(v)" }
        return s
    }
}

/// Collects checked rules and violations while a suite runs (shared by concurrent checks).
final class SuiteRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var checked: [String] = []
    private var seen: Set<String> = []
    private var violations: [RuleViolation] = []
    let suite: String

    init(suite: String) { self.suite = suite }

    /// Notes that a rule is being checked.
    func checking(_ id: String) {
        lock.lock(); defer { lock.unlock() }
        if seen.insert(id).inserted { checked.append(id) }
    }

    /// Records a violation (and that the rule was checked).
    func fail(_ id: String, _ message: String) {
        checking(id)
        lock.lock(); defer { lock.unlock() }
        violations.append(RuleViolation(ruleID: id, message: message))
    }

    /// Records a violation unless `condition` holds; returns the condition.
    @discardableResult
    func expect(_ condition: Bool, _ id: String, _ message: @autoclosure () -> String) -> Bool {
        checking(id)
        if !condition { fail(id, message()) }
        return condition
    }

    var report: SuiteReport {
        lock.lock(); defer { lock.unlock() }
        return SuiteReport(suite: suite, checked: checked, violations: violations)
    }
}

/// Formats seconds for messages: `300 s`, `299.999 s`.
func secondsText(_ s: TimeInterval) -> String {
    if s == s.rounded(), abs(s) < 1e15 { return "\(Int64(s)) s" }
    return String(format: "%.3f s", s)
}

/// The fixed start of every suite's clock (2026-01-01T00:00:00Z): a whole second, so stores that
/// keep timestamps at second resolution are judged fairly.
let suiteEpoch = Date(timeIntervalSince1970: 1_767_225_600)

/// Runs an async body to completion from synchronous code (the CLI's verify command), with the
/// caller's `TaskConfiguration` (a detached task would not inherit it).
func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = BlockingBox<T>()
    let done = DispatchSemaphore(value: 0)
    let context = TaskConfiguration.current
    Task.detached {
        box.value = await context.apply { await body() }
        done.signal()
    }
    done.wait()
    return box.value!
}

/// Carries a result out of a detached task (written once, read after the semaphore).
private final class BlockingBox<T>: @unchecked Sendable { var value: T? }

/// A scratch folder for one check (under `ScratchSpace.parent`), removed afterwards.
struct ScratchFolder {
    let url: URL

    init(_ label: String) {
        url = ScratchSpace.parent
            .appendingPathComponent("supacontracts-\(label)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
