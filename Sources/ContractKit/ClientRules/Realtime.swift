import Foundation

/// The realtime connection a subscription manager drives: joining and leaving channels.
public protocol RealtimeTransport: Sendable {
    /// Joins a channel (opens a subscription).
    func join(_ channel: String) async
    func leave(_ channel: String) async
}

/// A delayed action that can be called off.
public protocol ScheduledAction: Sendable {
    /// Calls the action off (no effect once it ran).
    func cancel()
}

/// Runs actions later: inject `ManualScheduler` to test delays without waiting.
public protocol ActionScheduler: Sendable {
    /// Runs `action` after `delay` seconds unless cancelled first.
    func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () async -> Void) -> any ScheduledAction
}

/// A scheduler on virtual time: nothing runs until `advance(by:)` reaches its due time.
public final class ManualScheduler: ActionScheduler, @unchecked Sendable {
    private final class Item: ScheduledAction, @unchecked Sendable {
        let due: Date
        let order: Int
        let action: @Sendable () async -> Void
        private let lock = NSLock()
        private var cancelled = false
        init(due: Date, order: Int, action: @escaping @Sendable () async -> Void) {
            self.due = due
            self.order = order
            self.action = action
        }
        func cancel() { lock.lock(); cancelled = true; lock.unlock() }
        var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
    }

    /// The virtual clock (advanced by `advance(by:)`).
    public let clock: ManualClock
    private let lock = NSLock()
    private var items: [Item] = []
    private var counter = 0

    /// A scheduler whose time is `clock`.
    public init(clock: ManualClock = ManualClock()) { self.clock = clock }

    public func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () async -> Void) -> any ScheduledAction {
        lock.lock(); defer { lock.unlock() }
        counter += 1
        let item = Item(due: clock.now().addingTimeInterval(max(0, delay)), order: counter, action: action)
        items.append(item)
        return item
    }

    private func takeDue(until end: Date) -> Item? {
        lock.lock(); defer { lock.unlock() }
        items.removeAll { $0.isCancelled }
        let next = items.filter { $0.due <= end }.min { ($0.due, $0.order) < ($1.due, $1.order) }
        if let next { items.removeAll { $0 === next } }
        return next
    }

    /// Moves time forward, running every action that falls due (in due order) at its due time.
    public func advance(by seconds: TimeInterval) async {
        let end = clock.now().addingTimeInterval(max(0, seconds))
        while true {
            let next = takeDue(until: end)
            guard let next else { break }
            if next.due > clock.now() { clock.set(next.due) }
            await next.action()
        }
        clock.set(end)
    }
}

/// A client's realtime subscription manager (Naar's Cars FR-049 `RealtimeManager`): what
/// `RealtimeSuite` checks. Views call `subscribe` on appear and `unsubscribe` on disappear (FR-050).
public protocol RealtimeSubscriptionManaging: Sendable {
    /// A view appeared: join its channel (evicting the oldest past the limit).
    func subscribe(_ channel: String) async
    /// A view disappeared: leave its channel.
    func unsubscribe(_ channel: String) async
    /// The app went to the background.
    func didEnterBackground() async
    /// The app is coming back to the foreground.
    func willEnterForeground() async
}

/// The reference realtime manager: at most `maxSubscriptions` channels, the oldest left past the
/// limit, every channel left after the background delay, nothing rejoined by itself.
public actor RealtimeManager: RealtimeSubscriptionManaging {
    private let rules: RealtimeRules
    private let transport: any RealtimeTransport
    private let scheduler: any ActionScheduler
    private var active: [String] = [] // oldest first
    private var pendingDrop: (any ScheduledAction)?
    private var generation = 0

    /// A manager following `rules` over `transport`, timing the background drop with `scheduler`.
    public init(rules: RealtimeRules, transport: any RealtimeTransport, scheduler: any ActionScheduler) {
        self.rules = rules
        self.transport = transport
        self.scheduler = scheduler
    }

    /// Channels joined, oldest first.
    public var channels: [String] { active }

    public func subscribe(_ channel: String) async {
        guard !active.contains(channel) else { return }
        while active.count >= rules.maxSubscriptions {
            let oldest = active.removeFirst()
            await transport.leave(oldest)
        }
        active.append(channel)
        await transport.join(channel)
    }

    public func unsubscribe(_ channel: String) async {
        guard let i = active.firstIndex(of: channel) else { return }
        active.remove(at: i)
        await transport.leave(channel)
    }

    public func didEnterBackground() async {
        pendingDrop?.cancel()
        generation += 1
        if rules.backgroundDropAfter == 0 {
            pendingDrop = nil
            await dropAll()
            return
        }
        let expected = generation
        pendingDrop = scheduler.schedule(after: rules.backgroundDropAfter) { [weak self] in
            await self?.dropIfStill(expected)
        }
    }

    public func willEnterForeground() async {
        pendingDrop?.cancel()
        pendingDrop = nil
        generation += 1
    }

    private func dropIfStill(_ expected: Int) async {
        guard generation == expected else { return }
        pendingDrop = nil
        await dropAll()
    }

    private func dropAll() async {
        let leaving = active
        active = []
        for c in leaving { await transport.leave(c) }
    }
}

