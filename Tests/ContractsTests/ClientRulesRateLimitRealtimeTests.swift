import XCTest
import MockBinding

/// The rate-limit suite (Naar's Cars FR-045/FR-046, PERF-CLI-003) and the realtime suite
/// (FR-049/FR-050, CivicForge §3): references conform, mutants are rejected by the rule they break.
final class ClientRulesRateLimitTests: GateTestCase {
    func limits() throws -> RateLimitRules { try XCTUnwrap(try ClientRules.load(app: "naarscars")?.rateLimits) }

    func testReferenceLimiterConforms() async throws {
        let rules = try limits()
        let report = await RateLimiterSuite.run(rules) { clock in RateLimiter(rules: rules, clock: clock) }
        XCTAssertTrue(report.passed, "\(report)")
        XCTAssertEqual(Set(report.checked), Set(rules.actions.map(\.id) + rules.behaviours.map(\.id)))
    }

    func run(_ flaw: MutantRateLimiter.Flaw) async throws -> SuiteReport {
        try await RateLimiterSuite.run(limits()) { clock in MutantRateLimiter(clock: clock, flaw: flaw) }
    }

    func assertRejected(_ flaw: MutantRateLimiter.Flaw, _ rule: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let report = try await run(flaw)
        XCTAssertTrue(report.violated(rule), "\(flaw) not rejected for \(rule): \(report)", file: file, line: line)
    }

    func testTheMutantBaseConforms() async throws {
        let report = try await run(.none)
        XCTAssertTrue(report.passed, "\(report)")
    }

    func testBlockingAtExactlyTheIntervalIsRejected() async throws {
        let report = try await run(.blocksAtExactInterval)
        for a in try limits().actions { XCTAssertTrue(report.violated(a.id), "\(a.id): \(report)") }
        XCTAssertTrue(
            report.violations(of: "rate.claimUnclaim").first?.message.contains("attempt 5 s after the first was blocked, expected allowed") ?? false,
            "\(report)")
    }

    func testRecordingBlockedTapsIsRejected() async throws {
        try await assertRejected(.recordsBlockedTaps, "rate.blocked-not-recorded")
    }

    func testIgnoringTheTargetIsRejected() async throws {
        try await assertRejected(.ignoresTarget, "rate.targets-independent")
    }

    func testOneWindowForAllActionsIsRejected() async throws {
        try await assertRejected(.sharedAcrossActions, "rate.actions-independent")
    }

    func testMillisecondIntervalsAreRejected() async throws {
        let report = try await run(.intervalInMilliseconds)
        XCTAssertTrue(report.violated("rate.second-tap-blocked") == false && report.violated("rate.passwordReset"), "\(report)")
    }

    func testNeverBlockingIsRejected() async throws {
        try await assertRejected(.neverBlocks, "rate.second-tap-blocked")
    }
}

/// A rate limiter with one deliberate flaw.
final class MutantRateLimiter: ClientRateLimiter, @unchecked Sendable {
    enum Flaw { case none, blocksAtExactInterval, recordsBlockedTaps, ignoresTarget, sharedAcrossActions, intervalInMilliseconds, neverBlocks }
    let clock: WallClock
    let flaw: Flaw
    let lock = NSLock()
    var last: [String: Date] = [:]

    init(clock: WallClock, flaw: Flaw) {
        self.clock = clock
        self.flaw = flaw
    }

    func attempt(_ action: String, target: String?, minimumInterval: TimeInterval) async -> Bool { now(action, target, minimumInterval) }

    func now(_ action: String, _ target: String?, _ interval: TimeInterval) -> Bool {
        lock.lock(); defer { lock.unlock() }
        let slot: String
        switch flaw {
        case .ignoresTarget: slot = action
        case .sharedAcrossActions: slot = target ?? ""
        default: slot = "\(action)|\(target ?? "")"
        }
        let iv = flaw == .intervalInMilliseconds ? interval / 1000 : interval
        var allowed = true
        if let previous = last[slot] {
            let elapsed = clock.now().timeIntervalSince(previous)
            allowed = flaw == .blocksAtExactInterval ? elapsed > iv : elapsed >= iv
        }
        if flaw == .neverBlocks { allowed = true }
        if allowed || flaw == .recordsBlockedTaps { last[slot] = clock.now() }
        return allowed
    }
}

final class ClientRulesRealtimeTests: GateTestCase {
    func rules(_ app: String) throws -> RealtimeRules { try XCTUnwrap(try ClientRules.load(app: app)?.realtime) }

    func testReferenceManagerConforms() async throws {
        for app in ["naarscars", "civicforge"] {
            let rules = try rules(app)
            let report = await RealtimeSuite.run(rules) { env in RealtimeManager(rules: rules, transport: env.transport, scheduler: env.scheduler) }
            XCTAssertTrue(report.passed, "\(app): \(report)")
            XCTAssertEqual(Set(report.checked), Set(rules.behaviours.map(\.id)), app)
        }
    }

