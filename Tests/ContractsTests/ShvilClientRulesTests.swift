import XCTest
import MockBinding
import MockSupabase
@testable import Shvil

/// The gate: Shvil's session refresh (§Data Protection), error handling at its boundaries
/// (§Error Boundaries), future device clocks (§Data Synchronization) and analytics per environment
/// (§Environment Variables, §Privacy Compliance), each suite shown rejecting a mutant.
final class ShvilClientRulesTests: GateTestCase {
    func testReferenceImplementationsConform() throws {
        let catalog = try ErrorCatalog.load()
        XCTAssertEqual(catalog.session.refreshOnStatus, 401)
        XCTAssertEqual(catalog.session.onFailure, .authenticationError(.sessionExpired))
        XCTAssertEqual(
            ShvilTokenRefreshConformance.violations(rule: catalog.session) { RefreshingExecutor(rule: $0, apiKey: $1, tokens: $2, transport: $3) }, [])
        XCTAssertEqual(ShvilErrorHandlingConformance.violations(of: CatalogErrorHandler(catalog: catalog), catalog: catalog), [])
        XCTAssertEqual(
            ShvilErrorHandlingConformance.mappingViolations(of: { catalog.error(status: $0, body: $1, expecting: JSONValue.self) }, catalog: catalog), [])
        let analytics = try AnalyticsPolicy.load()
        XCTAssertEqual(ShvilAnalyticsConformance.violations(of: analytics.shouldSend, policy: analytics), [])
        XCTAssertFalse(analytics.shouldSend(in: .production, consent: nil), "opt-in: never asked is no")
    }

    // MARK: token refresh

    /// An executor that treats the first 401 as the end of the session (sign-in before refresh).
    final class NoRefresh: SessionRequestExecutor {
        let inner: RefreshingExecutor
        init(_ inner: RefreshingExecutor) { self.inner = inner }
        var tokens: SessionTokens? { inner.tokens }
        func send(_ request: HTTPRequest) throws -> HTTPResponse {
            let res = try inner.transport(inner.authorized(request, inner.tokens?.accessToken ?? ""))
            if res.status == 401 { throw AppError.authenticationError(.sessionExpired) }
            return res
        }
    }

    func testRefreshSuiteRejectsMutants() throws {
        let rule = try ErrorCatalog.load().session
        let none = ShvilTokenRefreshConformance.violations(rule: rule) { NoRefresh(RefreshingExecutor(rule: $0, apiKey: $1, tokens: $2, transport: $3)) }
        XCTAssertTrue(none.contains { $0.hasPrefix("expired access token: 0 refreshes, expected exactly 1") }, "\(none)")
        // Refreshing forever: the suite's transport stops it and names the loop.
        var looping = rule
        looping.maxRefreshesPerRequest = 50
        let loop = ShvilTokenRefreshConformance.violations(rule: rule) { _, key, tokens, transport in
            RefreshingExecutor(rule: looping, apiKey: key, tokens: tokens, transport: transport)
        }
        XCTAssertTrue(loop.contains { $0.hasPrefix("retry refused again:") && $0.contains("refreshes, expected 1") }, "\(loop)")
        // An executor that refreshes but reports the tokens it started with.
        final class StaleTokens: SessionRequestExecutor {
            let inner: RefreshingExecutor, first: SessionTokens?
            init(_ inner: RefreshingExecutor) { self.inner = inner; first = inner.tokens }
            var tokens: SessionTokens? { first }
            func send(_ request: HTTPRequest) throws -> HTTPResponse { try inner.send(request) }
        }
        let stale = ShvilTokenRefreshConformance.violations(rule: rule) { StaleTokens(RefreshingExecutor(rule: $0, apiKey: $1, tokens: $2, transport: $3)) }
        XCTAssertTrue(stale.contains("expired access token: the rotated refresh token GoTrue returned is not the one held"), "\(stale)")
    }

    // MARK: error handling and mapping

    /// Retries every error, even a wrong password.
    struct RetriesEverything: AppErrorHandler {
        var base: CatalogErrorHandler
        func run(_ attempt: () throws -> Void, sleep: (Double) -> Void) -> HandledError? {
            var last: AppError?
            for n in 0...base.catalog.retry.maxRetries {
                do { try attempt(); return nil } catch { last = error as? AppError }
                if let d = base.catalog.retry.delay(beforeRetry: n + 1) { sleep(d) }
            }
            return last.map { HandledError(error: $0, boundary: base.catalog.entries[$0.id]!.boundary, recovery: base.catalog.recovery($0)) }
        }
    }

