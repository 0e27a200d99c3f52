import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// CivicForge's models beyond the generic `models` kind (ModelContractsTests): timestamps with
/// fractional seconds and PostgreSQL's other spellings, payloads that send only what is set.
final class CivicForgeModelTests: GateTestCase {
    /// Every model round-trips a row whose timestamp has fractional seconds, as PostgreSQL prints
    /// them (trailing zeros dropped); a model that omits NULLs does not round-trip.
    func testRowsWithFractionalSecondsRoundTrip() throws {
        let backend = try CivicForgeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 3))
        let registry = ModelSuite.registry(for: CivicForgeApp.self)
        var checked = 0
        func check<T: TableModel>(_ type: T.Type) throws -> [String] {
            let rows = try backend.database.rows(T.table)
            guard var r = rows.first,
                let k = r.keys.sorted().first(where: { r[$0]?.stringValue?.hasSuffix("+00:00") == true })
            else { return [] }
            r[k] = "2025-12-31T23:59:59.12345+00:00"
            checked += 1
            return registry.check(T.self, .object(r), path: "\(T.table)[0]")
        }
        var problems: [String] = []
        for m in CivicForgeApp.tableModels { problems += try check(m) }
        XCTAssertEqual(problems, [], problems.joined(separator: "\n"))
        XCTAssertEqual(checked, CivicForgeApp.tableModels.count, "every table has a timestamp column")

        struct LossyPhoto: Codable { var id: String; var reason: String? }
        XCTAssertEqual(registry.check(LossyPhoto.self, ["id": "x", "reason": nil]), ["LossyPhoto round trip: $.reason: missing (expected null)"])
    }

    func testTimestampsKeepMicroseconds() throws {
        let row: JSONValue = [
            "id": "c5000000-0000-4000-8000-000000000009", "post_id": "p", "from_user_id": "a", "to_user_id": "b", "message": .null,
            "created_at": "2026-01-01T00:00:00.000001+00:00"
        ]
        let t = try PostgresRowCoding.decode(Thanks.self, from: row)
        XCTAssertEqual(try PostgresRowCoding.encode(t)["created_at"], "2026-01-01T00:00:00.000001+00:00")
        // PostgreSQL's space-separated text form and Z are read too.
        let spaced = try PostgresRowCoding.decode(
            Thanks.self, from: ["id": "x", "post_id": "p", "from_user_id": "a", "to_user_id": "b", "created_at": "2026-01-01 00:00:00+00"])
        XCTAssertEqual(spaced.createdAt.date, t.createdAt.date.addingTimeInterval(-0.000001))
    }

    func testPayloadsEncodeOnlyWhatTheClientSets() throws {
        let p = try PostgresRowCoding.encode(NewPost(type: .need, title: "t", description: "d", category: "c"))
        XCTAssertEqual(p, ["type": "need", "title": "t", "description": "d", "category": "c"])
        let r = try PostgresRowCoding.encode(RedeemInvitationRequest(inviteCode: "A1B2C3D4"))
        XCTAssertEqual(r, ["invite_code": "A1B2C3D4"])
        XCTAssertEqual(try PostgresRowCoding.encode(OTPRequest(email: "a@b.c")), ["email": "a@b.c", "create_user": true])
    }
}