/// Records what a manager joins and leaves (the suite's view of the connection).
public final class RecordingRealtimeTransport: RealtimeTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var joinedOrder: [String] = []
    private var events: [String] = []

    package init() {}

    public func join(_ channel: String) async {
        lock.withLock {
            events.append("join \(channel)")
            joinedOrder.append(channel)
        }
    }

    public func leave(_ channel: String) async {
        lock.withLock {
            events.append("leave \(channel)")
            if let i = joinedOrder.firstIndex(of: channel) { joinedOrder.remove(at: i) }
        }
    }

    /// Channels currently joined, in join order (a channel joined twice appears twice).
    package var joined: [String] { lock.lock(); defer { lock.unlock() }; return joinedOrder }
    /// Every join and leave, in order.
    package var log: [String] { lock.lock(); defer { lock.unlock() }; return events }
}

/// The conformance suite of a realtime subscription manager (Naar's Cars FR-049/FR-050,
/// CivicForge §3 hybrid realtime): the subscription limit and eviction order, duplicate
/// subscriptions, the background drop timed on virtual time, and resubscription through views.
public enum RealtimeSuite {
    package static let behaviourIDs: Set<String> = [
        "realtime.max-subscriptions", "realtime.evict-oldest", "realtime.no-duplicate", "realtime.unsubscribe-on-disappear",
        "realtime.background-drop", "realtime.foreground-cancels-drop", "realtime.resubscribe-via-lifecycle"
    ]

    /// What a manager under test is built from.
    public struct Environment: Sendable {
        /// The connection it must join and leave channels on.
        public let transport: RecordingRealtimeTransport
        /// The scheduler for its background delay (virtual time).
        public let scheduler: ManualScheduler
        public var clock: ManualClock { scheduler.clock }
    }

    /// Builds the manager under test.
    public typealias Factory = @Sendable (Environment) async -> any RealtimeSubscriptionManaging

