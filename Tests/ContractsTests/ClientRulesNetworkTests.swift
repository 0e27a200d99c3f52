import XCTest
import MockBinding
import TeleportMe
import CivicForge

/// The cache-then-network suite (TeleportMe §3.6) and the optimistic save/unsave suite (§5.3)
/// over the TeleportMe mock (cities, saved_cities over REST through URLSession): references
/// conform, mutants are rejected by the step they break.
final class ClientRulesLoaderTests: GateTestCase {
    func rules() throws -> ClientRules { try XCTUnwrap(try ClientRules.load(app: "teleportme")) }

    static let makeBackend: @Sendable () throws -> MockSupabase = {
        try TeleportMeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 7))
    }

    func run(_ flaw: MutantLoader.Flaw?) async throws -> SuiteReport {
        let rules = try rules()
        return await LoaderSuite.run(rules, makeBackend: Self.makeBackend) { env in
            MutantLoader(env: env, flaw: flaw)
        }
    }

    func testReferenceLoaderConforms() async throws {
        let rules = try rules()
        let report = await LoaderSuite.run(rules, makeBackend: Self.makeBackend) { env in
            CacheThenNetworkLoader<JSONValue>(cache: env.cache, key: env.key) {
                try await PostgRESTClient(transport: env.transport).rows(path: env.resource.path, query: env.resource.query)
            }
        }
        XCTAssertTrue(report.passed, "\(report)")
        XCTAssertEqual(Set(report.checked), Set(rules.loader!.behaviours.map(\.id)))
    }

    /// The same reference built from the resource description, with the app's own model.
    func testReferenceLoaderConformsWithATypedModel() async throws {
        struct SavedCity: Codable, Sendable, Equatable {
            var id: String
            var userId: String
            var cityId: String
            var createdAt: String
            enum CodingKeys: String, CodingKey { case id, userId = "user_id", cityId = "city_id", createdAt = "created_at" }
        }
        var rules = try rules()
        rules.loader!.resources = rules.loader!.resources.filter { $0.cacheKey == "savedCities" }
        let r = rules
        let report = await LoaderSuite.run(rules, makeBackend: Self.makeBackend) { env in
            try! CacheThenNetworkLoader<SavedCity>(resource: env.resource, rules: r, userID: env.userID, cache: env.cache, transport: env.transport)
        }
        XCTAssertTrue(report.passed, "\(report)")
    }

    func testTheMutantBaseConforms() async throws {
        let report = try await run(nil)
        XCTAssertTrue(report.passed, "\(report)")
    }

    func assertRejected(_ flaw: MutantLoader.Flaw, _ rule: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let report = try await run(flaw)
        XCTAssertTrue(report.violated(rule), "\(flaw) not rejected for \(rule): \(report)", file: file, line: line)
    }

    func testAlwaysFetchingIsRejected() async throws { try await assertRejected(.alwaysFetches, "loader.fresh-skips-network") }
    func testNetworkBeforeCacheIsRejected() async throws { try await assertRejected(.networkFirst, "loader.cache-first") }
    func testNoWriteThroughIsRejected() async throws { try await assertRejected(.noWriteThrough, "loader.write-through") }
    func testErrorOverCachedDataIsRejected() async throws { try await assertRejected(.failureShowsError, "loader.failure-keeps-cache") }
    func testFailureWipingTheCacheIsRejected() async throws { try await assertRejected(.failureWipesCache, "loader.failure-keeps-cache") }
    func testSilentFailureOnEmptyCacheIsRejected() async throws { try await assertRejected(.silentWhenEmpty, "loader.error-only-when-empty") }
    func testEmptyCacheTreatedAsFreshIsRejected() async throws { try await assertRejected(.emptyCountsAsFresh, "loader.stale-or-empty-fetches") }
    func testStaleCacheTreatedAsFreshIsRejected() async throws { try await assertRejected(.ignoresStaleness, "loader.stale-or-empty-fetches") }

    /// CivicForge's board (TTL 0, stale banner): the reference conforms; hiding the banner or
    /// trusting the cache breaks its rules.
    func testCivicForgeBoard() async throws {
        let rules = try XCTUnwrap(try ClientRules.load(app: "civicforge"))
        let makeBackend: @Sendable () throws -> MockSupabase = { try CivicForgeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 3)) }
        func run(banner: Bool, trustCache: Bool = false) async -> SuiteReport {
            await LoaderSuite.run(rules, makeBackend: makeBackend) { env in
                let key = trustCache ? CacheKey(name: env.key.name, userID: env.key.userID, ttl: nil, boundary: env.key.boundary) : env.key
                return CacheThenNetworkLoader<JSONValue>(cache: env.cache, key: key, staleBanner: banner) {
                    try await PostgRESTClient(transport: env.transport).rows(path: env.resource.path, query: env.resource.query)
                }
            }
        }
        let reference = await run(banner: true)
        XCTAssertTrue(reference.passed, "\(reference)")
        let noBanner = await run(banner: false)
        XCTAssertTrue(noBanner.violated("loader.stale-banner"), "\(noBanner)")
        let trusting = await run(banner: true, trustCache: true)
        XCTAssertTrue(trusting.violated("loader.stale-or-empty-fetches"), "\(trusting)")
    }

    /// The failure injected by the mock arrives through URLSession as a transport error.
    func testInjectedFaultReachesTheClientAsANetworkError() async throws {
        let backend = try Self.makeBackend()
        backend.inject(InjectedFault(pathPrefix: "/rest/v1/cities", kind: .networkError, remaining: 1))
        let transport = try URLSessionTransport(backend: backend, persona: "ana", timeout: try rules().timeout("timeout.rest")!)
        let client = PostgRESTClient(transport: transport)
        do {
            _ = try await client.rows(path: "/rest/v1/cities", query: "select=id")
            XCTFail("expected a network error")
        } catch let e as RESTError {
            guard case .network = e else { return XCTFail("\(e)") }
        }
        let rows = try await client.rows(path: "/rest/v1/cities", query: "select=id")
        XCTAssertEqual(rows.count, 55)
    }
}

