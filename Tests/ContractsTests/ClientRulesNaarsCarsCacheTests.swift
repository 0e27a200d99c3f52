import XCTest
import MockBinding
import MockSupabase
import NaarsCars

/// The gate: Naar's Cars FR-043 ("Services MUST check cache before network requests") as the
/// loader suite over every FR-042 list, and FR-044 ("invalidated on: user mutation,
/// pull-to-refresh, logout") for every list, with mutants.
final class ClientRulesNaarsCarsCacheTests: GateTestCase {
    func rules() throws -> ClientRules { try XCTUnwrap(try ClientRules.load(app: "naarscars")) }

    static let makeBackend: @Sendable () throws -> MockSupabase = {
        try NaarsCarsApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 7))
    }

    func testEveryListIsLoadedCacheFirst() throws {
        let rules = try rules()
        let loader = try XCTUnwrap(rules.loader)
        XCTAssertEqual(Set(loader.resources.map(\.cacheKey)), Set(try XCTUnwrap(rules.cache).entries.map(\.key)))
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

    /// A service that asks the network first, or always, breaks FR-043.
    func testNetworkFirstServicesAreRejected() async throws {
        let rules = try rules()
        for (flaw, rule) in [
            (MutantLoader.Flaw.networkFirst, "loader.cache-first"), (.alwaysFetches, "loader.fresh-skips-network"),
            (.noWriteThrough, "loader.write-through")
        ] {
            let report = await LoaderSuite.run(rules, makeBackend: Self.makeBackend) { env in MutantLoader(env: env, flaw: flaw) }
            XCTAssertTrue(report.violated(rule), "\(flaw) not rejected for \(rule): \(report)")
            for list in ["rides", "favors", "conversations", "leaderboard_stats", "profiles"] where rule != "loader.cache-first" {
                XCTAssertTrue(report.violations(of: rule).contains { $0.message.contains("/rest/v1/\(list)") }, "\(flaw) on \(list): \(report)")
            }
        }
    }

    /// FR-044 for every list: the file states a mutation, a pull-to-refresh and a logout event
    /// clearing each entry; leaving one out is a load error naming the entry.
    func testEveryListIsInvalidatedOnEveryDocumentedEvent() throws {
        let cache = try XCTUnwrap(try rules().cache)
        XCTAssertEqual(cache.invalidatedOn, ["mutation", "pullToRefresh", "logout"])
        for e in cache.entries {
            for kind in cache.invalidatedOn {
                XCTAssertTrue(
                    cache.invalidation.contains { r in
                        guard r.event == kind || r.event.hasPrefix(kind + ":") else { return false }
                        if case .keys(let ks) = r.clears { return ks.contains(e.key) }
                        return true
                    }, "\(e.key) not invalidated on \(kind)")
            }
        }
        let url = ContractsLocator.app("naarscars").appendingPathComponent("client-rules.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let changed = text.replacingOccurrences(
            of: #""event": "pullToRefresh:favors", "clears": ["favors"]"#, with: #""event": "pullToRefresh:favors", "clears": ["rides"]"#)
        XCTAssertNotEqual(changed, text)
        XCTAssertThrowsError(try SpecNode(value: try JSONValue.parse(Data(changed.utf8)), file: "client-rules.json").decode(ClientRules.self)) { error in
            XCTAssertEqual(
                "\(error)",
                "client-rules.json: $.cache.invalidatedOn: no 'pullToRefresh' invalidation clears 'favors' (every entry is invalidated on mutation, pullToRefresh, logout)"
            )
        }
    }

    /// An invalidator that refreshes only the rides list (the one the rules used to name) leaves
    /// stale favors, conversations, leaderboard and profiles: each list's rule fails.
    func testRidesOnlyPullToRefreshIsRejected() async throws {
        let cache = try XCTUnwrap(try rules().cache)
        let report = await CacheStoreSuite.run(
            cache,
            invalidate: { rule, user, store in
                guard !rule.event.hasPrefix("pullToRefresh:") || rule.event == "pullToRefresh:rides" else { return }
                await CacheInvalidator(rules: cache).apply(rule, userID: user, on: store)
            }, make: ClientRulesReference.cacheFactory(cache))
        for id in [
            "cache.invalidate.pullToRefreshFavors", "cache.invalidate.pullToRefreshConversations",
            "cache.invalidate.pullToRefreshLeaderboard", "cache.invalidate.pullToRefreshProfiles"
        ] {
            XCTAssertTrue(report.violated(id), "\(id): \(report)")
        }
        XCTAssertFalse(report.violated("cache.invalidate.pullToRefresh"), "\(report)")
        let reference = await CacheStoreSuite.run(cache, make: ClientRulesReference.cacheFactory(cache))
        XCTAssertTrue(reference.passed, "\(reference)")
    }
}
