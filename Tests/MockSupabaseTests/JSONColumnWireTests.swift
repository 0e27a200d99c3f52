import XCTest
@testable import MockSupabase

/// A `json` column (not `jsonb`) over the wire. PostgreSQL keeps a json value's text as written
/// and `json_agg` prints it verbatim, so PostgREST's top-level rows show it byte for byte; an
/// embed is cast `::jsonb` (QueryBuilder.hs `getJoinSelects`/`getJoin`), so there it is
/// normalised; a to-one spread selects the column as it is. A write gets each member's text from the body through `json_to_record(set)`,
/// or the jsonb text with `Prefer: missing=default`. json has no `=`, no ordering and no
/// containment. Every expected body below is what PostgreSQL 15 answers to the SQL PostgREST
/// writes for the request.
final class JSONColumnWireTests: XCTestCase {
    static let schemaJSON = #"""
        {"tables": [
          {"name": "docs", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "body", "type": "json"},
            {"name": "meta", "type": "jsonb"}]},
          {"name": "notes", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "doc_id", "type": "integer"},
            {"name": "payload", "type": "json"}],
           "foreignKeys": [{"columns": ["doc_id"], "references": {"table": "docs", "columns": ["id"]}}]}]}
        """#

    /// Three documents: duplicate keys, spacing and number spellings; an escaped string; a
    /// number in exponent form.
    static let docsBody =
        #"[{"id":1,"body":{ "b" : 1, "a":[1, 2.50, 1e2], "a":"dup" },"meta":{ "b" : 1, "a":1}},"#
        + #"{"id":2,"body":"x\u0041\/y","meta":null},{"id":3,"body":1.50E+1,"meta":[]}]"#
    static let notesBody =
        #"[{"id":10,"doc_id":1,"payload":{"z": 1,"a" :[ true ]}},{"id":11,"doc_id":1,"payload":null},{"id":12,"doc_id":2,"payload":[1, 2.50]}]"#

    private func backend() throws -> MockSupabase {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(Self.schemaJSON), file: "inline"))
        let spec = AppSpec(
            app: "jsoncolumns", folder: URL(fileURLWithPath: "/nonexistent"), schema: schema,
            policies: PolicySet(definitions: [:], definitionDocs: [:], tables: []), fixtures: .empty)
        return try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 3)))
    }

    private func send(
        _ b: MockSupabase, _ method: String, _ target: String, headers: HTTPHeaders = [:], body: String? = nil,
        rewriteBody: (String) -> String = { $0 }
    ) throws -> HTTPResponse {
        var h = headers
        h["apikey"] = b.serviceRoleKey
        h["Authorization"] = "Bearer \(b.serviceRoleKey)"
        if body != nil && h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        return try b.handle(HTTPRequest(method: method, target: "/rest/v1/" + target, headers: h, body: Data(rewriteBody(body ?? "").utf8)))
    }

    /// The answers a faithful engine gives, as (what went wrong, nil when right) per check;
    /// `rewriteBody` stands in an engine that does not see the body's text.
    private func failures(rewriteBody: @escaping (String) -> String = { $0 }) throws -> [String] {
        let b = try backend()
        var out: [String] = []
        func check(_ r: HTTPResponse, _ status: Int, _ body: String, _ what: String, headers: [String: String] = [:]) {
            if r.status != status { out.append("\(what): status \(r.status) ≠ \(status): \(r.text)") }
            if r.text != body { out.append("\(what): body \(r.text) ≠ \(body)") }
            for (k, v) in headers where r.headers[k] != v { out.append("\(what): header \(k) \(r.headers[k] ?? "absent") ≠ \(v)") }
        }
        let rep: HTTPHeaders = ["Prefer": "return=representation"]
        check(
            try send(b, "POST", "docs", headers: rep, body: Self.docsBody, rewriteBody: rewriteBody), 201,
            #"[{"id":1,"body":{ "b" : 1, "a":[1, 2.50, 1e2], "a":"dup" },"meta":{"a": 1, "b": 1}}, "# + "\n "
                + #"{"id":2,"body":"xA/y","meta":null}, "# + "\n " + #"{"id":3,"body":1.50E+1,"meta":[]}]"#, "insert keeps member texts",
            headers: ["Content-Type": "application/json; charset=utf-8", "Content-Range": "*/*"])
        check(try send(b, "POST", "notes", body: Self.notesBody, rewriteBody: rewriteBody), 201, "", "insert notes")
        check(
            try send(b, "GET", "docs?select=id,body,notes(id,payload)&order=id&notes.order=id"), 200,
            #"[{"id":1,"body":{ "b" : 1, "a":[1, 2.50, 1e2], "a":"dup" },"notes":[{"id": 10, "payload": {"a": [true], "z": 1}}, {"id": 11, "payload": null}]}, "#
                + "\n " + #"{"id":2,"body":"xA/y","notes":[{"id": 12, "payload": [1, 2.50]}]}, "# + "\n " + #"{"id":3,"body":1.50E+1,"notes":[]}]"#,
            "read: verbatim at the top, jsonb in a to-many embed", headers: ["Content-Range": "0-2/*"])
        check(
            try send(b, "GET", "notes?select=id,docs(body)&order=id"), 200,
            #"[{"id":10,"docs":{"body": {"a": "dup", "b": 1}}}, "# + "\n " + #"{"id":11,"docs":{"body": {"a": "dup", "b": 1}}}, "# + "\n "
                + #"{"id":12,"docs":{"body": "xA/y"}}]"#, "read: jsonb in a to-one embed")
        check(
            try send(b, "GET", "notes?select=id,...docs(body)&order=id"), 200,
            #"[{"id":10,"body":{ "b" : 1, "a":[1, 2.50, 1e2], "a":"dup" }}, "# + "\n " + #"{"id":11,"body":{ "b" : 1, "a":[1, 2.50, 1e2], "a":"dup" }}, "#
                + "\n " + #"{"id":12,"body":"xA/y"}]"#, "read: verbatim through a to-one spread")
        check(
            try send(b, "GET", "docs?select=a:body->a,t:body->>a,b:body->b,body::jsonb&id=eq.1"), 200,
            #"[{"a":"dup","t":"dup","b":1,"body":{"a": "dup", "b": 1}}]"#, "paths and the jsonb cast")
        check(
            try send(b, "GET", "docs?select=id,body&order=id", headers: ["Accept": "text/csv"]), 200,
            "id,body\n" + #"1,"{ ""b"" : 1, ""a"":[1, 2.50, 1e2], ""a"":""dup"" }""# + "\n" + #"2,"""xA/y""""# + "\n3,1.50E+1", "csv",
            headers: ["Content-Type": "text/csv; charset=utf-8"])
        check(
            try send(b, "PATCH", "docs?id=eq.3&select=id,body", headers: rep, body: #"{"body":  {"z":1,   "a":[true]} }"#, rewriteBody: rewriteBody), 200,
            #"[{"id":3,"body":{"z":1,   "a":[true]}}]"#, "update keeps the member text")
        check(
            try send(
                b, "POST", "docs?select=id,body", headers: ["Prefer": "return=representation, missing=default"], body: #"{"id":4,"body":{"a":1,"a":2}}"#,
                rewriteBody: rewriteBody), 201, #"[{"id":4,"body":{"a": 2}}]"#, "missing=default sends jsonb")
        check(
            try send(b, "PUT", "docs?id=eq.5&select=id,body", headers: rep, body: #"{"id":5,"body":[ 1 ,{"b":null} ]}"#, rewriteBody: rewriteBody), 201,
            #"[{"id":5,"body":[ 1 ,{"b":null} ]}]"#, "put keeps the member text")
        return out
    }

    func testJSONColumnsKeepTheirTextWhereJSONIsPrintedAndAreJSONBInEmbeds() throws {
        XCTAssertEqual(try failures(), [])
    }

    /// Mutant: an engine that sees only the parsed document (here, the body re-encoded as jsonb
    /// before it reaches the mock) prints the jsonb text, and the checks reject it.
    func testAnEngineWithoutTheBodyTextIsRejected() throws {
        let mutant = try failures(rewriteBody: { s in (try? JSONValue.parse(s).serialized(.jsonb)) ?? s })
        XCTAssertTrue(mutant.contains { $0.hasPrefix("insert keeps member texts") }, "\(mutant)")
        XCTAssertTrue(mutant.contains { $0.hasPrefix("update keeps the member text") }, "\(mutant)")
        XCTAssertTrue(mutant.contains { $0.hasPrefix("put keeps the member text") }, "\(mutant)")
    }

    /// json has no equality, pattern, containment or ordering operator: PostgreSQL's errors,
    /// with PostgREST's statuses (42883 is 404; 42725, the ambiguous `<@`, is 400). `->>`
    /// gives text, which compares.
    func testJSONHasNoComparisonOrOrdering() throws {
        let b = try backend()
        _ = try send(b, "POST", "docs", body: Self.docsBody)
        let noOp = "No operator matches the given name and argument types. You might need to add explicit type casts."
        for (q, sym) in [
            ("body=eq.1", "="), ("body=neq.1", "<>"), ("body=gt.1", ">"), ("body=in.(1,2)", "="), ("body=like.*a*", "~~"),
            ("body=ilike.*a*", "~~*"), ("body=match.a", "~"), ("body=cs.{}", "@>"), ("body=ov.{}", "&&"), ("body=isdistinct.1", "="),
            ("body->a=eq.1", "=")
        ] {
            try send(b, "GET", "docs?" + q).assertPostgrestError(404, "42883", "operator does not exist: json \(sym) unknown", details: nil, hint: noOp)
        }
        try send(b, "GET", "docs?body=cd.{}").assertPostgrestError(
            400, "42725", "operator is not unique: json <@ unknown", details: nil,
            hint: "Could not choose a best candidate operator. You might need to add explicit type casts.")
        for q in ["order=body", "order=body->a.desc"] {
            try send(b, "GET", "docs?" + q).assertPostgrestError(
                404, "42883", "could not identify an ordering operator for type json", details: nil,
                hint: "Use an explicit ordering operator or modify the query.")
        }
        let r = try send(b, "GET", "docs?select=id&body->>a=eq.dup&body=not.is.null&order=body->>a")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, #"[{"id":1}]"#)
        // jsonb keeps its operators.
        XCTAssertEqual(try send(b, "GET", "docs?select=id&meta=eq.[]").text, #"[{"id":3}]"#)
    }

    /// The text navigation under `->`: the last of duplicate keys, negative indexes, the member
    /// text as written; a body's member texts per row.
    func testJSONTextNavigation() throws {
        let t = try XCTUnwrap(PGJSONText(text: #" {"a":1, "b" : [ 1 ,{"c":"x\u0041"}, 2.50 ], "a" : {"d":null} } "#))
        XCTAssertEqual(t.member("a")?.text, #"{"d":null}"#)
        XCTAssertEqual(t.member("b")?.element(-1)?.text, "2.50")
        XCTAssertEqual(t.member("b")?.element(1)?.member("c")?.text, #""x\u0041""#)
        XCTAssertEqual(t.member("b")?.element(1)?.member("c")?.asText, "xA")
        XCTAssertNil(t.member("b")?.element(3))
        XCTAssertNil(t.element(0))
        XCTAssertNil(t.member("a")?.member("d")?.asText)
        XCTAssertEqual(
            PGJSONText.bodyMembers(Data(#"[{"x": [1, 2] ,"y":"s","x":3}, {"x":{ }}]"#.utf8)), [["x": "3", "y": #""s""#], ["x": "{ }"]])
    }
}
