import Foundation

/// A client's rate limiter (Naar's Cars FR-045 `RateLimiter` actor): what `RateLimiterSuite`
/// checks. Requirements are `async` so plain classes and actors both conform.
public protocol ClientRateLimiter: Sendable {
    /// Whether `action` on `target` may run now, given the action's minimum interval; an allowed
    /// attempt is recorded. Never throws: a blocked tap gets haptic feedback, not an error (FR-046).
    func attempt(_ action: String, target: String?, minimumInterval: TimeInterval) async -> Bool
}

/// The reference rate limiter: one timestamp per (action, target), judged with an injected clock
/// by the boundary, recording and keying rules of client-rules.json.
public final class RateLimiter: ClientRateLimiter, @unchecked Sendable {
    private struct Slot: Hashable {
        var action: String
        var target: String?
    }

    private let rules: RateLimitRules
    private let clock: WallClock
    private let lock = NSLock()
    private var last: [Slot: Date] = [:]

    /// A limiter following `rules`, timed by `clock`.
    public init(rules: RateLimitRules, clock: WallClock) {
        self.rules = rules
        self.clock = clock
    }

    public func attempt(_ action: String, target: String?, minimumInterval: TimeInterval) async -> Bool {
        attemptNow(action, target: target, minimumInterval: minimumInterval)
    }

    /// Attempts an action of the rules (its interval from client-rules.json).
    package func attempt(_ action: RateLimitAction, target: String? = nil) -> Bool {
        attemptNow(action.action, target: target, minimumInterval: action.minimumInterval)
    }

    /// The synchronous form of `attempt`.
    package func attemptNow(_ action: String, target: String?, minimumInterval: TimeInterval) -> Bool {
        let slot = Slot(action: action, target: rules.keying == .actionAndTarget ? target : nil)
        let now = clock.now()
        lock.lock(); defer { lock.unlock() }
        var allowed = true
        if let previous = last[slot] {
            let elapsed = now.timeIntervalSince(previous)
            switch rules.boundary {
            case .atLeastInterval: allowed = elapsed >= minimumInterval
            case .moreThanInterval: allowed = elapsed > minimumInterval
            }
        }
        if allowed || rules.recording == .everyAttempt { last[slot] = now }
        return allowed
    }
}

/// The conformance suite of a rate limiter (Naar's Cars FR-045/FR-046, PERF-CLI-003): every
/// action's interval probed at its boundary under an injected clock, rapid taps, blocked taps
/// that must not extend the window, independence of actions and targets.
public enum RateLimiterSuite {
    package static let behaviourIDs: Set<String> = [
        "rate.second-tap-blocked", "rate.allowed-after-interval", "rate.blocked-not-recorded",
        "rate.actions-independent", "rate.targets-independent"
    ]

    /// Builds the limiter under test on the suite's clock.
    public typealias Factory = @Sendable (ManualClock) async -> any ClientRateLimiter

    /// Runs every check the rules call for.
    public static func run(_ rules: RateLimitRules, make: @escaping Factory) async -> SuiteReport {
        let r = SuiteRecorder(suite: "rate-limit")
        let p = rules.probeSeconds
        func fresh() async -> (ManualClock, any ClientRateLimiter) {
            let clock = ManualClock(suiteEpoch)
            return (clock, await make(clock))
        }
        func allowedAt(_ elapsed: TimeInterval, interval: TimeInterval) -> Bool {
            rules.boundary == .atLeastInterval ? elapsed >= interval : elapsed > interval
        }
        func tap(_ l: any ClientRateLimiter, _ a: RateLimitAction, _ target: String? = "target-1") async -> Bool {
            await l.attempt(a.action, target: target, minimumInterval: a.minimumInterval)
        }
        func word(_ b: Bool) -> String { b ? "allowed" : "blocked" }

        // Each action's own interval, probed around its boundary.
        for a in rules.actions {
            let (clock, l) = await fresh()
            let iv = a.minimumInterval
            r.expect(await tap(l, a), a.id, "\(a.action): the first attempt was blocked")
            var recorded: TimeInterval = 0 // when the rules say the current interval started
            for t in [p, iv - p, iv, iv + p] {
                clock.set(suiteEpoch.addingTimeInterval(t))
                let expected = allowedAt(t - recorded, interval: iv)
                let got = await tap(l, a)
                r.expect(
                    got == expected, a.id,
                    "\(a.action) (interval \(secondsText(iv))): attempt \(secondsText(t)) after the first was \(word(got)), expected \(word(expected))")
                if got != expected { break }
                if expected { break } // a new interval starts here
                if rules.recording == .everyAttempt { recorded = t }
            }
        }
        if rules.has("rate.second-tap-blocked") {
            for a in rules.actions {
                let (_, l) = await fresh()
                let first = await tap(l, a), second = await tap(l, a)
                r.expect(
                    first && !second, "rate.second-tap-blocked",
                    "\(a.action): two taps at the same instant were \(word(first)) and \(word(second)), expected allowed then blocked")
            }
        }
        if rules.has("rate.allowed-after-interval") {
            for a in rules.actions {
                let (clock, l) = await fresh()
                _ = await tap(l, a)
                clock.advance(by: a.minimumInterval * 1.5)
                let got = await tap(l, a)
                r.expect(
                    got, "rate.allowed-after-interval",
                    "\(a.action): attempt \(secondsText(a.minimumInterval * 1.5)) after the first (interval \(secondsText(a.minimumInterval))) was blocked")
            }
        }
        if rules.has("rate.blocked-not-recorded") {
            for a in rules.actions {
                let (clock, l) = await fresh()
                let iv = a.minimumInterval
                _ = await tap(l, a)
                clock.set(suiteEpoch.addingTimeInterval(iv / 2))
                _ = await tap(l, a) // blocked
                let at = rules.boundary == .atLeastInterval ? iv : iv + p
                clock.set(suiteEpoch.addingTimeInterval(at))
                let got = await tap(l, a)
                let expected = rules.recording == .allowedOnly
                r.expect(
                    got == expected, "rate.blocked-not-recorded",
                    "\(a.action): after a blocked tap at \(secondsText(iv / 2)), the attempt at \(secondsText(at)) was \(word(got)), expected \(word(expected)) (\(rules.recording == .allowedOnly ? "blocked taps do not restart the interval" : "every tap restarts it"))"
                )
            }
        }
        if rules.has("rate.actions-independent") {
            let (_, l) = await fresh()
            for a in rules.actions {
                let got = await tap(l, a)
                r.expect(got, "rate.actions-independent", "\(a.action) was blocked at its first attempt because other actions had just run")
            }
        }
        if rules.has("rate.targets-independent") {
            for a in rules.actions {
                let (_, l) = await fresh()
                _ = await tap(l, a, "target-1")
                let other = await tap(l, a, "target-2")
                let same = await tap(l, a, "target-1")
                let expectedOther = rules.keying == .actionAndTarget
                r.expect(
                    other == expectedOther, "rate.targets-independent",
                    "\(a.action) on another target right after was \(word(other)), expected \(word(expectedOther))")
                r.expect(!same, "rate.targets-independent", "\(a.action) on the same target again right after was allowed")
            }
        }
        return r.report
    }
}
