import XCTest
@testable import MockSupabase

/// A local measure of PostgREST fidelity: request/response cases on the fixture's plain tables,
/// written from the kinds of behaviour PostgREST's hspec suites pin (QuerySpec, AndOrParamsSpec,
/// EmbedDisambiguationSpec, EmbedInnerJoinSpec, JsonOperatorSpec, InsertSpec, UpsertSpec,
/// SingularSpec, RangeSpec, NullsStripSpec, SpreadQueriesSpec), each expectation derived from
/// PostgREST's source, not copied. Each case runs on a fresh fixture; the count of matches is printed.
final class PostgRESTCaseCorpusTests: XCTestCase {
    enum Body { case exact(String), json(String), none }
    struct Case {
        var name: String
        var method = "GET"
        var target: String
        var headers: HTTPHeaders = [:]
        var body: String?
        var status: Int
        var expect: Body = .none
        var expectHeaders: [String: String] = [:]
        /// Headers that must not be present.
        var expectAbsent: [String] = []
        /// Whether the case runs on `SpecTablesFixture` (PostgREST's test tables) instead of `RestSpecFixture`.
        var onSpecTables = false
        /// schema.json settings the spec-table fixture runs with instead of the suites' defaults
        /// (`"maxRows": 2` for QueryLimitedSpec), as top-level members.
        var settings: String?
    }

    /// Every case of the corpus.
    static var allCases: [Case] {
        cases + searchCases + preferenceCases + errorCases + viewCases + typeCases + specTableCases + specLogicCases + specJSONCases + specWriteCases
            + specRelatedCases + gapCases + sweepReadCases + sweepWriteCases + auditCases + hintCases + plainTableCases + viewKeyCases
            + queryLimitedCases + aggregateCases + writeSweep2Cases + readSweep2Cases
    }