    func testErrorHandlingSuiteRejectsMutants() throws {
        let catalog = try ErrorCatalog.load()
        let all = ShvilErrorHandlingConformance.violations(of: RetriesEverything(base: CatalogErrorHandler(catalog: catalog)), catalog: catalog)
        XCTAssertTrue(all.contains("authenticationError.invalidCredentials: \(1 + catalog.retry.maxRetries) attempts, expected 1 (not retryable)"), "\(all)")
        XCTAssertTrue(
            all.contains { $0.hasPrefix("networkError.offline: ended as networkError.offline at service (retry)") },
            "the service boundary offers no action: \(all)")
        var oneShort = catalog
        oneShort.retry.maxRetries -= 1
        let short = ShvilErrorHandlingConformance.violations(of: CatalogErrorHandler(catalog: oneShort), catalog: catalog)
        XCTAssertTrue(short.contains { $0.hasPrefix("networkError.server: an operation succeeding on attempt \(1 + catalog.retry.maxRetries)") }, "\(short)")

        // Mapping: 5xx read as "from 500" (no upper bound), and 401 needing a body code.
        let open = ShvilErrorHandlingConformance.mappingViolations(
            of: { s, b in s >= 500 ? .networkError(.server) : catalog.error(status: s, body: b, expecting: JSONValue.self) }, catalog: catalog)
        XCTAssertEqual(open, ["status 600: networkError.server, expected no error"])
        var mutant = catalog
        mutant.rules[0].bodyCodes = ["PGRST301"]
        let strict = ShvilErrorHandlingConformance.mappingViolations(of: { mutant.error(status: $0, body: $1, expecting: JSONValue.self) }, catalog: catalog)
        XCTAssertTrue(strict.contains("status 401: no error, expected authenticationError.sessionExpired"), "\(strict)")
    }

    // MARK: future device clocks

    func testFutureTimestampsAreClampedAndMutantServerRejected() throws {
        let rules = try SyncRules.load()
        XCTAssertEqual(rules.futurePolicy, "clampToServerNow")
        func run(_ b: MockSupabase, _ clock: ManualClock) throws -> [String] {
            let noa = try XCTUnwrap(b.configuration.spec.fixtures.persona("noa"))
            return ShvilClockSkewConformance.violations(
                rules: rules, send: { try b.handle($0) }, apiKey: b.anonKey,
                token: b.accessToken(for: noa.id, email: noa.email),
                adventureID: "5a000000-0000-4000-8000-000000000001", now: clock.now())
        }
        let clock = ManualClock(InteractionReplay.defaultStartTime)
        XCTAssertEqual(try run(try ShvilApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 3)), clock), [])
        // Mutant: the server without the clamp triggers keeps a fast clock's stamp.
        let bare = try MockSupabase(contracts: ContractsLocator.app(ShvilApp.name), clock: clock, ids: SeededIDGenerator(seed: 3))
        let v = try run(bare, clock)
        XCTAssertTrue(v.contains { $0.hasPrefix("update stamped a day ahead stored") }, "\(v)")
        XCTAssertTrue(v.contains("an honest edit one second later loses to the fast clock's write"), "\(v)")
        XCTAssertTrue(v.contains { $0.hasPrefix("insert stamped a day ahead") }, "\(v)")
        // The triggers sync.json names are the ones schema.json declares (compared with pg_trigger by the PostgreSQL gate).
        let declared = Set(try AppSpec.load(folder: ContractsLocator.app("shvil")).schema.triggers?.map(\.name) ?? [])
        XCTAssertTrue(Set(rules.clampTriggers).isSubset(of: declared), "\(rules.clampTriggers) vs \(declared)")
    }

    // MARK: analytics

    func testAnalyticsSuiteRejectsMutants() throws {
        let p = try AnalyticsPolicy.load()
        let noConsent = ShvilAnalyticsConformance.violations(of: { e, _ in p.enabled[e] ?? false }, policy: p)
        XCTAssertTrue(noConsent.contains("production, consent never asked: sends, expected nothing"), "\(noConsent)")
        let everywhere = ShvilAnalyticsConformance.violations(of: { _, c in c == true }, policy: p)
        XCTAssertEqual(everywhere, ["development, consent true: sends, expected nothing"])
        var optOut = p
        optOut.requiresConsent = false
        XCTAssertTrue(ShvilAnalyticsConformance.violations(of: optOut.shouldSend, policy: optOut).first?.contains("opt-in") == true)
    }
}
