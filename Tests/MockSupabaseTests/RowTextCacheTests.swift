import XCTest
@testable import MockSupabase

/// Printed rows kept by `RowTextCache` answer exactly what printing afresh answers: a changed
/// row prints again, another plan or another session time zone never takes a kept text, and a
/// full cache is emptied.
final class RowTextCacheTests: XCTestCase {
    static let schemaJSON = #"""
        {"tables": [
          {"name": "events", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "title", "type": "text"},
            {"name": "at", "type": "timestamptz"}]}]}
        """#

    private func backend() throws -> MockSupabase {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(Self.schemaJSON), file: "inline"))
        let spec = AppSpec(
            app: "rowtexts", folder: URL(fileURLWithPath: "/nonexistent"), schema: schema,
            policies: PolicySet(definitions: [:], definitionDocs: [:], tables: []), fixtures: .empty)
        return try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 3)))
    }

    private func send(_ b: MockSupabase, _ method: String, _ target: String, prefer: String? = nil, body: String? = nil) throws -> HTTPResponse {
        var h: HTTPHeaders = ["apikey": b.serviceRoleKey, "Authorization": "Bearer \(b.serviceRoleKey)"]
        if let prefer { h["Prefer"] = prefer }
        if body != nil { h["Content-Type"] = "application/json" }
        return try b.handle(HTTPRequest(method: method, target: "/rest/v1/" + target, headers: h, body: Data((body ?? "").utf8)))
    }

    /// What a read answers, from the cache and (`fresh`) from a backend that never read before.
    func testKeptTextsEqualFreshOnesThroughChanges() throws {
        let b = try backend()
        let rows = #"[{"id":1,"title":"a","at":"2026-01-01T10:00:00+00:00"},{"id":2,"title":"b \"q\"","at":"2026-01-02T10:00:00+00:00"}]"#
        XCTAssertEqual(try send(b, "POST", "events", body: rows).status, 201)
        let read = "events?select=id,title,at&order=id"
        let first = try send(b, "GET", read).text
        XCTAssertEqual(
            first, #"[{"id":1,"title":"a","at":"2026-01-01T10:00:00+00:00"}, "# + "\n " + #"{"id":2,"title":"b \"q\"","at":"2026-01-02T10:00:00+00:00"}]"#)
        XCTAssertEqual(try send(b, "GET", read).text, first, "a repeated read")
        XCTAssertEqual(try send(b, "GET", read).text, first, "a read from the kept texts")
        // A changed row prints again; the unchanged one keeps its text.
        XCTAssertEqual(try send(b, "PATCH", "events?id=eq.2", body: #"{"title":"c"}"#).status, 204)
        let changed = try send(b, "GET", read).text
        XCTAssertEqual(
            changed, #"[{"id":1,"title":"a","at":"2026-01-01T10:00:00+00:00"}, "# + "\n " + #"{"id":2,"title":"c","at":"2026-01-02T10:00:00+00:00"}]"#)
        // Another session zone prints its own texts (the kept ones are UTC's).
        let kolkata = try send(b, "GET", read, prefer: "timezone=Asia/Kolkata").text
        XCTAssertTrue(kolkata.contains("2026-01-01T15:30:00+05:30"), kolkata)
        XCTAssertEqual(try send(b, "GET", read).text, changed)
        // Another plan over the same rows never takes this plan's texts.
        XCTAssertEqual(try send(b, "GET", "events?select=title&order=id").text, #"[{"title":"a"}, "# + "\n " + #"{"title":"c"}]"#)
        // A deleted and re-inserted row with other values.
        XCTAssertEqual(try send(b, "DELETE", "events?id=eq.1").status, 204)
        XCTAssertEqual(try send(b, "POST", "events", body: #"{"id":1,"title":"new","at":"2026-03-01T00:00:00+00:00"}"#).status, 201)
        XCTAssertEqual(
            try send(b, "GET", read).text,
            #"[{"id":1,"title":"new","at":"2026-03-01T00:00:00+00:00"}, "# + "\n " + #"{"id":2,"title":"c","at":"2026-01-02T10:00:00+00:00"}]"#)
    }

    /// The failures of a row-text cache (`texts(rows, plan, print)`) against printing afresh:
    /// a changed copy of a row, another plan and a new row must each be printed.
    static func failures(_ texts: ([[SQLValue]], RowTextCache.Plan, ([SQLValue]) -> String) -> [String]) -> [String] {
        var out: [String] = []
        let plan = RowTextCache.Plan()
        func expect(_ rows: [[SQLValue]], _ p: RowTextCache.Plan, _ what: String) {
            let got = texts(rows, p) { "\($0)" }
            if got != rows.map({ "\($0)" }) { out.append("\(what): \(got)") }
        }
        let row: [SQLValue] = [.int(1), .text("a")]
        expect([row], plan, "first read")
        expect([row], plan, "repeated read")
        var changed = row
        changed[1] = .text("b")
        expect([changed], plan, "a changed copy")
        expect([[.int(2), .text("z")], row], plan, "a new row before a kept one")
        expect([row], RowTextCache.Plan(), "another plan")
        return out
    }

    /// The cache itself: a kept text is served without printing; a row whose storage differs is
    /// printed; a full cache is emptied. A cache keyed by the row's position is rejected.
    func testIdentityIsTheRowsStorage() {
        let cache = RowTextCache(capacity: 3)
        XCTAssertEqual(Self.failures { cache.texts($0, plan: $1, print: $2) }, [])
        var printed = 0
        let row: [SQLValue] = [.int(7)]
        let plan = RowTextCache.Plan()
        for _ in 0..<3 {
            _ = cache.texts([row], plan: plan) {
                printed += 1; return "\($0)"
            }
        }
        XCTAssertEqual(printed, 1, "repeated reads take the kept text")
        for i in 0..<5 { _ = cache.texts([[.int(Int64(i))]], plan: plan) { "\($0)" } }
        XCTAssertEqual(cache.texts([row], plan: plan) { _ in "again" }, ["again"], "emptied when full: printed again")
        // Mutant: kept by position in the read (per plan), not by the row's storage.
        var byPosition: [Int: String] = [:]
        let mutant = Self.failures { rows, _, print in
            rows.indices.map { n in
                if let t = byPosition[n] { return t }
                let t = print(rows[n])
                byPosition[n] = t
                return t
            }
        }
        XCTAssertFalse(mutant.isEmpty)
    }
}
