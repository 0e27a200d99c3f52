import XCTest
@testable import MockSupabase

// QueryLimitedSpec.hs replayed on the spec tables with `"maxRows": 2` (its `db-max-rows = 2`),
// plus the counts and ranges the same rule decides (RangeQuery.hs `restrictRange`, Plan.hs
// `treeRestrictRange`, MainTx.hs's estimated count). Left out: the three `count=estimated` cases
// on `getallprojects_view` and `get_projects_above_view` (views over SQL functions).

extension PostgRESTCaseCorpusTests {
    static let queryLimitedCases: [Case] = [
        Case(
            name: "Limited GET items?order=id", target: "items?order=id", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#),
            expectHeaders: ["Content-Range": "0-1/*"], onSpecTables: true, settings: #""maxRows": 2"#),
        Case(
            name: "Limited Range 0-0", target: "items", headers: ["Range": "0-0"], status: 200, expect: .json(#"[{"id":1}]"#),
            expectHeaders: ["Content-Range": "0-0/*"], onSpecTables: true, settings: #""maxRows": 2"#),
        Case(
            name: "Limited on all levels", target: "users?select=id,tasks(id)&order=id.asc&tasks.order=id.asc", status: 200,
            expect: .json(#"[{"id":1,"tasks":[{"id":1},{"id":2}]},{"id":2,"tasks":[{"id":5},{"id":6}]}]"#),
            expectHeaders: ["Content-Range": "0-1/*"], onSpecTables: true, settings: #""maxRows": 2"#),
        Case(
            name: "Limited parent embeds", target: "tasks?select=id,project:projects(id)&id=gt.5", status: 200,
            expect: .json(#"[{"id":6,"project":{"id":3}},{"id":7,"project":{"id":4}}]"#), expectHeaders: ["Content-Range": "0-1/*"],
            onSpecTables: true, settings: #""maxRows": 2"#),
        Case(
            name: "Limited parent embed offset", target: "tasks?select=id,project:projects(id)&id=gt.5&project.offset=1", status: 200,
            expect: .json(#"[{"id":6,"project":null}, {"id":7,"project":null}]"#), expectHeaders: ["Content-Range": "0-1/*"], onSpecTables: true,
            settings: #""maxRows": 2"#),
        Case(
            name: "Limited POST not cut", method: "POST", target: "projects?select=id,name", headers: ["Prefer": "return=representation"],
            body: #"[{"id":6,"name":"BeOS"},{"id":7,"name":"PopOS"},{"id":8,"name":"HaikuOS"}]"#, status: 201,
            expect: .json(#"[{"id":6,"name":"BeOS"},{"id":7,"name":"PopOS"},{"id":8,"name":"HaikuOS"}]"#), onSpecTables: true,
            settings: #""maxRows": 2"#),
        Case(
            name: "Limited PATCH not cut", method: "PATCH", target: "employees?select=first_name,last_name,occupation&order=last_name",
            headers: ["Prefer": "return=representation"], body: #"[{"occupation":"Barista"}]"#, status: 200,
            expect: .json(
                #"[{"first_name":"Daniel B.","last_name":"Lyon","occupation":"Barista"},{"first_name":"Frances M.","last_name":"Roe","occupation":"Barista"},{"first_name":"Edwin S.","last_name":"Smith","occupation":"Barista"}]"#
            ), onSpecTables: true, settings: #""maxRows": 2"#),
        Case(
            name: "Limited DELETE not cut", method: "DELETE", target: "employees?select=first_name,last_name&order=last_name",
            headers: ["Prefer": "return=representation"], status: 200,
            expect: .json(
                #"[{"first_name":"Daniel B.","last_name":"Lyon"},{"first_name":"Frances M.","last_name":"Roe"},{"first_name":"Edwin S.","last_name":"Smith"}]"#),
            onSpecTables: true, settings: #""maxRows": 2"#),
        Case(
            name: "Limited limit 0", target: "items?limit=0", status: 200, expect: .exact("[]"), expectHeaders: ["Content-Range": "*/*"], onSpecTables: true,
            settings: #""maxRows": 2"#),
        // The same rule on what the suite does not send: a larger limit is cut, an offset keeps
        // its place, the exact count is the whole result's (206: fewer rows than it).
        Case(
            name: "Limited larger limit", target: "items?order=id&limit=5&offset=3", status: 200, expect: .json(#"[{"id":4},{"id":5}]"#),
            expectHeaders: ["Content-Range": "3-4/*"], onSpecTables: true, settings: #""maxRows": 2"#),
        Case(
            name: "Limited exact count", target: "items?select=id&order=id", headers: ["Prefer": "count=exact"], status: 206,
            expect: .json(#"[{"id":1},{"id":2}]"#), expectHeaders: ["Content-Range": "0-1/15"], onSpecTables: true, settings: #""maxRows": 2"#),
        Case(
            name: "Limited estimated count above", method: "HEAD", target: "items", headers: ["Prefer": "count=estimated"], status: 206,
            expectHeaders: ["Content-Range": "0-1/15", "Content-Type": "application/json; charset=utf-8"], onSpecTables: true,
            settings: #""maxRows": 2"#),
        Case(
            name: "Limited estimated count within", method: "HEAD", target: "items?id=lt.3", headers: ["Prefer": "count=estimated"], status: 200,
            expectHeaders: ["Content-Range": "0-1/2", "Content-Type": "application/json; charset=utf-8"], onSpecTables: true,
            settings: #""maxRows": 2"#),
        Case(
            name: "Limited to-many spread", target: "clients?select=id,...projects(name)&order=id&projects.order=id", status: 200,
            expect: .json(#"[{"id":1,"name":["Windows 7"]}]"#), expectHeaders: ["Content-Range": "0-0/*"], onSpecTables: true,
            settings: #""maxRows": 1"#),
        Case(
            name: "Limited embed own limit", target: "clients?select=id,projects(id)&order=id&projects.order=id.desc&projects.limit=1", status: 200,
            expect: .json(#"[{"id":1,"projects":[{"id":2}]},{"id":2,"projects":[{"id":4}]}]"#), expectHeaders: ["Content-Range": "0-1/*"],
            onSpecTables: true, settings: #""maxRows": 2"#)
    ]

    /// The cases can fail: on the suites' default (no `db-max-rows`) the reads that `maxRows`
    /// cuts answer every row, and are rejected.
    func testLimitedCasesRejectAnEngineWithoutMaxRows() throws {
        var rejected: [String] = []
        for var c in Self.queryLimitedCases {
            c.settings = nil
            if try run(c) != nil { rejected.append(c.name) }
        }
        XCTAssertGreaterThanOrEqual(rejected.count, 8, "\(rejected)")
    }
}
