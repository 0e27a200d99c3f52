import XCTest
@testable import MockSupabase

/// A third pass over PostgREST's write specs (InsertSpec, UpdateSpec, PgSafeUpdateSpec,
/// RollbackSpec) on `SpecTablesFixture`, for the blocks the audit left out that the contract
/// format now holds: the stored generated column of the suite's `foo` (written: PostgreSQL's 428C9
/// as PostgREST maps it, 400; omitted: computed from the row), the safe-update tables' filtered
/// writes, a serial key's `Location`, `Prefer: tx=` under Supabase's transaction setting, a view
/// column's own default, and the `Location` of a simple view with a two-column key. Expectations
/// come from the specs and from PostgreSQL 15's answers to the same statements, in this corpus's
/// own words.
extension PostgRESTCaseCorpusTests {
    static let writeSweep2Cases: [Case] = onSpecTables(
        generatedColumnCases + safeUpdateCases + sequenceCases + rollbackCases + viewDefaultCases + locationCases)

    /// `foo.b` is `GENERATED ALWAYS AS (CASE WHEN a = 'telegram' THEN 'im' … ELSE 'bad idea' END) STORED`.
    static let generatedColumnCases: [Case] = [
        Case(
            name: "w2 generated insert refused", method: "POST", target: "foo?columns=a,b",
            headers: prefer("return=representation", "missing=default"), body: #"[{"a": "val"}, {"a": "val", "b": "val"}]"#, status: 400,
            expect: .exact(
                #"{"code":"428C9","details":"Column \"b\" is a generated column.","hint":null,"message":"cannot insert a non-DEFAULT value into column \"b\""}"#
            )),
        Case(
            name: "w2 generated insert refused body key", method: "POST", target: "foo", headers: ["Prefer": "return=representation"],
            body: #"{"a": "telegram", "b": null}"#, status: 400,
            expect: .exact(
                #"{"code":"428C9","details":"Column \"b\" is a generated column.","hint":null,"message":"cannot insert a non-DEFAULT value into column \"b\""}"#
            )),
        Case(
            name: "w2 generated computed", method: "POST", target: "foo", headers: ["Prefer": "return=representation"], body: #"{"a": "telegram"}"#,
            status: 201, expect: .exact(#"[{"a":"telegram","b":"im"}]"#), expectHeaders: ["Preference-Applied": "return=representation"]),
        Case(
            name: "w2 generated computed else and null", method: "POST", target: "foo", headers: ["Prefer": "return=representation"],
            body: #"[{"a": "proton"}, {"a": null}, {"a": "fax"}]"#, status: 201,
            expect: .exact(#"[{"a":"proton","b":"email"}, "# + "\n " + #"{"a":null,"b":"bad idea"}, "# + "\n " + #"{"a":"fax","b":"bad idea"}]"#)),
        Case(
            name: "w2 generated key outside columns", method: "POST", target: "foo?columns=a&select=b", headers: ["Prefer": "return=representation"],
            body: #"{"a": "infinity", "b": "ignored"}"#, status: 201, expect: .exact(#"[{"b":"idea"}]"#)),
        Case(
            name: "w2 generated update refused", method: "PATCH", target: "foo?a=eq.telegram", body: #"{"b": "im"}"#, status: 400,
            expect: .exact(
                #"{"code":"428C9","details":"Column \"b\" is a generated column.","hint":null,"message":"column \"b\" can only be updated to DEFAULT"}"#)),
        Case(
            name: "w2 generated update unknown column first", method: "PATCH", target: "foo?a=eq.telegram", body: #"{"b": "im", "c": 1}"#, status: 400,
            expect: .exact(#"{"code":"PGRST204","details":null,"hint":null,"message":"Could not find the 'c' column of 'foo' in the schema cache"}"#)),
        Case(
            name: "w2 generated update of nothing", method: "PATCH", target: "foo?a=eq.telegram", headers: ["Prefer": "return=representation"],
            body: #"{"a": "proton"}"#, status: 200, expect: .exact("[]"))
    ]

    /// PgSafeUpdateSpec: the filtered writes (the unfiltered ones need the `pg-safeupdate`
    /// extension loaded by a pre-request function, which the contract format does not hold).
    static let safeUpdateCases: [Case] = [
        Case(name: "w2 safe update filtered", method: "PATCH", target: "safe_update_items?id=gt.0", body: #"{"name": "updated-item"}"#, status: 204),
        Case(name: "w2 safe delete filtered", method: "DELETE", target: "safe_delete_items?id=gt.0", status: 204, expect: .exact("")),
        Case(name: "w2 unsafe delete", method: "DELETE", target: "unsafe_delete_items", status: 204, expect: .exact(""))
    ]

    /// InsertSpec 184: an insert without the serial key answers its `Location`. The suite resets
    /// the sequence to data.sql's state first (`setval(…, 1, true)`), which the fixture loads.
    static let sequenceCases: [Case] = [
        Case(
            name: "w2 serial location", method: "POST", target: "auto_incrementing_pk", headers: ["Prefer": "return=headers-only"],
            body: #"{ "non_nullable_string":"not null"}"#, status: 201, expect: .exact(""),
            expectHeaders: ["Content-Length": "0", "Location": "/auto_incrementing_pk?id=eq.2", "Preference-Applied": "return=headers-only"],
            expectAbsent: ["Content-Type"])
    ]

    /// RollbackSpec's `tx-rollback-all = false, tx-allow-override = false` block, the
    /// configuration Supabase runs (`db-tx-end = commit`): `Prefer: tx=` is neither applied nor
    /// echoed, and every write commits. The suite's other blocks set PostgREST options the
    /// contract format does not hold; its follow-up reads and its RPCs are left out.
    static var rollbackCases: [Case] {
        let prefers: [(String, HTTPHeaders)] = [
            ("default", ["Prefer": "return=representation"]), ("commit", prefer("return=representation", "tx=commit")),
            ("rollback", prefer("return=representation", "tx=rollback"))
        ]
        return prefers.flatMap { name, headers in
            [
                Case(name: "w2 tx \(name) get", target: "items?id=eq.1", headers: headers, status: 200, expect: .json(#"[{"id":1}]"#)),
                Case(
                    name: "w2 tx \(name) head", method: "HEAD", target: "items?id=eq.1", headers: headers, status: 200, expect: .exact(""),
                    expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
                Case(
                    name: "w2 tx \(name) post", method: "POST", target: "items", headers: headers, body: #"{"id":0}"#, status: 201,
                    expect: .json(#"[{"id":0}]"#), expectHeaders: ["Preference-Applied": "return=representation"]),
                Case(
                    name: "w2 tx \(name) put", method: "PUT", target: "items?id=eq.0", headers: headers, body: #"{"id":0}"#, status: 201,
                    expect: .json(#"[{"id":0}]"#), expectHeaders: ["Preference-Applied": "return=representation"]),
                Case(
                    name: "w2 tx \(name) delete", method: "DELETE", target: "items?id=eq.1", headers: headers, status: 200,
                    expect: .json(#"[{"id":1}]"#), expectHeaders: ["Preference-Applied": "return=representation"])
            ]
        }
    }

    /// InsertSpec 514 and UpdateSpec 395: `complex_items_view`'s `name` has its own default
    /// (`ALTER VIEW … SET DEFAULT 'Default'`), which inserts and `missing=default` updates through
    /// the view take; the base's `field-with_sep` default fills the column the view leaves out.
    static let viewDefaultCases: [Case] = [
        Case(
            name: "w2 view default insert", method: "POST", target: "complex_items_view?columns=id,name",
            headers: prefer("return=representation", "missing=default"), body: #"[{"id": 7, "name": "Sieben"}, {"id": 8}]"#, status: 201,
            expect: .json(
                #"[{"id": 7, "name": "Sieben", "field-with_sep": 1, "settings":null,"arr_data":null}, "#
                    + #"{"id": 8, "name": "Default", "field-with_sep": 1, "settings":null,"arr_data":null}]"#),
            expectHeaders: ["Preference-Applied": "missing=default, return=representation"]),
        Case(
            name: "w2 view default omitted column", method: "POST", target: "complex_items_view?select=id,name",
            headers: ["Prefer": "return=representation"], body: #"{"id": 9}"#, status: 201, expect: .exact(#"[{"id":9,"name":"Default"}]"#)),
        Case(
            name: "w2 view default listed without missing", method: "POST", target: "complex_items_view?columns=id,name&select=id,name",
            headers: ["Prefer": "return=representation"], body: #"{"id": 9}"#, status: 201, expect: .exact(#"[{"id":9,"name":null}]"#)),
        Case(
            name: "w2 view default update", method: "PATCH", target: "complex_items_view?id=eq.3&columns=arr_data,name",
            headers: prefer("return=representation", "missing=default"), body: #"{"arr_data":null}"#, status: 200,
            expect: .json(#"[{"id":3,"name":"Default","settings":{"foo":{"int":1,"bar":"baz"}},"arr_data":null,"field-with_sep":3}]"#),
            expectHeaders: ["Preference-Applied": "missing=default, return=representation"])
    ]

    /// InsertSpec 745 and 770: `compound_pk_view` is `SELECT * FROM compound_pk`, a simple view
    /// whose key PostgREST follows to the base's (two columns in its `Location`); InsertSpec 731
    /// inserts into `insertonly` with `return=minimal` (the suite's role lacks SELECT there; the
    /// fixture's service role answers the same).
    static let locationCases: [Case] = [
        Case(
            name: "w2 view compound insert", method: "POST", target: "compound_pk_view", body: #"{"k1":1,"k2":"test","extra":2}"#, status: 201,
            expect: .exact(""), expectHeaders: ["Content-Length": "0"], expectAbsent: ["Content-Type", "Location"]),
        Case(
            name: "w2 view compound location", method: "POST", target: "compound_pk_view", headers: ["Prefer": "return=headers-only"],
            body: #"{"k1":1,"k2":"test","extra":2}"#, status: 201, expect: .exact(""),
            expectHeaders: [
                "Location": "/compound_pk_view?k1=eq.1&k2=eq.test", "Content-Range": "*/*", "Content-Length": "0",
                "Preference-Applied": "return=headers-only"
            ], expectAbsent: ["Content-Type"]),
        Case(
            name: "w2 insertonly minimal", method: "POST", target: "insertonly", headers: ["Prefer": "return=minimal"], body: #"{ "v":"some value" }"#,
            status: 201, expect: .exact(""), expectHeaders: ["Content-Length": "0", "Preference-Applied": "return=minimal"],
            expectAbsent: ["Content-Type"])
    ]

    /// These cases alone (they are in the corpus too), failures listed.
    func testWriteSweep2Cases() throws {
        let failures = try Self.writeSweep2Cases.compactMap { c in try run(c).map { "\(c.name): \($0)" } }
        XCTAssertEqual(failures, [])
    }
}
