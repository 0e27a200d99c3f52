import Foundation

/// A client's `withTimeout(seconds:)` policy (TeleportMe §3.7 "wraps all Supabase calls (10-30s
/// depending on operation)", §5.1 "10s timeout", §4.6 "30s client-side"): the deadline it
/// gives each operation of client-rules.json `timeouts`, and whether an operation still running
/// after some elapsed time under a deadline has timed out. Pure functions, so the suite needs no
/// wall clock (performance belongs to benchmarks, not to timed tests).
public struct TimeoutPolicy: Sendable {
    /// The deadline of a rule's operation (`timeout.authSession`), nil when the client sets none.
    package var deadline: @Sendable (_ ruleID: String) -> TimeInterval?
    /// Whether an operation still running after `elapsed` seconds under `deadline` is cancelled.
    package var timedOut: @Sendable (_ elapsed: TimeInterval, _ deadline: TimeInterval) -> Bool

    public init(
        deadline: @escaping @Sendable (_ ruleID: String) -> TimeInterval?,
        timedOut: @escaping @Sendable (_ elapsed: TimeInterval, _ deadline: TimeInterval) -> Bool
    ) {
        self.deadline = deadline
        self.timedOut = timedOut
    }

    /// The reference: the rules' deadlines; an operation times out once its deadline has passed.
    public static func reference(_ rules: ClientRules) -> TimeoutPolicy {
        TimeoutPolicy(deadline: { rules.timeout($0) }, timedOut: { elapsed, deadline in elapsed >= deadline })
    }
}

/// Conformance of a client's timeouts to client-rules.json `timeouts`.
public enum TimeoutSuite {
    /// Every operation gets its rule's deadline; an operation finishing `probe` seconds before
    /// it succeeds and one still running `probe` seconds after it is cancelled. Empty: conforms.
    public static func violations(_ policy: TimeoutPolicy, rules: ClientRules, probe: TimeInterval = 0.001) -> [String] {
        var v: [String] = []
        if rules.timeouts.isEmpty { v.append("\(rules.file) states no timeouts") }
        for t in rules.timeouts {
            guard let d = policy.deadline(t.id) else {
                v.append("\(t.id) (\(t.operation)): no deadline, \(rules.file) gives \(t.seconds) s")
                continue
            }
            if abs(d - t.seconds) > 1e-9 { v.append("\(t.id) (\(t.operation)): deadline \(d) s, \(rules.file) gives \(t.seconds) s") }
            if policy.timedOut(t.seconds - probe, d) { v.append("\(t.id): cancelled \(probe) s before its \(t.seconds) s deadline") }
            if !policy.timedOut(t.seconds + probe, d) { v.append("\(t.id): still waiting \(probe) s after its \(t.seconds) s deadline") }
        }
        return v
    }
}