/// A cache-then-network loader with one deliberate flaw (or none).
struct MutantLoader: CacheThenNetworkLoading {
    enum Flaw { case alwaysFetches, networkFirst, noWriteThrough, failureShowsError, failureWipesCache, silentWhenEmpty, emptyCountsAsFresh, ignoresStaleness }
    let env: LoaderSuite.Environment
    let flaw: Flaw?

    func load(onUpdate: @escaping @Sendable (LoaderSnapshot<JSONValue>) -> Void) async -> LoaderSnapshot<JSONValue> {
        let client = PostgRESTClient(transport: env.transport)
        let cached = await env.cache.load([JSONValue].self, for: env.key)
        let items = cached?.value ?? []
        if cached != nil && flaw != .networkFirst { onUpdate(LoaderSnapshot(items: items)) }
        let fresh = flaw == .ignoresStaleness ? true : !(cached?.isStale ?? true)
        let usable = flaw == .emptyCountsAsFresh ? cached != nil : !items.isEmpty
        if fresh && usable && flaw != .alwaysFetches { return LoaderSnapshot(items: items) }
        var state: LoaderSnapshot<JSONValue>
        do {
            let rows = try await client.rows(path: env.resource.path, query: env.resource.query)
            state = LoaderSnapshot(items: rows)
            if flaw != .noWriteThrough { try? await env.cache.save(rows, for: env.key) }
        } catch {
            if flaw == .failureWipesCache { await env.cache.remove(env.key) }
            if items.isEmpty {
                state = LoaderSnapshot(items: [], errorMessage: flaw == .silentWhenEmpty ? nil : "\(error)")
            } else {
                state = LoaderSnapshot(items: items, errorMessage: flaw == .failureShowsError ? "\(error)" : nil)
            }
        }
        onUpdate(state)
        return state
    }
}

final class ClientRulesOptimisticTests: GateTestCase {
    func rules() throws -> ClientRules { try XCTUnwrap(try ClientRules.load(app: "teleportme")) }

    func testReferenceServiceConforms() async throws {
        let rules = try rules()
        let report = await OptimisticSuite.run(rules, makeBackend: ClientRulesLoaderTests.makeBackend) { env in
            OptimisticListService(resource: env.resource, rules: rules.cache!, userID: env.userID, cache: env.cache, transport: env.transport, clock: env.clock)
        }
        XCTAssertTrue(report.passed, "\(report)")
        XCTAssertEqual(Set(report.checked), Set(rules.optimistic!.behaviours.map(\.id)))
    }

