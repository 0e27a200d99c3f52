import Foundation

/// What a screen shows for a list: the items, an error, and whether they are a stale copy.
public struct LoaderSnapshot<Item: Sendable>: Sendable {
    public var items: [Item]
    /// The error shown, if any (§3.7: only when there is nothing else to show).
    public var errorMessage: String?
    /// Whether a "stale data" banner is shown (CivicForge §4 offline banner).
    public var showsStaleBanner: Bool

    public init(items: [Item], errorMessage: String? = nil, showsStaleBanner: Bool = false) {
        self.items = items
        self.errorMessage = errorMessage
        self.showsStaleBanner = showsStaleBanner
    }
}

/// A client service that loads a list cache-then-network (TeleportMe §3.6): what `LoaderSuite`
/// checks. `onUpdate` receives every state the screen would show, in order.
public protocol CacheThenNetworkLoading: Sendable {
    /// The list's element (a client model such as `City`; encoded with the server's field names).
    associatedtype Item: Codable & Sendable & Equatable
    /// Runs the pattern once and returns the final state.
    func load(onUpdate: @escaping @Sendable (LoaderSnapshot<Item>) -> Void) async -> LoaderSnapshot<Item>
}

/// The reference cache-then-network loader: §3.6's five steps over any cache store and fetch.
public struct CacheThenNetworkLoader<Item: Codable & Sendable & Equatable>: CacheThenNetworkLoading {
    package let cache: any ClientCacheStore
    /// The entry the list lives in.
    package let key: CacheKey
    /// Whether stale data shown after a failed refresh carries a banner.
    package let staleBanner: Bool
    package let fetch: @Sendable () async throws -> [Item]

    /// A loader of `key` from `cache`, refreshed by `fetch`.
    public init(cache: any ClientCacheStore, key: CacheKey, staleBanner: Bool = false, fetch: @escaping @Sendable () async throws -> [Item]) {
        self.cache = cache
        self.key = key
        self.staleBanner = staleBanner
        self.fetch = fetch
    }

    /// A loader of a client-rules resource over PostgREST: rows decoded as `Item`.
    public init(resource: LoaderResource, rules: ClientRules, userID: String?, cache: any ClientCacheStore, transport: any RESTTransport) throws {
        guard let cacheRules = rules.cache, let entry = cacheRules.entry(resource.cacheKey) else {
            throw RESTError.unexpectedBody("\(rules.file): no cache entry '\(resource.cacheKey)'")
        }
        let client = PostgRESTClient(transport: transport)
        self.init(cache: cache, key: entry.key(user: userID, freshness: cacheRules.freshness), staleBanner: rules.loader?.staleBanner ?? false) {
            let rows = try await client.rows(path: resource.path, query: resource.query)
            do { return try JSONDecoder().decode([Item].self, from: JSONValue.array(rows).data()) } catch {
                throw RESTError.unexpectedBody("rows of \(resource.path) do not decode as \(Item.self): \(error)")
            }
        }
    }

    public func load(onUpdate: @escaping @Sendable (LoaderSnapshot<Item>) -> Void) async -> LoaderSnapshot<Item> {
        // 1. Cache first: whatever is on disk is shown at once.
        let cached = await cache.load([Item].self, for: key)
        let cachedItems = cached?.value ?? []
        var state = LoaderSnapshot(items: cachedItems)
        if cached != nil { onUpdate(state) }
        // 2. Fresh and non-empty: done.
        if let cached, !cached.isStale, !cached.value.isEmpty { return state }
        // 3. Otherwise fetch.
        do {
            let items = try await fetch()
            // 4. Success: show and write through.
            state = LoaderSnapshot(items: items)
            try? await cache.save(items, for: key)
        } catch {
            // 5. Failure: keep what is shown; an error only when there is nothing to show.
            if cachedItems.isEmpty {
                state = LoaderSnapshot(items: [], errorMessage: "\(error)")
            } else {
                state = LoaderSnapshot(items: cachedItems, showsStaleBanner: staleBanner)
            }
        }
        onUpdate(state)
        return state
    }
}

