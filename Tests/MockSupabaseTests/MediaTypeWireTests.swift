import XCTest
@testable import MockSupabase

/// Media types as PostgREST's MediaType.hs and SqlFragment.hs produce them: CSV in select order
/// with record-text quoting, `vnd.pgrst.array+json` as JSON, and `nulls=stripped`.
final class MediaTypeWireTests: XCTestCase {
    var f: RestSpecFixture!
    override func setUpWithError() throws { f = try RestSpecFixture() }

    func testCSVColumnsInSelectOrderWithRecordQuoting() throws {
        let r = try f.send("GET", "projects?select=name,id,client_id&order=id", headers: ["Accept": "text/csv"])
        XCTAssertEqual(r.headers["Content-Type"], "text/csv; charset=utf-8")
        XCTAssertEqual(r.text, "name,id,client_id\nRocket,1,1\nAnvil,2,1\nDome,3,2\nOrphan,4,")
        let star = try f.send("GET", "tasks?id=lt.3&order=id", headers: ["Accept": "text/csv"])
        XCTAssertEqual(star.text, "id,name,project_id\n1,\"Design rocket\",1\n2,\"Build rocket\",1")
        XCTAssertEqual(try f.send("GET", "tasks?id=gt.99", headers: ["Accept": "text/csv"]).text, "\n")
        let ins = try f.send(
            "POST", "users?select=id", headers: ["Accept": "text/csv", "Prefer": "return=representation"], body: #"[{"id":7,"name":"Q"},{"id":8,"name":"R"}]"#)
        XCTAssertEqual(ins.status, 201)
        XCTAssertEqual(ins.text, "id\n7\n8")
    }

    func testArrayMediaTypeAndNullStripping() throws {
        let plain = try f.send("GET", "projects?select=id,client_id&id=gt.2&order=id", headers: ["Accept": "application/vnd.pgrst.array+json"])
        XCTAssertEqual(plain.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertEqual(plain.text, "[{\"id\":3,\"client_id\":2}, \n {\"id\":4,\"client_id\":null}]")
        let stripped = try f.send(
            "GET", "projects?select=id,client_id,clients(name,id)&id=gt.2&order=id",
            headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped"])
        XCTAssertEqual(stripped.headers["Content-Type"], "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8")
        XCTAssertEqual(stripped.text, #"[{"id":3,"client_id":2,"clients":{"id":2,"name":"Globex"}},{"id":4}]"#)
        let one = try f.send("GET", "projects?select=id,client_id&id=eq.4", headers: ["Accept": "application/vnd.pgrst.object+json;nulls=stripped"])
        XCTAssertEqual(one.headers["Content-Type"], "application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8")
        XCTAssertEqual(one.text, #"{"id":4}"#)
        try f.send("GET", "projects", headers: ["Accept": "application/vnd.pgrst.object+json;nulls=stripped"])
            .assertPostgrestError(406, "PGRST116", details: "The result contains 4 rows")
    }

    /// The stripper keeps array elements, nested non-null members and string contents.
    func testNullStrippingRejectsAShallowMutant() {
        let text = #"{"a":null,"b":[null,{"c":null,"d":"x,null"}],"e":{"f":null}}"#
        XCTAssertEqual(NullStripping.strip(text), #"{"b":[null,{"d":"x,null"}],"e":{}}"#)
        XCTAssertNotEqual(NullStripping.strip(text), text.replacingOccurrences(of: #""a":null,"#, with: ""))
    }
}