    func run(_ flaw: MutantSavedCities.Flaw?) async throws -> SuiteReport {
        try await OptimisticSuite.run(rules(), makeBackend: ClientRulesLoaderTests.makeBackend) { env in MutantSavedCities(env: env, flaw: flaw) }
    }

    func assertRejected(_ flaw: MutantSavedCities.Flaw, _ rule: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let report = try await run(flaw)
        XCTAssertTrue(report.violated(rule), "\(flaw) not rejected for \(rule): \(report)", file: file, line: line)
    }

    func testTheMutantBaseConforms() async throws {
        let report = try await run(nil)
        XCTAssertTrue(report.passed, "\(report)")
    }

    func testMissingRollbackIsRejected() async throws { try await assertRejected(.noRollback, "optimistic.rollback") }
    func testRollbackOfStateButNotCacheIsRejected() async throws { try await assertRejected(.rollbackSkipsCache, "optimistic.rollback") }
    func testServerRowAppendedBesideOptimisticIsRejected() async throws { try await assertRejected(.appendsServerRow, "optimistic.server-row-replaces") }
    func testOptimisticRowKeptIsRejected() async throws { try await assertRejected(.keepsOptimisticRow, "optimistic.server-row-replaces") }
    func testCacheWrittenOnlyAfterTheServerIsRejected() async throws { try await assertRejected(.cacheAfterNetwork, "optimistic.save-immediate") }
    func testWaitingForTheServerIsRejected() async throws {
        try await assertRejected(.pessimistic, "optimistic.save-immediate")
        try await assertRejected(.pessimistic, "optimistic.unsave-immediate")
    }
    func testUnsaveNeverSentIsRejected() async throws { try await assertRejected(.localOnlyUnsave, "optimistic.unsave-confirmed") }
}

/// A saved-cities service with one deliberate flaw (or none); rows are PostgREST's JSON.
actor MutantSavedCities: OptimisticSaveService {
    enum Flaw { case noRollback, rollbackSkipsCache, appendsServerRow, keepsOptimisticRow, cacheAfterNetwork, pessimistic, localOnlyUnsave }
    let env: OptimisticSuite.Environment
    let flaw: Flaw?
    var current: [JSONValue]?

    init(env: OptimisticSuite.Environment, flaw: Flaw?) {
        self.env = env
        self.flaw = flaw
    }

    var rows: [JSONValue] {
        get async {
            if current == nil { current = await env.cache.load([JSONValue].self, for: env.key)?.value ?? [] }
            return current!
        }
    }

    func city(_ row: JSONValue) -> String? { row["city_id"]?.stringValue }

    func publish(_ onUpdate: @Sendable ([JSONValue]) -> Void, cache: Bool = true) async {
        if cache { try? await env.cache.save(current!, for: env.key) }
        onUpdate(current!)
    }

    func save(_ itemID: String, onUpdate: @escaping @Sendable ([JSONValue]) -> Void) async {
        let before = await rows
        if flaw != .pessimistic {
            current!.append(["id": .null, "user_id": .string(env.userID), "city_id": .string(itemID)])
            await publish(onUpdate, cache: flaw != .cacheAfterNetwork)
        }
        do {
            let row = try await PostgRESTClient(transport: env.transport).insert(
                table: "saved_cities", row: ["user_id": .string(env.userID), "city_id": .string(itemID)])
            switch flaw {
            case .appendsServerRow: current!.append(row)
            case .keepsOptimisticRow: break
            case .pessimistic: current!.append(row)
            default: current = current!.map { city($0) == itemID ? row : $0 }
            }
            await publish(onUpdate)
        } catch {
            if flaw == .noRollback { return }
            current = before
            await publish(onUpdate, cache: flaw != .rollbackSkipsCache)
        }
    }

    func unsave(_ itemID: String, onUpdate: @escaping @Sendable ([JSONValue]) -> Void) async {
        let before = await rows
        if flaw != .pessimistic {
            current!.removeAll { city($0) == itemID }
            await publish(onUpdate)
        }
        if flaw == .localOnlyUnsave { return }
        do {
            try await PostgRESTClient(transport: env.transport).delete(table: "saved_cities", matching: [("user_id", env.userID), ("city_id", itemID)])
            if flaw == .pessimistic { current!.removeAll { city($0) == itemID }; await publish(onUpdate) }
        } catch {
            if flaw == .noRollback { return }
            current = before
            await publish(onUpdate, cache: flaw != .rollbackSkipsCache)
        }
    }
}