    func run(_ flaw: MutantRealtimeManager.Flaw, app: String = "naarscars") async throws -> SuiteReport {
        let rules = try rules(app)
        return await RealtimeSuite.run(rules) { env in
            MutantRealtimeManager(max: rules.maxSubscriptions, delay: rules.backgroundDropAfter, transport: env.transport, scheduler: env.scheduler, flaw: flaw)
        }
    }

    func assertRejected(_ flaw: MutantRealtimeManager.Flaw, _ rule: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let report = try await run(flaw)
        XCTAssertTrue(report.violated(rule), "\(flaw) not rejected for \(rule): \(report)", file: file, line: line)
    }

    func testTheMutantBaseConforms() async throws {
        for app in ["naarscars", "civicforge"] {
            let report = try await run(.none, app: app)
            XCTAssertTrue(report.passed, "\(app): \(report)")
        }
    }

    func testNoLimitIsRejected() async throws {
        let report = try await run(.noLimit)
        XCTAssertTrue(report.violated("realtime.max-subscriptions"), "\(report)")
        XCTAssertTrue(report.violations(of: "realtime.max-subscriptions").first?.message.contains("4 channels are joined (at most 3)") ?? false, "\(report)")
    }

    func testEvictingTheNewestIsRejected() async throws { try await assertRejected(.evictsNewest, "realtime.evict-oldest") }
    func testEvictedChannelNotLeftIsRejected() async throws { try await assertRejected(.forgetsToLeaveEvicted, "realtime.max-subscriptions") }
    func testResubscribeRefreshingAgeIsRejected() async throws { try await assertRejected(.resubscribeMakesYounger, "realtime.evict-oldest") }
    func testDuplicateJoinIsRejected() async throws { try await assertRejected(.joinsTwice, "realtime.no-duplicate") }
    func testForegroundNotCancellingTheDropIsRejected() async throws { try await assertRejected(.foregroundKeepsTimer, "realtime.foreground-cancels-drop") }
    func testDroppingAtOnceIsRejected() async throws { try await assertRejected(.dropsAtOnce, "realtime.background-drop") }
    func testDroppingLateIsRejected() async throws { try await assertRejected(.dropsOneSecondLate, "realtime.background-drop") }
    func testAutoResubscribeIsRejected() async throws { try await assertRejected(.rejoinsOnForeground, "realtime.resubscribe-via-lifecycle") }
    func testCivicForgeWaitingInBackgroundIsRejected() async throws {
        // CivicForge disconnects at once; a manager with Naar's Cars' 30 s delay breaks its rule.
        let rules = try rules("civicforge")
        let report = await RealtimeSuite.run(rules) { env in
            MutantRealtimeManager(max: rules.maxSubscriptions, delay: 30, transport: env.transport, scheduler: env.scheduler, flaw: .none)
        }
        XCTAssertTrue(report.violated("realtime.background-drop"), "\(report)")
    }
}

/// A realtime manager with one deliberate flaw.
actor MutantRealtimeManager: RealtimeSubscriptionManaging {
    enum Flaw {
        case none, noLimit, evictsNewest, forgetsToLeaveEvicted, resubscribeMakesYounger, joinsTwice, foregroundKeepsTimer, dropsAtOnce, dropsOneSecondLate,
            rejoinsOnForeground
    }
    let max: Int
    let delay: TimeInterval
    let transport: any RealtimeTransport
    let scheduler: any ActionScheduler
    let flaw: Flaw
    var active: [String] = []
    var remembered: [String] = []
    var timer: (any ScheduledAction)?

    init(max: Int, delay: TimeInterval, transport: any RealtimeTransport, scheduler: any ActionScheduler, flaw: Flaw) {
        self.max = max
        self.delay = delay
        self.transport = transport
        self.scheduler = scheduler
        self.flaw = flaw
    }

    func subscribe(_ channel: String) async {
        if let i = active.firstIndex(of: channel) {
            switch flaw {
            case .joinsTwice: await transport.join(channel)
            case .resubscribeMakesYounger: active.remove(at: i); active.append(channel)
            default: break
            }
            return
        }
        if active.count >= max && flaw != .noLimit {
            let victim = flaw == .evictsNewest ? active.removeLast() : active.removeFirst()
            if flaw != .forgetsToLeaveEvicted { await transport.leave(victim) }
        }
        active.append(channel)
        await transport.join(channel)
    }

    func unsubscribe(_ channel: String) async {
        guard let i = active.firstIndex(of: channel) else { return }
        active.remove(at: i)
        await transport.leave(channel)
    }

    func didEnterBackground() async {
        timer?.cancel()
        if delay == 0 || flaw == .dropsAtOnce { await drop(); return }
        timer = scheduler.schedule(after: delay + (flaw == .dropsOneSecondLate ? 1 : 0)) { [weak self] in await self?.drop() }
    }

    func willEnterForeground() async {
        if flaw != .foregroundKeepsTimer { timer?.cancel() }
        if flaw == .rejoinsOnForeground { for c in remembered { await subscribe(c) } }
    }

    func drop() async {
        remembered = active
        for c in active { await transport.leave(c) }
        active = []
    }
}
