import XCTest
import MockBinding
import MockSupabase
@testable import Shvil

/// The gate: AppError (§Error Handling Strategy) and its catalog in errors.json.
final class ShvilErrorCatalogTests: GateTestCase {
    func testCatalogCoversEveryErrorInEveryLanguage() throws {
        let catalog = try ErrorCatalog.load()
        XCTAssertEqual(catalog.languages, ["en", "he", "fr"], "§Localization: English, Hebrew, French")
        XCTAssertEqual(ShvilErrorCatalogConformance.violations(of: catalog), [])
        XCTAssertEqual(AppError(id: "networkError.offline"), .networkError(.offline))
        XCTAssertEqual(
            catalog.userMessage(.authenticationError(.sessionExpired), language: "de"),
            catalog.userMessage(.authenticationError(.sessionExpired), language: "en"), "unknown language falls back to English")
    }

    /// Mutants: a missing Hebrew message; a missing entry; a shrinking backoff.
    func testMutantCatalogsAreRejected() throws {
        var c = try ErrorCatalog.load()
        c.entries["locationError.permissionDenied"]?.messages["he"] = nil
        XCTAssertEqual(ShvilErrorCatalogConformance.violations(of: c), ["locationError.permissionDenied: no he message"])
        c = try ErrorCatalog.load()
        c.entries["dataCorruption.cacheCorrupted"] = nil
        XCTAssertEqual(ShvilErrorCatalogConformance.violations(of: c), ["dataCorruption.cacheCorrupted: no entry"])
        c = try ErrorCatalog.load()
        c.retry.multiplier = 0.5
        XCTAssertFalse(ShvilErrorCatalogConformance.violations(of: c).isEmpty)
    }

    func testBackoffFollowsTheRetryPolicy() throws {
        let c = try ErrorCatalog.load()
        let r = c.retry
        let expected = (1...r.maxRetries).map { min(r.initialDelay * pow(r.multiplier, Double($0 - 1)), r.maxDelay) }
        XCTAssertEqual(c.retrySchedule(.networkError(.timeout)), expected)
        XCTAssertEqual(c.retrySchedule(.authenticationError(.invalidCredentials)), [], "not retryable")
        XCTAssertNil(r.delay(beforeRetry: r.maxRetries + 1))
        var capped = r
        capped.maxRetries = 20
        XCTAssertEqual(capped.schedule.max(), r.maxDelay)
    }

    func testResponsesMapToAppErrors() throws {
        let c = try ErrorCatalog.load()
        func map(_ status: Int, _ body: String) -> AppError? { c.error(status: status, body: Data(body.utf8), expecting: JSONValue.self) }
        XCTAssertEqual(map(401, #"{"code":"PGRST301","details":null,"hint":null,"message":"JWT expired"}"#), .authenticationError(.sessionExpired))
        XCTAssertEqual(
            map(400, #"{"code":400,"error_code":"invalid_credentials","msg":"Invalid login credentials"}"#), .authenticationError(.invalidCredentials))
        XCTAssertEqual(map(400, #"{"error":"invalid_grant","error_description":"Invalid login credentials"}"#), .authenticationError(.invalidCredentials))
        XCTAssertEqual(map(503, ""), .networkError(.server))
        XCTAssertEqual(map(429, "{}"), .networkError(.rateLimited))
        XCTAssertNil(map(200, "[]"))
        XCTAssertNil(map(400, #"{"code":"23505","message":"duplicate"}"#), "a constraint error is the caller's to handle")
        XCTAssertEqual(c.error(status: 200, body: Data(#"[{"id":1}]"#.utf8), expecting: [Adventure].self), .dataCorruption(.decodingFailed))
        XCTAssertEqual(c.error(for: .offline), .networkError(.offline))
    }

    func testBadCatalogNamesFileAndPath() throws {
        var j = try JSONValue.parse(Data(contentsOf: ContractsLocator.app("shvil").appendingPathComponent("errors.json")))
        guard case .object(var o) = j, case .object(var m) = o["mapping"]! else { return XCTFail() }
        m["undecodableBody"] = "dataCorruption.gone"
        o["mapping"] = .object(m)
        j = .object(o)
        XCTAssertThrowsError(try SpecNode(value: j, file: "Contracts/shvil/errors.json").decode(ErrorCatalog.self)) { e in
            XCTAssertEqual("\(e)", "Contracts/shvil/errors.json: $.mapping.undecodableBody: 'dataCorruption.gone' is not an AppError (category.kind)")
        }
    }
}
