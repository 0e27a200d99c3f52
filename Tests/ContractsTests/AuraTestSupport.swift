import Foundation
import XCTest
import MockBinding
import MockSupabase
@testable import Aura

/// Shared helpers of the Aura gate suites.
enum AuraTestSupport {
    static func rules() throws -> AuraRules { try AuraRules.load() }

    /// A backend with Aura's pieces registered, on a manual clock at 2026-01-01T00:00:00Z.
    static func backend(clock: ManualClock = ManualClock(), seed: UInt64 = 0) throws -> MockSupabase {
        let b = try MockSupabase(contracts: ContractsLocator.app(AuraApp.name), clock: clock, ids: SeededIDGenerator(seed: 7))
        AuraApp.register(on: b, seed: seed)
        return b
    }

    static func persona(_ b: MockSupabase, _ name: String) -> Persona {
        b.configuration.spec.fixtures.persona(name)!
    }

    /// The bearer token of an actor: a persona name, `anon`, `service_role`, or nil for none.
    static func token(_ b: MockSupabase, _ actor: String?) -> String? {
        switch actor {
        case nil: return nil
        case "anon": return b.anonKey
        case "service_role": return b.serviceRoleKey
        case let name?: return b.accessToken(persona: name)
        }
    }

    /// Sends a request the way supabase-swift does (apikey + bearer + JSON body) through `handle`.
    static func send(
        _ b: MockSupabase, _ method: String, _ target: String, as actor: String?, body: JSONValue? = nil,
        headers extra: [(String, String)] = []
    ) throws -> HTTPResponse {
        var h = HTTPHeaders()
        h.add("apikey", b.anonKey)
        if let t = token(b, actor) { h.add("Authorization", "Bearer \(t)") }
        if body != nil { h.add("Content-Type", "application/json") }
        for (k, v) in extra { h.add(k, v) }
        return try b.handle(HTTPRequest(method: method, target: target, headers: h, body: body?.data() ?? Data()))
    }

    static func assertNoViolations(_ v: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(v.isEmpty, "\(what):\n" + v.joined(separator: "\n"), file: file, line: line)
    }

    static func assertViolations(_ v: [String], _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(v.isEmpty, "mutant not rejected: \(what)", file: file, line: line)
    }
}
