import XCTest
import MockBinding
@testable import MockSupabase

/// A TeleportMe backend on a manual clock, driven over the wire.
final class WireFixture {
    let clock = ManualClock()
    let backend: MockSupabase
    let wire: WireClient
    let ana = "a11ce000-0000-4000-8000-000000000001"
    let ben = "b0b00000-0000-4000-8000-000000000002"

    init() throws {
        backend = try MockSupabase(contracts: ContractsLocator.app("teleportme"), clock: clock, ids: SeededIDGenerator(seed: 42))
        wire = WireClient(backend)
    }

    @discardableResult
    func send(
        _ method: String, _ path: String, _ query: String? = nil, headers: HTTPHeaders = [:], json: JSONValue? = nil, raw: String? = nil,
        as actor: String? = "ana"
    ) throws -> HTTPResponse {
        let body = json.map { $0.data() } ?? raw.map { Data($0.utf8) }
        return try wire.send(method: method, path: path, query: query, headers: headers, body: body, as: actor)
    }
}

extension HTTPResponse {
    /// The body as JSON, failing the test when it is not JSON.
    func json(file: StaticString = #filePath, line: UInt = #line) -> JSONValue {
        guard let j = jsonBody else { XCTFail("body is not JSON: \(text)", file: file, line: line); return .null }
        return j
    }

    /// Asserts a PostgREST error: status, code and message (and details/hint when given).
    func assertPostgrestError(
        _ status: Int, _ code: String, _ message: String? = nil, details: String?? = .none, hint: String?? = .none,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(self.status, status, "status; body: \(text)", file: file, line: line)
        XCTAssertEqual(headers["Content-Type"], "application/json; charset=utf-8", file: file, line: line)
        let j = json(file: file, line: line)
        XCTAssertEqual(Set(j.objectValue?.keys.map { $0 } ?? []), ["code", "message", "details", "hint"], "error shape", file: file, line: line)
        XCTAssertEqual(j["code"], .string(code), "code; body: \(text)", file: file, line: line)
        if let message { XCTAssertEqual(j["message"], .string(message), file: file, line: line) }
        if case .some(let d) = details { XCTAssertEqual(j["details"], d.map(JSONValue.string) ?? .null, file: file, line: line) }
        if case .some(let h) = hint { XCTAssertEqual(j["hint"], h.map(JSONValue.string) ?? .null, file: file, line: line) }
    }
}