    static let cases: [Case] = [
        // Filters, logic trees, in()
        Case(name: "eq", target: "users?select=id&name=eq.Ada", status: 200, expect: .exact(#"[{"id":1}]"#)),
        Case(name: "neq order desc", target: "users?select=id&name=neq.Ada&order=id.desc", status: 200, expect: .json(#"[{"id":3},{"id":2}]"#)),
        Case(name: "in list", target: "users?select=id&id=in.(1,3)&order=id", status: 200, expect: .json(#"[{"id":1},{"id":3}]"#)),
        Case(
            name: "in quoted with comma", target: "tasks?select=id&name=in.(\"Design rocket\",Launch)&order=id", status: 200,
            expect: .json(#"[{"id":1},{"id":5}]"#)),
        Case(name: "not.in", target: "users?select=id&id=not.in.(1,3)", status: 200, expect: .json(#"[{"id":2}]"#)),
        Case(name: "in empty", target: "users?select=id&id=in.()", status: 200, expect: .exact("[]")),
        Case(name: "not.in empty", target: "users?select=id&id=not.in.()&order=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(name: "is null", target: "projects?select=id&client_id=is.null", status: 200, expect: .json(#"[{"id":4}]"#)),
        Case(name: "is not_null", target: "projects?select=id&client_id=is.not_null&order=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(name: "like star", target: "tasks?select=id&name=like.*rocket&order=id", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(name: "ilike", target: "tasks?select=id&name=ilike.design*&order=id", status: 200, expect: .json(#"[{"id":1},{"id":3}]"#)),
        Case(name: "or", target: "users?select=id&or=(id.eq.1,name.eq.Cleo)&order=id", status: 200, expect: .json(#"[{"id":1},{"id":3}]"#)),
        Case(
            name: "and inside or", target: "tasks?select=id&or=(and(project_id.eq.1,name.like.*rocket),id.eq.4)&order=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2},{"id":4}]"#)),
        Case(name: "not.or", target: "users?select=id&not.or=(id.eq.1,id.eq.2)", status: 200, expect: .json(#"[{"id":3}]"#)),
        Case(
            name: "or with in", target: "users?select=id&or=(id.in.(1,2),name.eq.Cleo)&order=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(
            name: "or empty", target: "users?or=()", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \")\" expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)","hint":null,"message":"\"failed to parse logic tree (())\" (line 1, column 4)"}"#
            )),
        Case(
            name: "or unclosed", target: "users?or=(id.eq.1", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected end of input expecting \",\" or \")\"","hint":null,"message":"\"failed to parse logic tree ((id.eq.1)\" (line 1, column 11)"}"#
            )),
        Case(
            name: "bad operator", target: "users?id=foo.1", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \"f\" expecting \"not\" or operator (eq, gt, ...)","hint":null,"message":"\"failed to parse filter (foo.1)\" (line 1, column 1)"}"#
            )),
        Case(name: "eq(any)", target: "users?select=id&id=eq(any).{1,3}&order=id", status: 200, expect: .json(#"[{"id":1},{"id":3}]"#)),
        Case(name: "like(all)", target: "tasks?select=id&name=like(all).{*rocket,Design*}", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(
            name: "embedded or", target: "projects?select=id,tasks(id)&id=eq.1&tasks.or=(id.eq.2,id.eq.5)", status: 200,
            expect: .exact(#"[{"id":1,"tasks":[{"id": 2}, {"id": 5}]}]"#)),
        // Ordering, limits, ranges
        Case(
            name: "order nullsfirst", target: "projects?select=id&order=client_id.desc.nullsfirst,id", status: 200,
            expect: .json(#"[{"id":4},{"id":3},{"id":1},{"id":2}]"#)),
        Case(
            name: "order nullslast desc", target: "projects?select=id&order=client_id.desc.nullslast,id", status: 200,
            expect: .json(#"[{"id":3},{"id":1},{"id":2},{"id":4}]"#)),
        Case(
            name: "limit offset", target: "users?select=id&order=id&limit=1&offset=1", status: 200, expect: .json(#"[{"id":2}]"#),
            expectHeaders: ["Content-Range": "1-1/*"]),
        Case(
            name: "count exact partial", target: "users?select=id&order=id&limit=2", headers: ["Prefer": "count=exact"], status: 206,
            expectHeaders: ["Content-Range": "0-1/3"]),
        Case(
            name: "range header", target: "users?select=id&order=id", headers: ["Range": "1-2"], status: 200, expect: .json(#"[{"id":2},{"id":3}]"#),
            expectHeaders: ["Content-Range": "1-2/*"]),
        Case(
            name: "offset beyond with count", target: "users?offset=5", headers: ["Prefer": "count=exact"], status: 416, expectHeaders: ["Content-Range": "*/3"]
        ),
        Case(name: "range lower>upper", target: "users", headers: ["Range": "3-1"], status: 416),
        Case(name: "empty result range", target: "users?id=eq.99", status: 200, expect: .exact("[]"), expectHeaders: ["Content-Range": "*/*"]),
        Case(name: "bad order", target: "users?order=id.ac", status: 400),
        Case(
            name: "negative offset is none", target: "users?select=id&order=id&offset=-2", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#),
            expectHeaders: ["Content-Range": "0-2/*"]),
        Case(name: "limit zero", target: "users?select=id&limit=0", status: 200, expect: .exact("[]"), expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "negative limit", target: "users?limit=-1", status: 416,
            expect: .json(
                #"{"code":"PGRST103","details":"Limit should be greater than or equal to zero.","hint":null,"message":"Requested range not satisfiable"}"#)),
        Case(
            name: "empty with count", target: "users?id=eq.0", headers: ["Prefer": "count=exact"], status: 200, expect: .exact("[]"),
            expectHeaders: ["Content-Range": "*/0"]),
        Case(
            name: "nested embed ranges",
            target:
                "clients?select=id,projects(id,tasks(id))&order=id&limit=1&projects.order=id&projects.limit=1&projects.tasks.order=id.desc&projects.tasks.limit=1",
            status: 200, expect: .exact(#"[{"id":1,"projects":[{"id": 1, "tasks": [{"id": 5}]}]}]"#), expectHeaders: ["Content-Range": "0-0/*"]),
        // Embedding
        Case(
            name: "m2o object", target: "projects?select=name,clients(name)&id=eq.3", status: 200,
            expect: .exact(#"[{"name":"Dome","clients":{"name": "Globex"}}]"#)),
        Case(
            name: "o2m array", target: "clients?select=name,projects(name)&id=eq.2", status: 200,
            expect: .exact(#"[{"name":"Globex","projects":[{"name": "Dome"}]}]"#)),
        Case(name: "o2m empty", target: "clients?select=name,projects(name)&id=eq.3", status: 200, expect: .exact(#"[{"name":"Initech","projects":[]}]"#)),
        Case(name: "m2o null", target: "projects?select=id,clients(*)&id=eq.4", status: 200, expect: .exact(#"[{"id":4,"clients":null}]"#)),
        Case(
            name: "star embed jsonb order", target: "tasks?select=id,projects(*)&id=eq.4", status: 200,
            expect: .exact(#"[{"id":4,"projects":{"id": 3, "name": "Dome", "client_id": 2}}]"#)),
        Case(
            name: "alias embed", target: "projects?select=id,owner:clients(name)&id=eq.1", status: 200, expect: .exact(#"[{"id":1,"owner":{"name": "Acme"}}]"#)),
        Case(
            name: "embed order limit", target: "clients?select=id,projects(id)&id=eq.1&projects.order=id.desc&projects.limit=1", status: 200,
            expect: .exact(#"[{"id":1,"projects":[{"id": 2}]}]"#)),
        Case(
            name: "nested embed", target: "tasks?select=id,projects(name,clients(name))&id=eq.1", status: 200,
            expect: .exact(#"[{"id":1,"projects":{"name": "Rocket", "clients": {"name": "Acme"}}}]"#)),
        Case(
            name: "inner join filter", target: "projects?select=id,clients!inner(id)&clients.name=eq.Globex", status: 200,
            expect: .json(#"[{"id":3,"clients":{"id":2}}]"#)),
        Case(
            name: "left embed filter keeps parents", target: "projects?select=id,clients(id)&clients.name=eq.Globex&order=id", status: 200,
            expect: .json(#"[{"id":1,"clients":null},{"id":2,"clients":null},{"id":3,"clients":{"id":2}},{"id":4,"clients":null}]"#)),
        Case(name: "m2m", target: "users?select=id,tasks(id)&id=eq.1", status: 200, expect: .exact(#"[{"id":1,"tasks":[{"id": 1}, {"id": 2}]}]"#)),
        Case(name: "m2m hint", target: "tasks?select=id,users!assignments(id)&id=eq.4", status: 200, expect: .exact(#"[{"id":4,"users":[{"id": 3}]}]"#)),
        Case(name: "embed by fk column", target: "tasks?select=id,project_id(id)&id=eq.3", status: 200, expect: .exact(#"[{"id":3,"project_id":{"id": 2}}]"#)),
        Case(
            name: "embed by constraint", target: "tasks?select=id,tasks_project_id_fkey(id)&id=eq.3", status: 200,
            expect: .exact(#"[{"id":3,"tasks_project_id_fkey":{"id": 2}}]"#)),
        Case(name: "self children", target: "people?select=id,people(id)&id=eq.2", status: 200, expect: .exact(#"[{"id":2,"people":[{"id": 4}]}]"#)),
        Case(name: "self parent by column", target: "people?select=id,parent(id)&id=eq.2", status: 200, expect: .exact(#"[{"id":2,"parent":{"id": 1}}]"#)),
        Case(name: "ambiguous", target: "clients?select=transfers(*)", status: 300),
        Case(name: "no relationship", target: "users?select=clients(*)", status: 400),
        Case(
            name: "related order", target: "tasks?select=id,projects(name)&order=projects(name),id&limit=2", status: 200,
            expect: .json(#"[{"id":3,"projects":{"name":"Anvil"}},{"id":4,"projects":{"name":"Dome"}}]"#)),
        Case(name: "spread", target: "tasks?select=id,...projects(project:name)&id=eq.4", status: 200, expect: .exact(#"[{"id":4,"project":"Dome"}]"#)),
        Case(name: "null embed filter", target: "clients?select=id,projects()&projects=is.null", status: 200, expect: .exact(#"[{"id":3}]"#)),
        Case(name: "unknown embed filter", target: "clients?select=id&projects.id=eq.1", status: 400),
        // JSON paths
        Case(name: "json arrow", target: "items?select=id,doc->n&id=eq.2", status: 200, expect: .exact(#"[{"id":2,"n":10}]"#)),
        Case(name: "json double arrow", target: "items?select=doc->>n&id=eq.2", status: 200, expect: .exact(#"[{"n":"10"}]"#)),
        Case(name: "json index", target: "items?select=doc->tags->>1&id=eq.1", status: 200, expect: .exact(#"[{"tags":"y"}]"#)),
        Case(name: "json negative index", target: "items?select=doc->tags->-1&id=eq.1", status: 200, expect: .exact(#"[{"tags":"z"}]"#)),
        Case(name: "json missing", target: "items?select=doc->nope&id=eq.1", status: 200, expect: .exact(#"[{"nope":null}]"#)),
        Case(name: "json filter", target: "items?select=id&doc->inner->>k=eq.w", status: 200, expect: .json(#"[{"id":2}]"#)),
        Case(name: "json order", target: "items?select=id&order=doc->>n.desc.nullslast", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(name: "json cast", target: "items?select=n:doc->>n::int&id=eq.1", status: 200, expect: .exact(#"[{"n":3}]"#)),
        // Writes
        Case(
            name: "insert rep", method: "POST", target: "users", headers: ["Prefer": "return=representation"], body: #"{"id":5,"name":"Eve"}"#, status: 201,
            expect: .exact(#"[{"id":5,"name":"Eve"}]"#), expectHeaders: ["Content-Range": "*/*", "Preference-Applied": "return=representation"]),
        Case(name: "insert minimal", method: "POST", target: "users", body: #"{"id":5,"name":"Eve"}"#, status: 201, expect: .exact("")),
        Case(
            name: "insert select", method: "POST", target: "projects?select=id,clients(name)", headers: ["Prefer": "return=representation"],
            body: #"{"id":9,"name":"N","client_id":3}"#, status: 201, expect: .exact(#"[{"id":9,"clients":{"name": "Initech"}}]"#)),
        Case(
            name: "insert singular two rows", method: "POST", target: "users", headers: ["Accept": "application/vnd.pgrst.object+json"],
            body: #"[{"id":5,"name":"E"},{"id":6,"name":"F"}]"#, status: 406),
        Case(
            name: "insert singular one", method: "POST", target: "users",
            headers: ["Accept": "application/vnd.pgrst.object+json", "Prefer": "return=representation"], body: #"[{"id":5,"name":"E"}]"#, status: 201,
            expect: .exact(#"{"id":5,"name":"E"}"#)),
        Case(
            name: "upsert update only", method: "POST", target: "users", headers: ["Prefer": "resolution=merge-duplicates, return=representation"],
            body: #"{"id":2,"name":"Bo"}"#, status: 200, expect: .json(#"[{"id":2,"name":"Bo"}]"#)),
        Case(
            name: "upsert ignore", method: "POST", target: "users", headers: ["Prefer": "resolution=ignore-duplicates, return=representation"],
            body: #"{"id":2,"name":"Bo"}"#, status: 201, expect: .exact("[]")),
        Case(
            name: "upsert empty array", method: "POST", target: "users", headers: ["Prefer": "resolution=merge-duplicates, return=representation"], body: "[]",
            status: 200, expect: .exact("[]")),
        Case(
            name: "patch rep", method: "PATCH", target: "users?id=eq.3", headers: ["Prefer": "return=representation"], body: #"{"name":"Cleo P."}"#,
            status: 200, expect: .exact(#"[{"id":3,"name":"Cleo P."}]"#), expectHeaders: ["Content-Range": "0-0/*"]),
        Case(name: "patch none", method: "PATCH", target: "users?id=eq.30", body: #"{"name":"x"}"#, status: 204, expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "delete rep", method: "DELETE", target: "items?id=eq.3", headers: ["Prefer": "return=representation"], status: 200,
            expect: .exact(#"[{"id":3,"label":null,"doc":null}]"#), expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "delete count", method: "DELETE", target: "items?id=gt.1", headers: ["Prefer": "count=exact"], status: 204,
            expectHeaders: ["Content-Range": "*/2"]),
        Case(name: "delete singular many", method: "DELETE", target: "items?id=gt.0", headers: ["Accept": "application/vnd.pgrst.object+json"], status: 406),
        Case(
            name: "put insert", method: "PUT", target: "users?id=eq.40", headers: ["Prefer": "return=representation"], body: #"{"id":40,"name":"P"}"#,
            status: 201, expect: .exact(#"[{"id":40,"name":"P"}]"#)),
        Case(
            name: "put update", method: "PUT", target: "users?id=eq.1", headers: ["Prefer": "return=representation"], body: #"[{"id":1,"name":"Ada B."}]"#,
            status: 200, expect: .exact(#"[{"id":1,"name":"Ada B."}]"#)),
        Case(
            name: "put mismatch", method: "PUT", target: "users?id=eq.1", body: #"{"id":2,"name":"x"}"#, status: 400,
            expect: .json(#"{"code":"PGRST115","details":null,"hint":null,"message":"Payload values do not match URL in primary key column(s)"}"#)),
        Case(name: "put non pk filter", method: "PUT", target: "users?name=eq.Ada", body: #"{"id":1,"name":"Ada"}"#, status: 405),
        Case(name: "put limit", method: "PUT", target: "users?id=eq.1&limit=1", body: #"{"id":1,"name":"Ada"}"#, status: 400),
        // Media types
        Case(
            name: "singular read", target: "users?id=eq.1", headers: ["Accept": "application/vnd.pgrst.object+json"], status: 200,
            expect: .exact(#"{"id":1,"name":"Ada"}"#)),
        Case(
            name: "singular read none", target: "users?id=eq.9", headers: ["Accept": "application/vnd.pgrst.object+json"], status: 406,
            expect: .json(
                #"{"code":"PGRST116","details":"The result contains 0 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#)),
        Case(name: "csv", target: "users?order=id", headers: ["Accept": "text/csv"], status: 200, expect: .exact("id,name\n1,Ada\n2,Brian\n3,Cleo")),
        Case(
            name: "strip nulls", target: "items?select=id,label&id=eq.3", headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped"], status: 200,
            expect: .exact(#"[{"id":3}]"#)),
        Case(name: "unknown media", target: "users", headers: ["Accept": "text/unknown"], status: 406)
    ]

    /// Runs a case on a fresh fixture; `mutate` lets a test stand in a deliberately wrong
    /// implementation (it rewrites the request the fixture's backend sees).
    func run(_ c: Case, mutate: (HTTPHeaders) -> HTTPHeaders = { $0 }) throws -> String? {
        let r =
            c.onSpecTables
            ? try SpecTablesFixture(schemaJSON: SpecTablesFixture.schemaJSON(settings: c.settings)).send(
                c.method, c.target, headers: mutate(c.headers), body: c.body)
            : try RestSpecFixture().send(c.method, c.target, headers: mutate(c.headers), body: c.body)
        if r.status != c.status { return "status \(r.status) ≠ \(c.status): \(r.text)" }
        switch c.expect {
        case .exact(let s): if r.text != s { return "body \(r.text) ≠ \(s)" }
        case .json(let s): if (try? JSONValue.parse(r.text)) != (try JSONValue.parse(s)) { return "body \(r.text) ≠ \(s)" }
        case .none: break
        }
        for (k, v) in c.expectHeaders {
            // The in-process answer has no Content-Length (the HTTP layer adds one from the body).
            let got = k == "Content-Length" ? (r.headers[k] ?? String(r.body.count)) : r.headers[k]
            if got != v { return "header \(k): \(got ?? "absent") ≠ \(v)" }
        }
        for k in c.expectAbsent where r.headers[k] != nil { return "header \(k) present: \(r.headers[k]!)" }
        return nil
    }

    func testCorpus() throws {
        var failures: [String] = []
        for c in Self.allCases {
            if let why = try run(c) { failures.append("\(c.name): \(why)") }
        }
        let n = Self.allCases.count
        print("PostgREST case corpus: \(n - failures.count) of \(n) match (\(String(format: "%.1f", Double(n - failures.count) * 100 / Double(n)))% agreement)")
        XCTAssertEqual(failures, [])
    }

    /// A mutant that ignores `Prefer` (the header never reaches the engine) is rejected by the
    /// preference cases.
    func testCorpusRejectsAnEngineIgnoringPrefer() throws {
        var rejected = 0
        for c in Self.preferenceCases {
            if try run(c, mutate: { h in HTTPHeaders(h.filter { $0.name.lowercased() != "prefer" }.map { ($0.name, $0.value) }) }) != nil { rejected += 1 }
        }
        XCTAssertGreaterThan(rejected, Self.preferenceCases.count / 2)
    }

    /// The corpus can fail: a case with a wrong expectation is reported.
    func testCorpusRejectsAWrongExpectation() throws {
        var c = Self.cases[0]
        c.expect = .exact(#"[{"id":2}]"#)
        XCTAssertNotNil(try run(c))
    }
}