/// The conformance suite of a cache-then-network loader (TeleportMe §3.6 steps 1-5, §3.7) over
/// the mock backend: the cache seeded fresh, stale, empty or missing under an injected clock,
/// the network failed by the mock (`InjectedFault`), every request and every shown state logged.
public enum LoaderSuite {
    package static let behaviourIDs: Set<String> = [
        "loader.cache-first", "loader.fresh-skips-network", "loader.stale-or-empty-fetches", "loader.write-through",
        "loader.failure-keeps-cache", "loader.error-only-when-empty", "loader.stale-banner"
    ]

    /// What a loader under test is built from.
    public struct Environment: Sendable {
        /// The backend (fixtures loaded).
        public let backend: any BackendUnderTest
        /// The network: the loader must send its requests through it.
        public let transport: any RESTTransport
        /// The cache, already holding what the scenario needs.
        public let cache: any ClientCacheStore
        public let clock: ManualClock
        public let resource: LoaderResource
        /// The cache key of the resource for the persona.
        public let key: CacheKey
        public let userID: String?
    }

    /// Runs every check the rules call for, for every resource.
    /// - Parameters:
    ///   - makeBackend: a backend with the app's fixtures (called once per resource).
    ///   - makeCache: the cache store to use (default: the reference file or memory store).
    ///   - make: builds the loader under test.
    public static func run<L: CacheThenNetworkLoading>(
        _ rules: ClientRules, makeBackend: @escaping @Sendable () throws -> any BackendUnderTest,
        makeCache: CacheStoreSuite.Factory? = nil, make: @escaping @Sendable (Environment) async -> L
    ) async -> SuiteReport {
        let r = SuiteRecorder(suite: "loader")
        guard let loader = rules.loader, let cacheRules = rules.cache else { return r.report }
        for resource in loader.resources {
            await runResource(
                resource, rules: rules, cacheRules: cacheRules, loader: loader, recorder: r,
                makeBackend: makeBackend, makeCache: makeCache ?? ClientRulesReference.cacheFactory(cacheRules), make: make)
        }
        return r.report
    }

    private enum Seed { case none, items(TimeInterval), empty(TimeInterval) }
    private enum Failure { case none, network, status(Int) }

