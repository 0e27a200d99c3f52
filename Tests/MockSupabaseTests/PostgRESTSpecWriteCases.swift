import XCTest
@testable import MockSupabase

/// Inserts, updates and deletes on `SpecTablesFixture`: representations and their headers,
/// `select=` on writes, `columns=`, `missing=default`, the body errors (PGRST102, PGRST204,
/// PGRST100 for `columns`), constraint errors, empty and whitespace-padded bodies: the
/// behaviour InsertSpec.hs, UpdateSpec.hs and DeleteSpec.hs pin, in this corpus's own words.
extension PostgRESTCaseCorpusTests {
    static let specWriteCases: [Case] = onSpecTables([
        Case(
            name: "wr select ignored without return", method: "POST", target: "projects?select=name,client_id",
            body: #"{"id":12,"name":"New Project","client_id":2}"#, status: 201,
            expect: .exact(""), expectHeaders: ["Content-Length": "0"], expectAbsent: ["Content-Type", "Location"]),
        Case(
            name: "wr select with representation and count", method: "POST", target: "projects?select=id,name,clients(id,name)",
            headers: ["Prefer": "return=representation, count=exact"],
            body: #"{"id":6,"name":"New Project","client_id":2}"#, status: 201,
            expect: .exact(#"[{"id":6,"name":"New Project","clients":{"id": 2, "name": "Apple"}}]"#),
            expectHeaders: ["Content-Range": "*/1", "Preference-Applied": "return=representation, count=exact"], expectAbsent: ["Location"]),
        Case(
            name: "wr rename and cast", method: "POST", target: "projects?select=pId:id::text,pName:name,cId:client_id::text",
            headers: ["Prefer": "return=representation"],
            body: #"{"id":7,"name":"New Project","client_id":2}"#, status: 201, expect: .exact(#"[{"pId":"7","pName":"New Project","cId":"2"}]"#),
            expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "wr headers-only location", method: "POST", target: "projects?select=name,client_id", headers: ["Prefer": "return=headers-only"],
            body: #"{"id":11,"name":"New Project","client_id":2}"#, status: 201, expect: .exact(""),
            expectHeaders: ["Location": "/projects?id=eq.11", "Content-Range": "*/*", "Preference-Applied": "return=headers-only"],
            expectAbsent: ["Content-Type"]),
        Case(
            name: "wr return=minimal applied", method: "POST", target: "simple_pk?select=k", headers: ["Prefer": "return=minimal"],
            body: #"{"k":"m1","extra":"e"}"#, status: 201,
            expect: .exact(""), expectHeaders: ["Preference-Applied": "return=minimal"], expectAbsent: ["Content-Type"]),
        Case(
            name: "wr mixed array", method: "POST", target: "articles", body: #"[{"id": 100, "body": "xxxxx"}, 123, "xxxx", {"id": 111, "body": "xxxx"}]"#,
            status: 400,
            expect: .exact(#"{"code":"PGRST102","details":null,"hint":null,"message":"All object keys must match"}"#)),
        Case(
            name: "wr different keys", method: "POST", target: "articles", body: #"[{"id": 100, "body": "xxxxx"}, {"id": 111, "body": "xxxx", "owner": "me"}]"#,
            status: 400,
            expect: .exact(#"{"code":"PGRST102","details":null,"hint":null,"message":"All object keys must match"}"#)),
        Case(
            name: "wr missing pk", method: "POST", target: "simple_pk", body: #"{"extra":"foo"}"#, status: 400,
            expect: .exact(
                #"{"code":"23502","details":"Failing row contains (null, foo).","hint":null,"message":"null value in column \"k\" of relation \"simple_pk\" violates not-null constraint"}"#
            )),
        Case(
            name: "wr no pk table", method: "POST", target: "no_pk", body: #"{"a":"foo","b":"bar"}"#, status: 201, expect: .exact(""),
            expectAbsent: ["Location", "Content-Type"]),
        Case(
            name: "wr no pk representation", method: "POST", target: "no_pk", headers: ["Prefer": "return=representation"], body: #"{"a":"bar","b":"baz"}"#,
            status: 201,
            expect: .exact(#"[{"a":"bar","b":"baz"}]"#), expectHeaders: ["Preference-Applied": "return=representation"], expectAbsent: ["Location"]),
        Case(
            name: "wr empty array representation", method: "POST", target: "no_pk", headers: ["Prefer": "return=representation"], body: "[]", status: 201,
            expect: .exact("[]")),
        Case(
            name: "wr post nulls", method: "POST", target: "no_pk", headers: ["Prefer": "return=representation"], body: #"{"a":null,"b":"foo"}"#, status: 201,
            expect: .exact(#"[{"a":null,"b":"foo"}]"#)),
        Case(
            name: "wr invalid json", method: "POST", target: "simple_pk", body: "}{ x = 2", status: 400,
            expect: .exact(#"{"code":"PGRST102","details":null,"hint":null,"message":"Empty or invalid json"}"#), expectHeaders: ["Content-Length": "80"]),
        Case(
            name: "wr empty body", method: "POST", target: "simple_pk", body: "", status: 400,
            expect: .exact(#"{"code":"PGRST102","details":null,"hint":null,"message":"Empty or invalid json"}"#)),
        Case(
            name: "wr duplicate pk", method: "POST", target: "simple_pk", body: #"{"k":"xyyx","extra":"e1"}"#, status: 409,
            expect: .exact(
                #"{"code":"23505","details":"Key (k)=(xyyx) already exists.","hint":null,"message":"duplicate key value violates unique constraint \"simple_pk_pkey\""}"#
            )),
        Case(
            name: "wr json object", method: "POST", target: "json_table", headers: ["Prefer": "return=representation"], body: #"{"data":{"foo":"bar"}}"#,
            status: 201, expect: .json(#"[{"data":{"foo":"bar"}}]"#)),
        Case(name: "wr all defaults", method: "POST", target: "items", body: "{}", status: 201, expect: .exact(""), expectAbsent: ["Content-Type"]),
        Case(
            name: "wr all defaults representation", method: "POST", target: "items", headers: ["Prefer": "return=representation"], body: "[{}, {}]",
            status: 201, expect: .exact(#"[{"id":16}, "# + "\n " + #"{"id":17}]"#)),
        Case(
            name: "wr all defaults empty select", method: "POST", target: "items?select=id", headers: ["Prefer": "return=representation"], body: "{}",
            status: 201, expect: .exact(#"[{"id":16}]"#)),
        Case(
            name: "wr whitespace padding", method: "POST", target: "json_table", headers: ["Prefer": "return=representation"],
            body: "\t \n \r [{ \"data\": { \"foo\":\"bar\" } }, \t \n \r {\"data\": 34}]\t \n \r ", status: 201,
            expect: .json(#"[{"data":{"foo":"bar"}},{"data":34}]"#)),
        Case(
            name: "wr columns ignores other keys", method: "POST", target: "articles?columns=id,body", headers: ["Prefer": "return=representation"],
            body: #"{"id": 200, "body": "xxx", "smth": "here", "other": "stuff", "fake_id": 13}"#, status: 201,
            expect: .exact(#"[{"id":200,"body":"xxx","owner":"postgrest_test_anonymous"}]"#)),
        Case(
            name: "wr columns bulk", method: "POST", target: "articles?columns=id,body&select=id,body", headers: ["Prefer": "return=representation"],
            body:
                #"[{"id": 201, "body": "yyy", "smth": "here"}, {"id": 202, "body": "zzz", "garbage": "%%$&", "kkk": "jjj"}, {"id": 203, "body": "aaa", "hey": "ho"}]"#,
            status: 201,
            expect: .json(#"[{"id":201,"body":"yyy"},{"id":202,"body":"zzz"},{"id":203,"body":"aaa"}]"#)),
        Case(
            name: "wr blank columns", method: "POST", target: "articles?columns=", body: #"[{"id": 204, "body": "yyy"}]"#, status: 400,
            expect: .exact(
                #"{"code":"PGRST100","details":"unexpected end of input expecting field name (* or [a..z0..9_$])","hint":null,"message":"\"failed to parse columns parameter ()\" (line 1, column 1)"}"#
            )),
        Case(
            name: "wr unknown columns", method: "POST", target: "articles?columns=helicopter", body: #"[{"id": 204, "body": "yyy"}]"#, status: 400,
            expect: .exact(
                #"{"code":"PGRST204","details":null,"hint":null,"message":"Could not find the 'helicopter' column of 'articles' in the schema cache"}"#)),
        Case(
            name: "wr unknown table before columns", method: "POST", target: "garlic?columns=helicopter", body: #"[{"id": 204, "body": "yyy"}]"#, status: 404,
            expect: .exact(#"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'test.garlic' in the schema cache"}"#)),
        Case(
            name: "wr columns non-objects", method: "POST", target: "articles?columns=id,body", body: #"[{"id": 204, "body": "yyy"}, 333, "asdf"]"#, status: 400
        ),
        Case(
            name: "wr missing default", method: "POST", target: "complex_items?columns=id,name,field-with_sep,arr_data",
            headers: ["Prefer": "return=representation, missing=default"],
            body:
                #"[{"id": 4, "name": "Vier"}, {"id": 5, "name": "Funf", "arr_data": null}, {"id": 6, "name": "Sechs", "field-with_sep": 6, "arr_data": "{1,2,3}"}]"#,
            status: 201,
            expect: .json(
                #"[{"id":4,"name":"Vier","settings":null,"arr_data":null,"field-with_sep":1},{"id":5,"name":"Funf","settings":null,"arr_data":null,"field-with_sep":1},{"id":6,"name":"Sechs","settings":null,"arr_data":[1,2,3],"field-with_sep":6}]"#
            ),
            expectHeaders: ["Preference-Applied": "missing=default, return=representation"]),
        Case(
            name: "wr unicode", method: "POST", target: "simple_pk?select=extra,k", headers: ["Prefer": "return=representation"],
            body: #"{"k":"棋圍","extra":"￥"}"#, status: 201,
            expect: .exact(#"[{"extra":"￥","k":"棋圍"}]"#)),
        // Updates
        Case(name: "up unknown table", method: "PATCH", target: "fake_table?id=eq.1", body: #"{"id":1}"#, status: 404),
        Case(
            name: "up invalid json", method: "PATCH", target: "simple_pk?k=eq.xyyx", body: "}{ x = 2", status: 400,
            expect: .exact(#"{"code":"PGRST102","details":null,"hint":null,"message":"Empty or invalid json"}"#)),
        Case(
            name: "up no rows 204", method: "PATCH", target: "items?id=eq.99999999", body: #"{"id":100}"#, status: 204, expect: .exact(""),
            expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "up no rows representation", method: "PATCH", target: "items?id=eq.99999999", headers: ["Prefer": "return=representation"],
            body: #"{"id":100}"#, status: 200, expect: .exact("[]")),
        Case(
            name: "up one representation", method: "PATCH", target: "items?id=eq.2", headers: ["Prefer": "return=representation"], body: #"{"id":99}"#,
            status: 200,
            expect: .exact(#"[{"id":99}]"#), expectHeaders: ["Content-Range": "0-0/*"]),
        Case(name: "up many count", method: "PATCH", target: "items?id=lt.4", headers: ["Prefer": "count=exact"], body: #"{"id":99}"#, status: 409),
        Case(
            name: "up set null", method: "PATCH", target: "no_pk?a=eq.1", headers: ["Prefer": "return=representation"], body: #"{"b":null}"#, status: 200,
            expect: .exact(#"[{"a":"1","b":null}]"#)),
        Case(
            name: "up representation select", method: "PATCH", target: "projects?id=eq.1&select=id,name,clients(name)",
            headers: ["Prefer": "return=representation"], body: #"{"name":"Windows 7 SP1"}"#, status: 200,
            expect: .exact(#"[{"id":1,"name":"Windows 7 SP1","clients":{"name": "Microsoft"}}]"#)),
        Case(
            name: "up select ignored minimal", method: "PATCH", target: "projects?id=eq.1&select=id", headers: ["Prefer": "return=minimal"],
            body: #"{"name":"x"}"#, status: 204,
            expect: .exact(""), expectHeaders: ["Preference-Applied": "return=minimal"]),
        Case(
            name: "up empty body", method: "PATCH", target: "items?id=eq.1", body: "{}", status: 204, expect: .exact(""),
            expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "up empty body representation", method: "PATCH", target: "items?id=eq.1", headers: ["Prefer": "return=representation"], body: "{}",
            status: 200, expect: .exact("[]")),
        Case(
            name: "up empty array body", method: "PATCH", target: "items", body: "[]", status: 204, expect: .exact(""), expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "up array of empty object", method: "PATCH", target: "items?select=id", headers: ["Prefer": "return=representation"], body: "[{}]",
            status: 200, expect: .exact("[]")),
        Case(
            name: "up columns ignores keys", method: "PATCH", target: "articles?id=eq.1&columns=body", headers: ["Prefer": "return=representation"],
            body: #"{"body":"new","owner":"x"}"#, status: 200,
            expect: .json(#"[{"id":1,"body":"new","owner":"diogo"}]"#)),
        Case(
            name: "up unknown columns", method: "PATCH", target: "articles?id=eq.1&columns=helicopter", body: #"{"body":"new"}"#, status: 400,
            expect: .exact(
                #"{"code":"PGRST204","details":null,"hint":null,"message":"Could not find the 'helicopter' column of 'articles' in the schema cache"}"#)),
        Case(
            name: "up missing default", method: "PATCH", target: "complex_items?id=eq.3&columns=name,field-with_sep&select=id,name,arr_data,field-with_sep",
            headers: ["Prefer": "return=representation, missing=default"], body: #"{"name": "Tres"}"#, status: 200,
            expect: .exact(#"[{"id":3,"name":"Tres","arr_data":[1,2,3],"field-with_sep":1}]"#),
            expectHeaders: ["Preference-Applied": "missing=default, return=representation"]),
        Case(
            name: "up order embedded", method: "PATCH", target: "projects?id=in.(1,2)&select=id,tasks(id)&tasks.order=id.desc&order=id",
            headers: ["Prefer": "return=representation"], body: #"{"client_id":2}"#, status: 200,
            expect: .exact(#"[{"id":1,"tasks":[{"id": 2}, {"id": 1}]}, "# + "\n " + #"{"id":2,"tasks":[{"id": 4}, {"id": 3}]}]"#)),
        // Deletes
        Case(
            name: "de one 204", method: "DELETE", target: "items?id=eq.1", status: 204, expect: .exact(""), expectHeaders: ["Content-Range": "*/*"],
            expectAbsent: ["Content-Type"]),
        Case(
            name: "de representation", method: "DELETE", target: "items?id=eq.1", headers: ["Prefer": "return=representation"], status: 200,
            expect: .exact(#"[{"id":1}]"#), expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "de select representation", method: "DELETE", target: "complex_items?id=eq.3&select=ciId:id::text,ciName:name",
            headers: ["Prefer": "return=representation"], status: 200,
            expect: .exact(#"[{"ciId":"3","ciName":"Three"}]"#)),
        Case(
            name: "de embedded representation", method: "DELETE", target: "tasks?id=eq.8&select=id,name,project:projects(id)",
            headers: ["Prefer": "return=representation"], status: 200,
            expect: .exact(#"[{"id":8,"name":"Code OSX","project":{"id": 4}}]"#)),
        Case(
            name: "de count", method: "DELETE", target: "items?id=lt.4", headers: ["Prefer": "count=exact"], status: 204,
            expectHeaders: ["Content-Range": "*/3"]),
        Case(name: "de none", method: "DELETE", target: "items?id=eq.99999", headers: ["Prefer": "return=representation"], status: 200, expect: .exact("[]")),
        Case(name: "de unknown table", method: "DELETE", target: "fake_table?id=eq.1", status: 404),
        Case(name: "de unknown column", method: "DELETE", target: "items?fake=eq.1", status: 400)
    ])
}
