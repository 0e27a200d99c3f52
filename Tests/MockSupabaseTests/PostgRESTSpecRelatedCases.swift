import XCTest
@testable import MockSupabase

/// Orders by a to-one related column inside an embed, a write's representation listed in the
/// request's top-level order, the canonical `Content-Location` of reads, an empty PATCH's
/// applied preferences, an upsert on a table without a primary key, CSV lines of unequal length
/// and JSON path operands that are neither index nor key, on `SpecTablesFixture`: the behaviour
/// RelatedQueriesSpec.hs, UpdateSpec.hs, DeleteSpec.hs, UpsertSpec.hs, InsertSpec.hs,
/// planned counts (estimates checked against PostgreSQL 15's EXPLAIN on the same rows), a
/// two-dimensional array read by arrows, `->>` on a `json` column:
/// JsonOperatorSpec.hs, RangeSpec.hs and QuerySpec.hs ("canonical location") pin, in this corpus's own words.
extension PostgRESTCaseCorpusTests {
    static let specRelatedCases: [Case] = onSpecTables([
        // Related orders inside an embed
        Case(
            name: "embed ordered by to-one column desc", target: "users?select=name,tasks(id,projects(id))&tasks.order=projects(id).desc,id.desc&id=eq.1",
            status: 200,
            expect: .exact(
                #"[{"name":"Angela Martin","tasks":[{"id": 4, "projects": {"id": 2}}, {"id": 3, "projects": {"id": 2}}, {"id": 2, "projects": {"id": 1}}, {"id": 1, "projects": {"id": 1}}]}]"#
            )),
        Case(
            name: "embed ordered by to-one column then own column",
            target: "users?select=id,tasks(name,projects(name))&tasks.order=projects(name).asc,name.desc&id=eq.1",
            status: 200,
            expect: .exact(
                #"[{"id":1,"tasks":[{"name": "Design w10", "projects": {"name": "Windows 10"}}, {"name": "Code w10", "projects": {"name": "Windows 10"}}, {"name": "Design w7", "projects": {"name": "Windows 7"}}, {"name": "Code w7", "projects": {"name": "Windows 7"}}]}]"#
            )),
        Case(
            name: "embed ordered by to-many column", target: "clients?select=id,projects(id,tasks(id))&projects.order=tasks(id)", status: 400,
            expect: .json(
                #"{"code":"PGRST118","details":"'projects' and 'tasks' do not form a many-to-one or one-to-one relationship","hint":null,"message":"A related order on 'tasks' is not possible"}"#
            )),
        // A write's representation follows `order`
        Case(
            name: "patch representation ordered", method: "PATCH", target: "no_pk?order=a.desc", headers: ["Prefer": "return=representation"],
            body: #"{"b":"1"}"#, status: 200, expect: .json(#"[{"a":null,"b":"1"},{"a":"2","b":"1"},{"a":"1","b":"1"}]"#)),
        Case(
            name: "delete representation ordered", method: "DELETE", target: "items?id=lt.4&order=id.desc&select=id",
            headers: ["Prefer": "return=representation"],
            status: 200, expect: .json(#"[{"id":3},{"id":2},{"id":1}]"#)),
        Case(
            name: "insert representation ordered", method: "POST", target: "items?order=id.desc&select=id", headers: ["Prefer": "return=representation"],
            body: #"[{"id":20},{"id":22},{"id":21}]"#, status: 201, expect: .json(#"[{"id":22},{"id":21},{"id":20}]"#)),
        // Content-Location of reads
        Case(
            name: "content-location sorted", target: "no_pk?b=eq.1&a=eq.1", status: 200, expect: .exact("[]"),
            expectHeaders: ["Content-Location": "/no_pk?a=eq.1&b=eq.1"]),
        Case(name: "content-location bare", target: "simple_pk", status: 200, expectHeaders: ["Content-Location": "/simple_pk"]),
        Case(
            name: "content-location encoded", target: "projects?select=id,clients(name)&id=eq.1", status: 200,
            expectHeaders: ["Content-Location": "/projects?id=eq.1&select=id%2Cclients%28name%29"]),
        Case(
            name: "content-location repeated name", target: "items?id=gt.1&select=id&id=lt.3", status: 200, expect: .json(#"[{"id":2}]"#),
            expectHeaders: ["Content-Location": "/items?id=gt.1,lt.3&select=id"]),
        // Writes: preferences and payload corners
        Case(
            name: "empty patch applies return", method: "PATCH", target: "items?select=id", headers: ["Prefer": "return=representation"], body: "{}",
            status: 200, expect: .exact("[]"), expectHeaders: ["Content-Range": "*/*", "Preference-Applied": "return=representation"]),
        Case(
            name: "upsert without primary key inserts", method: "POST", target: "no_pk",
            headers: ["Prefer": "return=representation,resolution=merge-duplicates"], body: #"[{"a":"1","b":"0"}]"#, status: 201,
            expect: .json(#"[{"a":"1","b":"0"}]"#), expectHeaders: ["Preference-Applied": "return=representation"]),
        Case(
            name: "upsert without primary key keeps the old row", method: "POST", target: "no_pk",
            headers: ["Prefer": "return=minimal,resolution=merge-duplicates,count=exact"], body: #"{"a":"1","b":"7"}"#, status: 201,
            expectHeaders: ["Content-Range": "*/1"]),
        Case(
            name: "csv short line", method: "POST", target: "no_pk", headers: ["Content-Type": "text/csv"], body: "a,b\nx,y\nz", status: 400,
            expect: .json(#"{"code":"PGRST102","details":null,"hint":null,"message":"All lines must have same number of fields"}"#)),
        // JSON path operands
        Case(
            name: "arrow then parenthesis", target: "json_arr?select=data->(a", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \"(\" expecting \"-\", digit or any non reserved character different from: .,>()","hint":null,"message":"\"failed to parse select parameter (data->(a)\" (line 1, column 7)"}"#
            )),
        Case(
            name: "arrow then two dashes", target: "json_arr?select=data->>--34", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \"-\" expecting digit","hint":null,"message":"\"failed to parse select parameter (data->>--34)\" (line 1, column 9)"}"#
            )),
        // Planned counts: the planner's estimate (PostgreSQL 15 EXPLAIN after ANALYZE gives 8, 4, 6, 15)
        Case(
            name: "planned count interior bin", target: "items?select=id&id=gt.8", headers: ["Prefer": "count=planned"], status: 206,
            expect: .json(#"[{"id":9},{"id":10},{"id":11},{"id":12},{"id":13},{"id":14},{"id":15}]"#), expectHeaders: ["Content-Range": "0-6/8"]),
        Case(
            name: "planned count small table", target: "child_entities?select=id&id=gt.3", headers: ["Prefer": "count=planned"], status: 206,
            expectHeaders: ["Content-Range": "0-2/4"]),
        Case(
            name: "planned count below", target: "items?select=id&id=lt.8&limit=2", headers: ["Prefer": "count=planned"], status: 206,
            expectHeaders: ["Content-Range": "0-1/6"]),
        Case(
            name: "planned count whole table", method: "HEAD", target: "items", headers: ["Prefer": "count=planned"], status: 200,
            expectHeaders: ["Content-Range": "0-14/15"]),
        // A two-dimensional array
        Case(
            name: "array arrows two levels", target: "arrays?select=a:numbers->0,c:numbers_mult->0->0,d:numbers_mult->1->>2&order=id", status: 200,
            expect: .json(#"[{"a":1,"c":1,"d":"6"},{"a":11,"c":11,"d":"16"}]"#)),
        Case(name: "array arrows filter", target: "arrays?select=id&numbers_mult->2->>2=eq.19", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(name: "array arrows order", target: "arrays?select=id&order=numbers_mult->0->0.desc", status: 200, expect: .json(#"[{"id":1},{"id":0}]"#)),
        Case(
            name: "two-dimensional array printed", target: "arrays?select=numbers_mult&id=eq.0", status: 200,
            expect: .exact(#"[{"numbers_mult":[[1,2,3],[4,5,6],[7,8,9]]}]"#)),
        // `->>` on a json column
        Case(
            name: "json column double arrow on array", target: "json_arr?select=data->0->>a&id=in.(5,6)&order=id", status: 200,
            expect: .json(#"[{"a":"A"},{"a":"[1,2,3]"}]"#)),
        // Embeds through composite foreign keys
        Case(
            name: "many-to-many through composite keys", target: "users_tasks?user_id=eq.1&task_id=eq.1&select=user_id,files(filename)&files.order=filename",
            status: 200, expect: .json(#"[{"user_id":1,"files":[{"filename":"README.md"},{"filename":"autoexec.bat"},{"filename":"command.com"}]}]"#)),
        Case(
            name: "one-to-many by composite key", target: "users_tasks?user_id=eq.2&task_id=eq.6&select=*,comments(content)", status: 200,
            expect: .json(#"[{"user_id":2,"task_id":6,"comments":[{"content":"Needs to be delivered ASAP"}]}]"#))
    ])
}