    private static func runResource<L: CacheThenNetworkLoading>(
        _ resource: LoaderResource, rules: ClientRules, cacheRules: CacheRules, loader: LoaderRules, recorder r: SuiteRecorder,
        makeBackend: @escaping @Sendable () throws -> any BackendUnderTest, makeCache: @escaping CacheStoreSuite.Factory,
        make: @escaping @Sendable (Environment) async -> L
    ) async {
        guard let entry = cacheRules.entry(resource.cacheKey) else { return }
        let backend: any BackendUnderTest
        do { backend = try makeBackend() } catch { r.fail(resource.id, "the backend could not be built: \(error)"); return }
        let userID = backend.served.spec.fixtures.persona(resource.persona)?.id
        let key = entry.key(user: userID, freshness: cacheRules.freshness)
        guard let timeout = rules.timeout("timeout.rest") else { r.fail(resource.id, "\(rules.file) has no timeout.rest rule"); return }
        // What the server holds for the persona, read directly (not through the loader's network).
        let serverItems: [L.Item]
        do {
            let direct = PostgRESTClient(transport: try MockBackendTransport(backend: backend, persona: resource.persona))
            let rows = try await direct.rows(path: resource.path, query: resource.query)
            serverItems = try JSONDecoder().decode([L.Item].self, from: JSONValue.array(rows).data())
        } catch {
            r.fail(resource.id, "cannot read \(resource.path)?\(resource.query) as \(resource.persona): \(error)"); return
        }
        guard serverItems.count >= 2 else {
            r.fail(
                resource.id,
                "\(resource.path) has \(serverItems.count) rows for \(resource.persona); the suite needs at least 2 to tell cached from fetched data")
            return
        }
        // The cached copy differs from the server's: one item fewer.
        let cachedItems = Array(serverItems.dropLast())
        let ttl = entry.ttlSeconds, p = cacheRules.freshness.probeSeconds
        let staleAge: TimeInterval? = ttl.map { cacheRules.freshness.staleWhenAge == .atLeastTTL ? $0 : $0 + p }
        let freshAge: TimeInterval? = {
            guard let ttl else { return 86_400 }
            return ttl > 0 ? ttl / 2 : (cacheRules.freshness.staleWhenAge == .moreThanTTL ? 0 : nil)
        }()
        let label = "\(resource.id) (\(resource.path))"

        func scenario(_ seed: Seed, _ failure: Failure) async -> LoaderOutcome<L.Item>? {
            backend.clearFaults()
            switch failure {
            case .none: break
            case .network: backend.inject(InjectedFault(pathPrefix: resource.path, kind: .networkError))
            case .status(let s):
                backend.inject(
                    InjectedFault(
                        pathPrefix: resource.path, kind: .response(.json(s, ["code": "XX000", "message": "injected failure", "details": .null, "hint": .null])))
                )
            }
            defer { backend.clearFaults() }
            let scratch = ScratchFolder("loader")
            defer { scratch.remove() }
            let dir = scratch.url.appendingPathComponent("store", isDirectory: true)
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let clock = ManualClock(suiteEpoch)
            let cache: any ClientCacheStore
            do { cache = try await makeCache(CacheStoreSuite.Environment(clock: clock, directory: dir)) } catch {
                r.fail(resource.id, "the cache store could not be created: \(error)"); return nil
            }
            switch seed {
            case .none: break
            case .items(let age), .empty(let age):
                let value: [L.Item]
                if case .items = seed { value = cachedItems } else { value = [] }
                do { try await cache.save(value, for: key) } catch { r.fail(resource.id, "seeding the cache failed: \(error)"); return nil }
                clock.advance(by: age)
            }
            let timeline = Timeline()
            let spy: SpyTransport
            do { spy = SpyTransport(inner: try URLSessionTransport(backend: backend, persona: resource.persona, timeout: timeout), timeline: timeline) } catch {
                r.fail(resource.id, "\(error)"); return nil
            }
            let env = Environment(backend: backend, transport: spy, cache: cache, clock: clock, resource: resource, key: key, userID: userID)
            let loaderUnderTest = await make(env)
            let final = await loaderUnderTest.load { snapshot in
                timeline.append(.shown(jsonValue(snapshot.items) ?? .null, snapshot.errorMessage))
            }
            let after = await cache.load([L.Item].self, for: key)
            return LoaderOutcome(
                final: final, timeline: timeline, cacheAfter: after,
                requestCount: timeline.requests.filter { $0.hasSuffix(resource.path) }.count, now: clock.now())
        }

        func show(_ items: [L.Item]?) -> String {
            guard let items else { return "nothing" }
            return "\(items.count) items"
        }
        let cachedJSON = jsonValue(cachedItems)

        // Fresh, non-empty cache: shown at once, no request.
        if let freshAge, let o = await scenario(.items(freshAge), .none) {
            if loader.has("loader.fresh-skips-network") {
                r.expect(
                    o.requestCount == 0, "loader.fresh-skips-network",
                    "\(label): cache \(secondsText(freshAge)) old (TTL \(ttl.map(secondsText) ?? "none")) and non-empty, but \(o.requestCount) requests were sent"
                )
                r.expect(
                    o.final.items == cachedItems, "loader.fresh-skips-network",
                    "\(label): with a fresh cache the screen shows \(show(o.final.items)), the cache holds \(show(cachedItems))")
            }
            if loader.has("loader.cache-first") {
                r.expect(
                    o.timeline.shown.first.map { $0.0 == cachedJSON } ?? false, "loader.cache-first",
                    "\(label): a fresh cache was not shown (states shown: \(o.timeline.shown.count))")
            }
        }
        // Stale cache: shown first, then fetched and written through.
        if let staleAge, let o = await scenario(.items(staleAge), .none) {
            if loader.has("loader.cache-first") {
                let early = o.timeline.shownBeforeFirstRequest
                r.expect(
                    early.contains { $0.0 == cachedJSON }, "loader.cache-first",
                    "\(label): the stale cached items were not shown before the request was sent (states shown before it: \(early.count))")
            }
            if loader.has("loader.stale-or-empty-fetches") {
                r.expect(
                    o.requestCount == 1, "loader.stale-or-empty-fetches",
                    "\(label): cache \(secondsText(staleAge)) old (TTL \(ttl.map(secondsText) ?? "none")): \(o.requestCount) requests sent, expected 1")
            }
            if loader.has("loader.write-through") {
                r.expect(
                    o.final.items == serverItems && o.final.errorMessage == nil, "loader.write-through",
                    "\(label): after a successful fetch the screen shows \(show(o.final.items)) (error: \(o.final.errorMessage ?? "none")), the server has \(show(serverItems))"
                )
                r.expect(
                    o.cacheAfter?.value == serverItems, "loader.write-through",
                    "\(label): after a successful fetch the cache holds \(show(o.cacheAfter?.value)), expected the server's \(show(serverItems))")
                if let c = o.cacheAfter {
                    let staleAtZero = cacheRules.freshness.staleWhenAge.isStale(age: 0, ttl: ttl)
                    r.expect(
                        abs(c.savedAt.timeIntervalSince(o.now)) <= 0.001 && c.isStale == staleAtZero, "loader.write-through",
                        "\(label): the written-through entry was not restamped (saved at \(c.savedAt.timeIntervalSince1970), now \(o.now.timeIntervalSince1970))"
                    )
                }
            }
        }
        // Empty cache: fetched. Missing cache: fetched and written.
        if let o = await scenario(.empty(0), .none), loader.has("loader.stale-or-empty-fetches") {
            r.expect(
                o.requestCount == 1, "loader.stale-or-empty-fetches", "\(label): the cache holds an empty list: \(o.requestCount) requests sent, expected 1")
            r.expect(
                o.final.items == serverItems, "loader.stale-or-empty-fetches",
                "\(label): over an empty cache the screen shows \(show(o.final.items)), the server has \(show(serverItems))")
        }
        if let o = await scenario(.none, .none) {
            if loader.has("loader.stale-or-empty-fetches") {
                r.expect(o.requestCount == 1, "loader.stale-or-empty-fetches", "\(label): no cache: \(o.requestCount) requests sent, expected 1")
            }
            if loader.has("loader.write-through") {
                r.expect(
                    o.cacheAfter?.value == serverItems, "loader.write-through",
                    "\(label): with no cache, a successful fetch left the cache holding \(show(o.cacheAfter?.value))")
            }
        }
        // Failures.
        for failure in [Failure.network, .status(500)] {
            let what: String
            switch failure {
            case .network: what = "a network error"
            case .status(let s): what = "HTTP \(s)"
            case .none: what = ""
            }
            if let staleAge, let o = await scenario(.items(staleAge), failure) {
                if loader.has("loader.failure-keeps-cache") {
                    r.expect(
                        o.requestCount == 1, "loader.failure-keeps-cache", "\(label): stale cache: \(o.requestCount) requests sent before \(what), expected 1")
                    r.expect(
                        o.final.items == cachedItems, "loader.failure-keeps-cache",
                        "\(label): after \(what) the screen shows \(show(o.final.items)), the cache held \(show(cachedItems))")
                    let errors = o.timeline.shown.compactMap(\.1) + (o.final.errorMessage.map { [$0] } ?? [])
                    r.expect(errors.isEmpty, "loader.failure-keeps-cache", "\(label): \(what) with cached data showed an error: \(errors.first ?? "")")
                    r.expect(
                        o.cacheAfter?.value == cachedItems, "loader.failure-keeps-cache",
                        "\(label): after \(what) the cache holds \(show(o.cacheAfter?.value)), expected the cached \(show(cachedItems)) kept")
                }
                if loader.has("loader.stale-banner") {
                    r.expect(
                        o.final.showsStaleBanner == loader.staleBanner, "loader.stale-banner",
                        "\(label): after \(what) with cached data the stale banner is \(o.final.showsStaleBanner ? "shown" : "hidden"), expected \(loader.staleBanner ? "shown" : "hidden")"
                    )
                }
            }
            for seed in [Seed.none, .empty(0)] {
                guard let o = await scenario(seed, failure), loader.has("loader.error-only-when-empty") else { continue }
                let state: String
                if case .none = seed { state = "no cache" } else { state = "an empty cache" }
                r.expect(
                    o.final.errorMessage != nil, "loader.error-only-when-empty",
                    "\(label): \(what) with \(state) showed no error (the screen would sit empty with no retry)")
                r.expect(o.final.items.isEmpty, "loader.error-only-when-empty", "\(label): \(what) with \(state) shows \(show(o.final.items))")
            }
        }
    }
}

/// What one loader scenario produced.
private struct LoaderOutcome<Item: Sendable> {
    var final: LoaderSnapshot<Item>
    var timeline: Timeline
    var cacheAfter: CachedData<[Item]>?
    var requestCount: Int
    var now: Date
}
