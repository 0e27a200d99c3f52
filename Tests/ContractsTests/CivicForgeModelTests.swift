import XCTest
import ContractKit
import MockSupabase
@testable import CivicForge

/// JSON equality where numbers compare by value (1 == 1.0), as PostgreSQL's json printing and
/// Foundation's encoder may differ only there.
func civicShvilJSONEquivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.object(let x), .object(let y)):
        return x.count == y.count && x.allSatisfy { k, v in y[k].map { civicShvilJSONEquivalent(v, $0) } ?? false }
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy(civicShvilJSONEquivalent)
    default:
        if let p = a.doubleValue, let q = b.doubleValue { return p == q }
        return a == b
    }
}

/// Decodes each row with `T`, re-encodes it and compares; returns the differences.
func civicShvilRoundTrip<T: Codable>(_ type: T.Type, _ rows: [[String: JSONValue]], decode: (JSONValue) throws -> T, encode: (T) throws -> JSONValue) -> [String] {
    var out: [String] = []
    for row in rows {
        do {
            let back = try encode(try decode(.object(row)))
            if !civicShvilJSONEquivalent(back, .object(row)) {
                out.append("\(T.self): \(JSONValue.object(row).serialized()) came back as \(back.serialized())")
            }
        } catch { out.append("\(T.self): \(JSONValue.object(row).serialized()): \(error)") }
    }
    return out
}

/// The gate: the Codable models match schema.json exactly and read and write rows as
/// PostgREST prints them.
final class CivicForgeModelTests: XCTestCase {
    func testEveryTableHasExactlyOneModelWithItsColumns() throws {
        let schema = try CivicForgeApp.spec().schema
        let tables = schema.tables.filter { $0.schema == "public" }
        var byTable: [String: [String]] = [:]
        for m in CivicForgeModels.rows {
            XCTAssertNil(byTable[m.table], "two models for \(m.table)")
            byTable[m.table] = m.columns
        }
        XCTAssertEqual(Set(byTable.keys), Set(tables.map(\.name)))
        for t in tables {
            XCTAssertEqual(byTable[t.name], t.columns.map(\.name), "columns of \(t.name)")
        }
    }

    func testFixtureRowsRoundTripThroughTheModels() throws {
        let backend = try CivicForgeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 3))
        func check<T: CivicForgeRow>(_ type: T.Type) throws -> [String] {
            var rows = try backend.database.rows(T.table)
            XCTAssertFalse(rows.isEmpty, "no fixture rows for \(T.table)")
            // Fractional seconds as PostgreSQL prints them (trailing zeros dropped).
            if var r = rows.first, let k = r.keys.sorted().first(where: { r[$0]?.stringValue?.hasSuffix("+00:00") == true }) {
                r[k] = "2025-12-31T23:59:59.12345+00:00"
                rows.append(r)
            }
            return civicShvilRoundTrip(T.self, rows, decode: { try CivicForgeCoding.decode(T.self, from: $0) }, encode: { try CivicForgeCoding.encode($0) })
        }
        var problems: [String] = []
        for m in CivicForgeModels.rows { problems += try check(m) }
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
    }

    /// Mutant: a model that drops a column is caught by the coverage check's comparison.
    func testMutantModelMissingAColumnIsCaught() throws {
        let schema = try CivicForgeApp.spec().schema
        let columns = Array(Post.columns.dropLast())
        XCTAssertNotEqual(columns, schema.table("posts")!.columns.map(\.name))
        // And a model that omits nulls does not round-trip a row with a NULL.
        struct LossyPhoto: Codable { var id: String; var reason: String? }
        let problems = civicShvilRoundTrip(LossyPhoto.self, [["id": "x", "reason": .null]], decode: { try CivicForgeCoding.decode(LossyPhoto.self, from: $0) }, encode: { try CivicForgeCoding.encode($0) })
        XCTAssertEqual(problems.count, 1)
    }

    func testTimestampsKeepMicroseconds() throws {
        let row: JSONValue = ["id": "c5000000-0000-4000-8000-000000000009", "post_id": "p", "from_user_id": "a", "to_user_id": "b", "message": .null,
                              "created_at": "2026-01-01T00:00:00.000001+00:00"]
        let t = try CivicForgeCoding.decode(Thanks.self, from: row)
        XCTAssertEqual(try CivicForgeCoding.encode(t)["created_at"], "2026-01-01T00:00:00.000001+00:00")
        // PostgreSQL's space-separated text form and Z are read too.
        let spaced = try CivicForgeCoding.decode(Thanks.self, from: ["id": "x", "post_id": "p", "from_user_id": "a", "to_user_id": "b", "created_at": "2026-01-01 00:00:00+00"])
        XCTAssertEqual(spaced.createdAt, t.createdAt.addingTimeInterval(-0.000001))
    }

    func testPayloadsEncodeOnlyWhatTheClientSets() throws {
        let p = try CivicForgeCoding.encode(NewPost(type: .need, title: "t", description: "d", category: "c"))
        XCTAssertEqual(p, ["type": "need", "title": "t", "description": "d", "category": "c"])
        let r = try CivicForgeCoding.encode(RedeemInvitationRequest(inviteCode: "A1B2C3D4"))
        XCTAssertEqual(r, ["invite_code": "A1B2C3D4"])
        XCTAssertEqual(try CivicForgeCoding.encode(OTPRequest(email: "a@b.c")), ["email": "a@b.c", "create_user": true])
    }
}
