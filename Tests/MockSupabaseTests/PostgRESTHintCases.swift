import XCTest
@testable import MockSupabase

extension PostgRESTCaseCorpusTests {
    /// Schema-cache errors as PostgREST's suites pin them on the `test` schema (ErrorSpec "show
    /// hint on PGRST205", QuerySpec's partition blocks, UpdateSpec's missing table), answered with
    /// `FuzzyNameSet`'s hints and the contract's exposed schema in every message.
    static let hintCases: [Case] = onSpecTables([
        Case(
            name: "hint: nonexistent table", target: "faketable", status: 404,
            expect: .exact(#"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'test.faketable' in the schema cache"}"#),
            expectHeaders: ["Content-Length": "120"]),
        Case(
            name: "hint: at least 75% similar", target: "projectx", status: 404,
            expect: .exact(
                #"{"code":"PGRST205","details":null,"hint":"Perhaps you meant the table 'test.projects'","message":"Could not find the table 'test.projectx' in the schema cache"}"#
            ), expectHeaders: ["Proxy-Status": "PostgREST; error=PGRST205", "Content-Length": "160"]),
        Case(
            name: "hint: two letters off, still 75% similar", target: "projecxx", status: 404,
            expect: .exact(
                #"{"code":"PGRST205","details":null,"hint":"Perhaps you meant the table 'test.projects'","message":"Could not find the table 'test.projecxx' in the schema cache"}"#
            ), expectHeaders: ["Proxy-Status": "PostgREST; error=PGRST205", "Content-Length": "160"]),
        Case(
            name: "hint: less than 75% similar", target: "projxxxx", status: 404,
            expect: .exact(#"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'test.projxxxx' in the schema cache"}"#),
            expectHeaders: ["Proxy-Status": "PostgREST; error=PGRST205", "Content-Length": "119"]),
        // QuerySpec "table not found error if first table does not exist": a partition's name is
        // 68% like its parent's, under the table hint's 75%.
        Case(
            name: "hint: partition name as the first table", target: "car_model_sales_202101?select=id,name,car_models(id,name)&order=id.asc", status: 404,
            expect: .json(
                #"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'test.car_model_sales_202101' in the schema cache"}"#)),
        Case(
            name: "hint: default partition as the first table", target: "car_models_default?select=id,name,car_model_sales(id,name)&order=id.asc", status: 404,
            expect: .json(
                #"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'test.car_models_default' in the schema cache"}"#)),
        // QuerySpec "cannot request partitions as children" / "a partition as parent": the
        // relationship hint uses getOne's 33%.
        Case(
            name: "hint: partition as child", target: "car_models?id=in.(1,2,4)&select=id,name,car_model_sales_202101(id)&order=id.asc", status: 400,
            expect: .json(
                #"{"hint":"Perhaps you meant 'car_model_sales' instead of 'car_model_sales_202101'.","details":"Searched for a foreign key relationship between 'car_models' and 'car_model_sales_202101' in the schema 'test', but no matches were found.","code":"PGRST200","message":"Could not find a relationship between 'car_models' and 'car_model_sales_202101' in the schema cache"}"#
            ), expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
        Case(
            name: "hint: partition as parent", target: "car_model_sales?id=in.(1,3,4)&select=id,name,car_models_default(id,name)&order=id.asc", status: 400,
            expect: .json(
                #"{"hint":"Perhaps you meant 'car_models' instead of 'car_models_default'.","details":"Searched for a foreign key relationship between 'car_model_sales' and 'car_models_default' in the schema 'test', but no matches were found.","code":"PGRST200","message":"Could not find a relationship between 'car_model_sales' and 'car_models_default' in the schema cache"}"#
            )),
        // EmbedDisambiguationSpec "fails if the fk is not known": both tables found, so no hint.
        Case(
            name: "hint: unknown fk hint", target: "message?select=id,sender:person!space(name)&id=lt.4", status: 400,
            expect: .json(
                #"{"hint":null,"message":"Could not find a relationship between 'message' and 'person' in the schema cache","code":"PGRST200","details":"Searched for a foreign key relationship between 'message' and 'person' using the hint 'space' in the schema 'test', but no matches were found."}"#
            )),
        // UpdateSpec / InsertSpec "returns missing table error even if also has invalid ?columns".
        Case(
            name: "hint: patch missing table before columns", method: "PATCH", target: "garlic?columns=helicopter",
            headers: ["Prefer": "return=representation"], body: #"[{"id": 204, "body": "yyy"}, {"id": 205, "body": "zzz"}]"#, status: 404,
            expect: .json(#"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'test.garlic' in the schema cache"}"#),
            expectHeaders: ["Content-Length": "117"]),
        Case(
            name: "hint: post missing table before columns", method: "POST", target: "garlic?columns=helicopter",
            body: #"[{"id": 204, "body": "yyy"}, {"id": 205, "body": "zzz"}]"#, status: 404,
            expect: .json(#"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'test.garlic' in the schema cache"}"#)),
        // The exposed schema names PGRST106's list.
        Case(
            name: "hint: profile outside the exposed schemas", target: "projects", headers: ["Accept-Profile": "public"], status: 406,
            expect: .json(#"{"code":"PGRST106","details":null,"hint":"Only the following schemas are exposed: test","message":"Invalid schema: public"}"#)),
        Case(
            name: "hint: the exposed schema as profile", target: "projects?select=id&id=eq.1", headers: ["Accept-Profile": "test"], status: 200,
            expect: .json(#"[{"id":1}]"#), expectHeaders: ["Content-Profile": "test"]),
        Case(
            name: "hint: no profile, one schema", target: "projects?select=id&id=eq.1", status: 200, expect: .json(#"[{"id":1}]"#),
            expectAbsent: ["Content-Profile"]),
        // A write names its schema in Content-Profile; Accept-Profile is not read for it.
        Case(
            name: "hint: a write's profile is Content-Profile", method: "PATCH", target: "projects?id=eq.1", headers: ["Accept-Profile": "nope"],
            body: #"{"name": "Windows 7"}"#, status: 204, expectAbsent: ["Content-Profile"]),
        Case(
            name: "hint: a written representation carries the profile", method: "PATCH", target: "projects?id=eq.1&select=id",
            headers: ["Content-Profile": "test", "Prefer": "return=representation"], body: #"{"name": "Windows 7"}"#, status: 200,
            expect: .json(#"[{"id":1}]"#), expectHeaders: ["Content-Profile": "test"])
    ])
}
