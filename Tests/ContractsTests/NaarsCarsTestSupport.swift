import XCTest
import MockBinding
import NaarsCars

/// A Naar's Cars backend with the FR-021 seed on the reference clock (2026-01-01T00:00:00Z),
/// driven over the wire (URLSession through the URLProtocol transport).
final class NaarsCarsFixture {
    let clock: ManualClock
    let apns: FakeAPNs
    let backend: MockSupabase
    let wire: WireClient
    let spec: AppSpec
    let contracts: NaarsCarsContracts

    /// The app's backend with its server pieces and a fresh fake APNs.
    convenience init(apns: FakeAPNs = FakeAPNs()) throws {
        let clock = ManualClock()
        try self.init(backend: NaarsCarsApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 0x5EED_0001), apns: apns), clock: clock, apns: apns)
    }

    /// A fixture around a given backend (for mutants).
    init(backend: MockSupabase, clock: ManualClock, apns: FakeAPNs = FakeAPNs()) throws {
        self.clock = clock
        self.apns = apns
        self.backend = backend
        wire = WireClient(backend)
        spec = backend.configuration.spec
        contracts = try NaarsCarsContracts.load()
    }

    /// A persona's user id.
    func id(_ persona: String) -> String { spec.fixtures.persona(persona)!.id }

    /// The fixture row id of a table at an index (fixtures.json order).
    func fixtureID(_ table: String, _ index: Int) -> String { spec.fixtures.rows(table)[index]["id"]!.stringValue! }

    /// Sends a request as an actor (persona, `anon`, `service_role`).
    @discardableResult
    func send(
        _ method: String, _ path: String, _ query: String? = nil, json: JSONValue? = nil, headers: HTTPHeaders = [:],
        as actor: String
    ) throws -> HTTPResponse {
        try wire.send(method: method, path: path, query: query, headers: headers, body: json.map { $0.data() }, as: actor)
    }

    /// GET /rest/v1/<table>.
    func get(_ table: String, _ query: String = "select=*", as actor: String) throws -> HTTPResponse {
        try send("GET", "/rest/v1/\(table)", query, as: actor)
    }

    /// PATCH /rest/v1/<table> with return=representation.
    func patch(_ table: String, _ query: String, _ json: JSONValue, as actor: String) throws -> HTTPResponse {
        try send("PATCH", "/rest/v1/\(table)", query + "&select=*", json: json, headers: ["Prefer": "return=representation"], as: actor)
    }

    /// POST /rest/v1/<table> with return=representation.
    func post(_ table: String, _ json: JSONValue, as actor: String) throws -> HTTPResponse {
        try send("POST", "/rest/v1/\(table)", "select=*", json: json, headers: ["Prefer": "return=representation"], as: actor)
    }

    /// POST /rest/v1/rpc/<name>.
    func rpc(_ name: String, _ args: JSONValue = [:], as actor: String) throws -> HTTPResponse {
        try send("POST", "/rest/v1/rpc/\(name)", json: args, as: actor)
    }

    /// POST /functions/v1/<name>.
    func function(_ name: String, _ args: JSONValue, as actor: String) throws -> HTTPResponse {
        try send("POST", "/functions/v1/\(name)", json: args, as: actor)
    }

    /// Rows of a table, ignoring RLS.
    func rows(_ table: String, where filter: RowFilter? = nil) throws -> [[String: JSONValue]] {
        try backend.database.rows(table, where: filter)
    }

    /// One row by id, ignoring RLS.
    func row(_ table: String, _ id: String) throws -> [String: JSONValue]? {
        try backend.database.rows(table, where: .eq("id", id)).first
    }
}

extension HTTPResponse {
    /// The body as JSON (`.null` and a failure when it is not JSON).
    func json(file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
        guard let j = jsonBody else { XCTFail("body is not JSON: \(text)", file: file, line: line); return .null }
        return j
    }

    /// The body as an array of objects.
    func rows(file: StaticString = #filePath, line: UInt = #line) -> [[String: JSONValue]] {
        (json(file: file, line: line).arrayValue ?? []).compactMap(\.objectValue)
    }

    /// Asserts PostgREST's error shape with a status, code and message.
    func assertError(_ status: Int, _ code: String, _ message: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(self.status, status, "status; body: \(text)", file: file, line: line)
        let j = json(file: file, line: line)
        XCTAssertEqual(Set(j.objectValue?.keys.map { $0 } ?? []), ["code", "message", "details", "hint"], "error shape: \(text)", file: file, line: line)
        XCTAssertEqual(j["code"], .string(code), "code; body: \(text)", file: file, line: line)
        if let message { XCTAssertEqual(j["message"], .string(message), file: file, line: line) }
    }
}

/// The message of a rules.json error with placeholders filled.
func naarsRuleMessage(_ key: String, _ values: [String: String] = [:]) throws -> String {
    try NaarsCarsContracts.load().rules.error(key, values).message
}
