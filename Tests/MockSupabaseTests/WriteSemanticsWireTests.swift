import XCTest
@testable import MockSupabase

/// Write responses as PostgREST's Response.hs and MainTx.hs shape them: singular media types
/// that undo the write, PUT's single-row upsert and its errors, Content-Range and
/// Preference-Applied on writes, and 416 ranges.
final class WriteSemanticsWireTests: XCTestCase {
    var f: RestSpecFixture!
    override func setUpWithError() throws { f = try RestSpecFixture() }
    let singular: HTTPHeaders = ["Accept": "application/vnd.pgrst.object+json"]

    func testSingularWritesOfSeveralRowsAnswer406AndWriteNothing() throws {
        var h = singular
        h["Prefer"] = "return=minimal"
        try f.send("POST", "users", headers: h, body: #"[{"id":10,"name":"X"},{"id":11,"name":"Y"}]"#)
            .assertPostgrestError(406, "PGRST116", "Cannot coerce the result to a single JSON object", details: "The result contains 2 rows")
        XCTAssertEqual(f.backend.database.count("users"), 3)
        try f.send("DELETE", "items?id=gt.0", headers: singular)
            .assertPostgrestError(406, "PGRST116", "Cannot coerce the result to a single JSON object", details: "The result contains 3 rows")
        XCTAssertEqual(f.backend.database.count("items"), 3)
        try f.send("PATCH", "tasks?id=gt.100", headers: singular, body: #"{"name":"n"}"#)
            .assertPostgrestError(406, "PGRST116", details: "The result contains 0 rows")
        h = singular
        h["Prefer"] = "return=representation"
        let one = try f.send("PATCH", "tasks?id=eq.5", headers: h, body: #"{"name":"Lift-off"}"#)
        XCTAssertEqual(one.status, 200)
        XCTAssertEqual(one.headers["Content-Type"], "application/vnd.pgrst.object+json; charset=utf-8")
        XCTAssertEqual(one.text, #"{"id":5,"name":"Lift-off","project_id":1}"#)
    }

    func testContentRangeAndPreferenceAppliedOnWrites() throws {
        let ins = try f.send("POST", "users", headers: ["Prefer": "count=exact, return=representation, missing=default"], body: #"{"id":12,"name":"Z"}"#)
        XCTAssertEqual(ins.status, 201)
        XCTAssertEqual(ins.headers["Content-Range"], "*/1")
        XCTAssertEqual(ins.headers["Preference-Applied"], "missing=default, return=representation, count=exact")
        let del = try f.send("DELETE", "users?id=eq.12", headers: ["Prefer": "return=minimal"])
        XCTAssertEqual(del.status, 204)
        XCTAssertEqual(del.headers["Content-Range"], "*/*")
        let upd = try f.send("PATCH", "tasks?id=lt.3", headers: ["Prefer": "count=exact"], body: #"{"name":"n"}"#)
        XCTAssertEqual(upd.headers["Content-Range"], "0-1/2")
        let none = try f.send("PATCH", "tasks?id=gt.99", headers: ["Prefer": "count=exact"], body: #"{"name":"n"}"#)
        XCTAssertEqual(none.headers["Content-Range"], "*/0")
    }

    func testUpsertThatOnlyUpdatesAnswers200() throws {
        let r = try f.send("POST", "users", headers: ["Prefer": "resolution=merge-duplicates,return=representation"], body: #"{"id":1,"name":"Ada L."}"#)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.headers["Preference-Applied"], "resolution=merge-duplicates, return=representation")
        XCTAssertEqual(r.text, #"[{"id":1,"name":"Ada L."}]"#)
        let n = try f.send(
            "POST", "users", headers: ["Prefer": "resolution=merge-duplicates,return=representation"], body: #"[{"id":1,"name":"Ada"},{"id":9,"name":"Ian"}]"#)
        XCTAssertEqual(n.status, 201)
    }

    func testPutSingleRowUpsert() throws {
        let h: HTTPHeaders = ["Prefer": "return=representation"]
        let created = try f.send("PUT", "users?id=eq.20", headers: h, body: #"[{"id":20,"name":"New"}]"#)
        XCTAssertEqual(created.status, 201)
        XCTAssertNil(created.headers["Content-Range"])
        XCTAssertEqual(created.text, #"[{"id":20,"name":"New"}]"#)
        let updated = try f.send("PUT", "users?id=eq.20", headers: h, body: #"{"id":20,"name":"Newer"}"#)
        XCTAssertEqual(updated.status, 200)
        XCTAssertEqual(updated.text, #"[{"id":20,"name":"Newer"}]"#)
        // Only the payload row the URL selects is written.
        var hs = singular
        hs["Prefer"] = "return=representation"
        let picked = try f.send("PUT", "users?id=eq.21", headers: hs, body: #"[{"id":21,"name":"Kept"},{"id":22,"name":"Dropped"}]"#)
        XCTAssertEqual(picked.text, #"{"id":21,"name":"Kept"}"#)
        XCTAssertEqual(try f.json(f.text("users?id=eq.22")), [])
        let minimal = try f.send("PUT", "users?id=eq.20", body: #"{"id":20,"name":"Quiet"}"#)
        XCTAssertEqual(minimal.status, 204)
        try f.send("PUT", "users?id=eq.30", body: #"{"id":31,"name":"Mismatch"}"#)
            .assertPostgrestError(400, "PGRST115", "Payload values do not match URL in primary key column(s)", details: .some(nil), hint: .some(nil))
        try f.send("PUT", "users?name=eq.X", body: #"{"id":1,"name":"X"}"#)
            .assertPostgrestError(405, "PGRST105", "Filters must include all and only primary key columns with 'eq' operators")
        try f.send("PUT", "users?id=gt.1", body: #"{"id":1,"name":"X"}"#).assertPostgrestError(405, "PGRST105")
        try f.send("PUT", "assignments?user_id=eq.1", body: #"{"user_id":1,"task_id":5}"#).assertPostgrestError(405, "PGRST105")
        try f.send("PUT", "users?id=eq.1&limit=1", body: #"{"id":1,"name":"X"}"#)
            .assertPostgrestError(400, "PGRST114", "limit/offset querystring parameters are not allowed for PUT")
        XCTAssertEqual(try f.json(f.text("users?id=in.(30,31)")), [])
    }

    /// A write's representation reads embeds as they were before the statement (PostgREST's
    /// data-modifying CTE): children a DELETE cascades away are still shown.
    func testDeleteRepresentationShowsCascadedChildren() throws {
        let r = try f.send("DELETE", "items?id=eq.1&select=id,labels(name)", headers: ["Prefer": "return=representation"])
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, #"[{"id":1,"labels":[{"name": "red"}, {"name": "blue"}]}]"#)
        XCTAssertEqual(f.backend.database.count("labels"), 0)
        let ins = try f.send("POST", "items?select=id,labels(name)", headers: ["Prefer": "return=representation"], body: #"{"id":7}"#)
        XCTAssertEqual(ins.text, #"[{"id":7,"labels":[]}]"#)
    }

    func testRangeNotSatisfiable() throws {
        let r = try f.send("GET", "users?offset=10", headers: ["Prefer": "count=exact"])
        r.assertPostgrestError(416, "PGRST103", "Requested range not satisfiable", details: "An offset of 10 was requested, but there are only 3 rows.")
        XCTAssertEqual(r.headers["Content-Range"], "*/3")
        try f.send("GET", "users", headers: ["Range": "5-2"])
            .assertPostgrestError(416, "PGRST103", details: "The lower boundary must be lower than or equal to the upper boundary in the Range header.")
    }

    func testFilterModifiersAnyAll() throws {
        XCTAssertEqual(try f.json(f.text("tasks?select=id&name=like(any).{Design*,*dome}&order=id")), [["id": 1], ["id": 3], ["id": 4]])
        XCTAssertEqual(try f.json(f.text("tasks?select=id&id=gt(all).{1,3}&order=id")), [["id": 4], ["id": 5]])
        XCTAssertEqual(try f.json(f.text("tasks?select=id&id=not.eq(any).{1,2,3}&order=id")), [["id": 4], ["id": 5]])
    }
}