    /// Runs every check the rules call for.
    public static func run(_ rules: RealtimeRules, make: @escaping Factory) async -> SuiteReport {
        let r = SuiteRecorder(suite: "realtime")
        let max = rules.maxSubscriptions, delay = rules.backgroundDropAfter, p = rules.probeSeconds
        func fresh() async -> (Environment, any RealtimeSubscriptionManaging) {
            let env = Environment(transport: RecordingRealtimeTransport(), scheduler: ManualScheduler(clock: ManualClock(suiteEpoch)))
            return (env, await make(env))
        }
        func channels(_ n: Int, from: Int = 1) -> [String] { (from..<(from + n)).map { "realtime:channel-\($0)" } }
        func list(_ a: [String]) -> String { a.isEmpty ? "none" : a.joined(separator: ", ") }

        if rules.has("realtime.max-subscriptions") {
            let id = "realtime.max-subscriptions"
            let (env, m) = await fresh()
            for (i, c) in channels(max + 2).enumerated() {
                await m.subscribe(c)
                let n = env.transport.joined.count
                r.expect(n <= max, id, "after \(i + 1) subscriptions \(n) channels are joined (at most \(max)): \(list(env.transport.joined))")
            }
            r.expect(env.transport.joined.count == max, id, "after \(max + 2) subscriptions \(env.transport.joined.count) channels are joined, expected \(max)")
        }
        if rules.has("realtime.evict-oldest") {
            let id = "realtime.evict-oldest"
            let (env, m) = await fresh()
            let cs = channels(max + 2)
            for c in cs.prefix(max + 1) { await m.subscribe(c) }
            let expected = Array(cs[1...max])
            r.expect(
                Set(env.transport.joined) == Set(expected), id,
                "subscribing \(max + 1) channels left \(list(env.transport.joined)) joined, expected \(list(expected)) (the oldest, \(cs[0]), left)")
            // Re-subscribing keeps a channel's age: the next eviction still takes the oldest.
            await m.subscribe(cs[1])
            await m.subscribe(cs[max + 1])
            let expected2 = Array(cs[2...(max + 1)])
            r.expect(
                Set(env.transport.joined) == Set(expected2), id,
                "after re-subscribing \(cs[1]) and adding \(cs[max + 1]), joined: \(list(env.transport.joined)), expected \(list(expected2)) (re-subscribing does not make a channel younger)"
            )
        }
        if rules.has("realtime.no-duplicate") {
            let id = "realtime.no-duplicate"
            let (env, m) = await fresh()
            let c = channels(1)[0]
            await m.subscribe(c)
            await m.subscribe(c)
            let joins = env.transport.log.filter { $0 == "join \(c)" }.count
            r.expect(
                joins == 1 && env.transport.joined == [c], id,
                "subscribing \(c) twice joined it \(joins) times (log: \(env.transport.log.joined(separator: "; ")))")
        }
        if rules.has("realtime.unsubscribe-on-disappear") {
            let id = "realtime.unsubscribe-on-disappear"
            let (env, m) = await fresh()
            let cs = channels(min(max, 2))
            for c in cs { await m.subscribe(c) }
            await m.unsubscribe(cs[0])
            r.expect(!env.transport.joined.contains(cs[0]), id, "\(cs[0]) is still joined after unsubscribe")
            r.expect(
                Array(cs.dropFirst()).allSatisfy { env.transport.joined.contains($0) }, id, "unsubscribing \(cs[0]) also left \(list(Array(cs.dropFirst())))")
        }
        if rules.has("realtime.background-drop") {
            let id = "realtime.background-drop"
            let (env, m) = await fresh()
            let cs = channels(max)
            for c in cs { await m.subscribe(c) }
            await m.didEnterBackground()
            if delay > 0 {
                await env.scheduler.advance(by: delay - p)
                r.expect(
                    Set(env.transport.joined) == Set(cs), id,
                    "\(secondsText(delay - p)) in the background (drop after \(secondsText(delay))), joined: \(list(env.transport.joined)), expected all of \(list(cs))"
                )
                await env.scheduler.advance(by: p)
            } else {
                await env.scheduler.advance(by: 0)
            }
            r.expect(env.transport.joined.isEmpty, id, "\(secondsText(delay)) in the background, still joined: \(list(env.transport.joined))")
        }
        if rules.has("realtime.foreground-cancels-drop") && delay > 0 {
            let id = "realtime.foreground-cancels-drop"
            let (env, m) = await fresh()
            let cs = channels(max)
            for c in cs { await m.subscribe(c) }
            await m.didEnterBackground()
            await env.scheduler.advance(by: delay / 2)
            await m.willEnterForeground()
            await env.scheduler.advance(by: delay * 2)
            r.expect(
                Set(env.transport.joined) == Set(cs), id,
                "back in the foreground after \(secondsText(delay / 2)), then \(secondsText(delay * 2)) later, joined: \(list(env.transport.joined)), expected all of \(list(cs))"
            )
            // A second background period gets the full delay again.
            await m.didEnterBackground()
            await env.scheduler.advance(by: delay - p)
            r.expect(Set(env.transport.joined) == Set(cs), id, "a second background period dropped the channels before its own \(secondsText(delay))")
        }
        if rules.has("realtime.resubscribe-via-lifecycle") {
            let id = "realtime.resubscribe-via-lifecycle"
            let (env, m) = await fresh()
            let cs = channels(max)
            for c in cs { await m.subscribe(c) }
            await m.didEnterBackground()
            await env.scheduler.advance(by: delay)
            await m.willEnterForeground()
            await env.scheduler.advance(by: 0)
            r.expect(
                env.transport.joined.isEmpty, id,
                "after the background drop, returning to the foreground joined \(list(env.transport.joined)) by itself (views resubscribe)")
            await m.subscribe(cs[0])
            r.expect(env.transport.joined == [cs[0]], id, "a view subscribing \(cs[0]) after the drop left joined: \(list(env.transport.joined))")
        }
        return r.report
    }
}
