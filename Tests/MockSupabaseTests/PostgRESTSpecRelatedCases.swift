import XCTest
@testable import MockSupabase

/// Orders by a to-one related column inside an embed, a write's representation listed in the
/// request's top-level order, the canonical `Content-Location` of reads, an empty PATCH's
/// applied preferences, an upsert on a table without a primary key, CSV lines of unequal length
/// and JSON path operands that are neither index nor key, on `SpecTablesFixture`: the behaviour
/// RelatedQueriesSpec.hs, UpdateSpec.hs, DeleteSpec.hs, UpsertSpec.hs, InsertSpec.hs,
/// JsonOperatorSpec.hs and QuerySpec.hs ("canonical location") pin, in this corpus's own words.
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
            ))
    ])
}
