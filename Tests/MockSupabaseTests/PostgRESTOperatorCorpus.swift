import XCTest
@testable import MockSupabase

/// More corpus cases: full-text search and the operators PostgREST has for types the contract
/// format cannot hold (QuerySpec "text search", SqlFragment.hs `simpleOperator`/`ftsOperator`),
/// and the `Prefer` header (Preferences/HandlingSpec, MaxAffectedSpec, TimezoneSpec; Response.hs
/// `responsePreferences`). Sentences and rows are the fixture's own (`quotes`); every expected
/// row set and error text below was produced by PostgreSQL 15 running the SQL PostgREST builds
/// (`to_tsvector([lang,] col) @@ to_tsquery([lang,] 'value')`, `col << 'value'`, …).
extension PostgRESTCaseCorpusTests {
    static func ids(_ ns: [Int]) -> Body { .json("[" + ns.map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]") }
    static func pgError(_ code: String, _ message: String, details: String? = nil, hint: String? = nil) -> Body {
        var o: [String: JSONValue] = ["code": .string(code), "message": .string(message), "details": .null, "hint": .null]
        if let details { o["details"] = .string(details) }
        if let hint { o["hint"] = .string(hint) }
        return .json(JSONValue.object(o).serialized())
    }
    static let noOperator = "No operator matches the given name and argument types. You might need to add explicit type casts."
    static let noFunction = "No function matches the given name and argument types. You might need to add explicit type casts."

    static let searchCases: [Case] = [
        Case(name: "fts stems the query", target: "quotes?select=id&order=id&body=fts.rocket", status: 200, expect: ids([1, 2])),
        Case(name: "fts and", target: "quotes?select=id&order=id&body=fts.launch%26dawn", status: 200, expect: ids([1])),
        Case(name: "fts or", target: "quotes?select=id&order=id&body=fts.rocket%7Cpark", status: 200, expect: ids([1, 2, 3, 5])),
        Case(name: "fts and not", target: "quotes?select=id&order=id&body=fts.rocket%26!launch", status: 200, expect: ids([2])),
        Case(name: "fts prefix", target: "quotes?select=id&order=id&body=fts.run:*", status: 200, expect: ids([3])),
        Case(name: "fts prefix and", target: "quotes?select=id&order=id&body=fts.design:*%26rocket", status: 200, expect: ids([2])),
        Case(name: "fts hyphenated word", target: "quotes?select=id&order=id&body=fts.self-driving", status: 200, expect: ids([5])),
        Case(name: "fts groups", target: "quotes?select=id&order=id&body=fts.(rocket%20%7C%20cat)%20%26%20!impossible", status: 200, expect: ids([1, 3])),
        Case(name: "fts distance", target: "quotes?select=id&order=id&body=fts.rocket%20%3C2%3E%20launch", status: 200, expect: ids([1])),
        Case(name: "plfts drops stop words", target: "quotes?select=id&order=id&body=plfts.the%20launched%20rockets", status: 200, expect: ids([1])),
        Case(name: "phfts in order", target: "quotes?select=id&order=id&body=phfts.better%20rockets", status: 200, expect: ids([2])),
        Case(name: "phfts out of order", target: "quotes?select=id&order=id&body=phfts.rockets%20better", status: 200, expect: .exact("[]")),
        Case(name: "phfts stop word gap", target: "quotes?select=id&order=id&body=phfts.rockets%20were%20launched", status: 200, expect: ids([1])),
        Case(name: "wfts phrase or", target: "quotes?select=id&order=id&body=wfts.%22launched%20quickly%22%20or%20park", status: 200, expect: ids([1, 3, 5])),
        Case(name: "wfts minus", target: "quotes?select=id&order=id&body=wfts.rockets%20-impossible", status: 200, expect: ids([1])),
        Case(name: "fts simple keeps stop words", target: "quotes?select=id&order=id&body=fts(simple).the", status: 200, expect: ids([1, 3])),
        Case(name: "fts only stop words", target: "quotes?select=id&order=id&body=fts.the", status: 200, expect: .exact("[]")),
        Case(name: "fts french", target: "quotes?select=id&order=id&body=fts(french).amusant", status: 200, expect: ids([4])),
        Case(name: "fts on jsonb strings", target: "quotes?select=id&order=id&meta=fts.rocket", status: 200, expect: ids([1, 2])),
        Case(name: "not fts", target: "quotes?select=id&order=id&body=not.fts.rocket", status: 200, expect: ids([3, 4, 5])),
        Case(name: "fts in logic tree", target: "quotes?select=id&order=id&or=(body.fts.rocket,n.eq.3)", status: 200, expect: ids([1, 2, 3])),
        Case(name: "fts syntax error", target: "quotes?body=fts.fat%20rat", status: 400, expect: pgError("42601", #"syntax error in tsquery: "fat rat""#)),
        Case(
            name: "fts unknown configuration", target: "quotes?body=fts(klingon).x", status: 400,
            expect: pgError("42704", #"text search configuration "klingon" does not exist"#)),
        Case(
            name: "fts on integer", target: "quotes?n=fts.x", status: 404,
            expect: pgError("42883", "function to_tsvector(integer) does not exist", hint: noFunction)),
        Case(
            name: "fts with language on integer", target: "quotes?n=fts(english).x", status: 404,
            expect: pgError("42883", "function to_tsvector(unknown, integer) does not exist", hint: noFunction)),
        // Range operators on the types the contract format holds.
        Case(
            name: "sl on integer is a shift", target: "quotes?n=sl.1", status: 400,
            expect: pgError("42804", "argument of WHERE must be type boolean, not type integer")),
        Case(
            name: "sl on integer reads the literal first", target: "quotes?n=sl.(1,2)", status: 400,
            expect: pgError("22P02", #"invalid input syntax for type integer: "(1,2)""#)),
        Case(
            name: "sl on text", target: "quotes?body=sl.x", status: 404, expect: pgError("42883", "operator does not exist: text << unknown", hint: noOperator)),
        Case(
            name: "adj on text", target: "quotes?body=adj.x", status: 404,
            expect: pgError("42883", "operator does not exist: text -|- unknown", hint: noOperator)),
        Case(
            name: "adj on integer", target: "quotes?n=adj.1", status: 404,
            expect: pgError("42883", "operator does not exist: integer -|- unknown", hint: noOperator)),
        Case(
            name: "ov on text", target: "quotes?body=ov.x", status: 404, expect: pgError("42883", "operator does not exist: text && unknown", hint: noOperator)),
        Case(
            name: "cs on integer", target: "quotes?n=cs.1", status: 404,
            expect: pgError("42883", "operator does not exist: integer @> unknown", hint: noOperator))
    ]

    static let preferenceCases: [Case] = [
        Case(
            name: "strict refuses unknown preferences", target: "users?select=id", headers: ["Prefer": "handling=strict, anything"], status: 400,
            expect: pgError("PGRST122", "Invalid preferences given with handling=strict", details: "Invalid preferences: anything")),
        Case(
            name: "strict across Prefer headers", target: "users?select=id", headers: ["Prefer": "handling=strict", "Prefer": "some, other"], status: 400,
            expect: pgError("PGRST122", "Invalid preferences given with handling=strict", details: "Invalid preferences: some, other")),
        Case(
            name: "lenient ignores them", target: "users?select=id&id=eq.1", headers: ["Prefer": "handling=lenient, anything"], status: 200,
            expect: ids([1]), expectHeaders: ["Preference-Applied": "handling=lenient"]),
        Case(
            name: "read echoes count and handling", target: "users?select=id&id=eq.1", headers: ["Prefer": "handling=lenient, count=exact"], status: 200,
            expectHeaders: ["Preference-Applied": "count=exact, handling=lenient", "Content-Range": "0-0/1"]),
        Case(
            name: "read does not echo return", target: "users?select=id&id=eq.1", headers: ["Prefer": "return=representation"], status: 200,
            expectAbsent: ["Preference-Applied"]),
        Case(
            name: "tx is not applied", target: "users?select=id&id=eq.1", headers: ["Prefer": "tx=rollback"], status: 200, expectAbsent: ["Preference-Applied"]),
        Case(
            name: "timezone echoed", target: "users?select=id&id=eq.1", headers: ["Prefer": "timezone=America/Los_Angeles"], status: 200,
            expectHeaders: ["Preference-Applied": "timezone=America/Los_Angeles"]),
        Case(
            name: "bad timezone", target: "users?select=id", headers: ["Prefer": "handling=lenient, timezone=Nowhere/Atlantis"], status: 400,
            expect: pgError("22023", #"invalid value for parameter "TimeZone": "Nowhere/Atlantis""#)),
        Case(
            name: "max-affected exceeded", method: "DELETE", target: "labels?id=gt.0", headers: ["Prefer": "handling=strict, max-affected=1"], status: 400,
            expect: pgError("PGRST124", "Query result exceeds max-affected preference constraint", details: "The query affects 2 rows")),
        Case(
            name: "max-affected within", method: "DELETE", target: "labels?id=gt.0", headers: ["Prefer": "handling=strict, max-affected=2"], status: 204,
            expectHeaders: ["Preference-Applied": "handling=strict, max-affected=2"]),
        Case(
            name: "max-affected lenient", method: "DELETE", target: "labels?id=gt.0", headers: ["Prefer": "handling=lenient, max-affected=1"], status: 204,
            expectHeaders: ["Preference-Applied": "handling=lenient"]),
        Case(
            name: "max-affected on update", method: "PATCH", target: "users?id=gt.1", headers: ["Prefer": "handling=strict, max-affected=1"],
            body: #"{"name":"Z"}"#, status: 400,
            expect: pgError("PGRST124", "Query result exceeds max-affected preference constraint", details: "The query affects 2 rows")),
        Case(
            name: "max-affected alone is not applied", method: "PATCH", target: "users?id=eq.1", headers: ["Prefer": "max-affected=5"], body: #"{"name":"Z"}"#,
            status: 204,
            expectAbsent: ["Preference-Applied"]),
        Case(
            name: "insert echo order", method: "POST", target: "users?select=id,name",
            headers: ["Prefer": "handling=lenient, count=exact, return=representation, missing=default, resolution=merge-duplicates"],
            body: #"{"id":9,"name":"Nia"}"#, status: 201,
            expect: .json(#"[{"id":9,"name":"Nia"}]"#),
            expectHeaders: [
                "Preference-Applied": "resolution=merge-duplicates, missing=default, return=representation, count=exact, handling=lenient",
                "Content-Range": "*/1"
            ]),
        Case(
            name: "first preference wins", method: "POST", target: "users", headers: ["Prefer": "return=minimal, return=representation"],
            body: #"{"id":8,"name":"Oz"}"#, status: 201,
            expect: .exact(""), expectHeaders: ["Preference-Applied": "return=minimal"]),
        Case(
            name: "put does not echo missing", method: "PUT", target: "users?id=eq.1", headers: ["Prefer": "return=representation, missing=default"],
            body: #"{"id":1,"name":"Ada"}"#, status: 200,
            expect: .json(#"[{"id":1,"name":"Ada"}]"#), expectHeaders: ["Preference-Applied": "return=representation"]),
        Case(
            name: "update echoes missing", method: "PATCH", target: "users?id=eq.1", headers: ["Prefer": "missing=default, return=minimal"],
            body: #"{"name":"Ada"}"#, status: 204,
            expectHeaders: ["Preference-Applied": "missing=default, return=minimal"]),
        Case(
            name: "strict on a write", method: "POST", target: "users", headers: ["Prefer": "return=representation, handling=strict, nope"],
            body: #"{"id":7,"name":"Q"}"#, status: 400,
            expect: pgError("PGRST122", "Invalid preferences given with handling=strict", details: "Invalid preferences: nope"))
    ]

    /// Refused input: PostgreSQL's own error texts (checked on PostgreSQL 15 with the same
    /// statements) and PostgREST's schema-cache errors.
    static let errorCases: [Case] = [
        Case(
            name: "unknown column near a real one", target: "clients?select=nam", status: 400,
            expect: pgError("42703", "column clients.nam does not exist", hint: #"Perhaps you meant to reference the column "clients.name"."#)),
        Case(name: "unknown column", target: "clients?select=foo", status: 400, expect: pgError("42703", "column clients.foo does not exist")),
        Case(
            name: "unknown order column", target: "clients?order=nam", status: 400,
            expect: pgError("42703", "column clients.nam does not exist", hint: #"Perhaps you meant to reference the column "clients.name"."#)),
        Case(name: "integer syntax", target: "clients?id=eq.abc", status: 400, expect: pgError("22P02", #"invalid input syntax for type integer: "abc""#)),
        Case(name: "integer fraction", target: "clients?id=eq.1.5", status: 400, expect: pgError("22P02", #"invalid input syntax for type integer: "1.5""#)),
        Case(
            name: "integer range", target: "clients?id=eq.99999999999", status: 400,
            expect: pgError("22003", #"value "99999999999" is out of range for type integer"#)),
        Case(
            name: "json syntax", target: "items?doc=cs.%7B%22a%22:", status: 400,
            expect: pgError("22P02", "invalid input syntax for type json", details: "The input string ended unexpectedly.")),
        Case(
            name: "not null", method: "POST", target: "clients", body: #"{"id":10,"name":null}"#, status: 400,
            expect: pgError(
                "23502", #"null value in column "name" of relation "clients" violates not-null constraint"#, details: "Failing row contains (10, null).")),
        Case(
            name: "foreign key on insert", method: "POST", target: "projects", body: #"{"id":5,"name":"x","client_id":99}"#, status: 409,
            expect: pgError(
                "23503", #"insert or update on table "projects" violates foreign key constraint "projects_client_id_fkey""#,
                details: #"Key (client_id)=(99) is not present in table "clients"."#)),
        Case(
            name: "foreign key on update", method: "PATCH", target: "projects?id=eq.1", body: #"{"client_id":42}"#, status: 409,
            expect: pgError(
                "23503", #"insert or update on table "projects" violates foreign key constraint "projects_client_id_fkey""#,
                details: #"Key (client_id)=(42) is not present in table "clients"."#)),
        Case(
            name: "still referenced", method: "DELETE", target: "clients?id=eq.1", status: 409,
            expect: pgError(
                "23503", #"update or delete on table "clients" violates foreign key constraint "projects_client_id_fkey" on table "projects""#,
                details: #"Key (id)=(1) is still referenced from table "projects"."#)),
        Case(
            name: "duplicate key", method: "POST", target: "clients", body: #"{"id":1,"name":"dup"}"#, status: 409,
            expect: pgError("23505", #"duplicate key value violates unique constraint "clients_pkey""#, details: "Key (id)=(1) already exists.")),
        Case(
            name: "columns names an unknown column", method: "POST", target: "clients?columns=id,nope", body: #"{"id":11,"name":"x"}"#, status: 400,
            expect: pgError("PGRST204", "Could not find the 'nope' column of 'clients' in the schema cache")),
        Case(
            name: "payload names an unknown column", method: "POST", target: "clients", body: #"{"id":12,"nope":1}"#, status: 400,
            expect: pgError("PGRST204", "Could not find the 'nope' column of 'clients' in the schema cache"))
    ]

    /// A simple view (`rocket_tasks`: the tasks of project 1) read, embedded and written through,
    /// as PostgreSQL's automatically updatable views and PostgREST's view relationships behave.
    static let viewCases: [Case] = [
        Case(
            name: "view rows", target: "rocket_tasks?select=id,name&order=id", status: 200,
            expect: .json(#"[{"id":1,"name":"Design rocket"},{"id":2,"name":"Build rocket"},{"id":5,"name":"Launch"}]"#)),
        Case(
            name: "view embeds its base's parent", target: "rocket_tasks?select=id,projects(name)&id=eq.1", status: 200,
            expect: .exact(#"[{"id":1,"projects":{"name": "Rocket"}}]"#)),
        Case(
            name: "table embeds the view", target: "projects?select=id,rocket_tasks(id)&id=in.(1,2)&order=id", status: 200,
            expect: .exact(#"[{"id":1,"rocket_tasks":[{"id": 1}, {"id": 2}, {"id": 5}]}, \#n {"id":2,"rocket_tasks":[]}]"#)),
        Case(
            name: "insert through the view", method: "POST", target: "rocket_tasks", headers: ["Prefer": "return=representation"],
            body: #"{"id":6,"name":"Fuel","project_id":1}"#, status: 201, expect: .json(#"[{"id":6,"name":"Fuel","project_id":1}]"#)),
        Case(
            name: "update outside the view", method: "PATCH", target: "rocket_tasks?id=eq.3", headers: ["Prefer": "return=representation"],
            body: #"{"name":"x"}"#, status: 200, expect: .exact("[]")),
        Case(
            name: "update through the view", method: "PATCH", target: "rocket_tasks?id=eq.5", headers: ["Prefer": "return=representation"],
            body: #"{"name":"Lift off"}"#, status: 200, expect: .json(#"[{"id":5,"name":"Lift off","project_id":1}]"#)),
        Case(
            name: "delete outside the view", method: "DELETE", target: "rocket_tasks?id=eq.4", headers: ["Prefer": "return=representation"],
            status: 200, expect: .exact("[]")),
        Case(
            name: "view column unknown on insert", method: "POST", target: "rocket_tasks", body: #"{"id":7,"name":"x","nope":1}"#, status: 400,
            expect: pgError("PGRST204", "Could not find the 'nope' column of 'rocket_tasks' in the schema cache")),
        Case(
            name: "view column unknown in a filter", target: "rocket_tasks?nope=eq.1", status: 400,
            expect: pgError("42703", "column rocket_tasks.nope does not exist", hint: #"Perhaps you meant to reference the column "rocket_tasks.name"."#)),
        Case(
            name: "view column far from any", target: "rocket_tasks?select=zzzzzz", status: 400,
            expect: pgError("42703", "column rocket_tasks.zzzzzz does not exist")),
        // Views over views and WITH CHECK OPTION (PostgreSQL 15, checked with psql on the same definitions).
        Case(name: "view over a view", target: "early_rocket_tasks?select=id&order=id", status: 200, expect: ids([1, 2, 5])),
        Case(
            name: "view over a view embeds", target: "early_rocket_tasks?select=id,projects(name)&id=eq.5", status: 200,
            expect: .exact(#"[{"id":5,"projects":{"name": "Rocket"}}]"#)),
        Case(
            name: "cascaded check names the inner view", method: "POST", target: "early_rocket_tasks", body: #"{"id":8,"name":"x","project_id":2}"#,
            status: 400,
            expect: pgError("44000", #"new row violates check option for view "rocket_tasks""#, details: "Failing row contains (8, x, 2).")),
        Case(
            name: "cascaded check on its own condition", method: "POST", target: "early_rocket_tasks", body: #"{"id":18,"name":"x","project_id":1}"#,
            status: 400,
            expect: pgError("44000", #"new row violates check option for view "early_rocket_tasks""#, details: "Failing row contains (18, x, 1).")),
        Case(
            name: "cascaded check passes", method: "POST", target: "early_rocket_tasks", headers: ["Prefer": "return=representation"],
            body: #"{"id":8,"name":"x","project_id":1}"#, status: 201, expect: .json(#"[{"id":8,"name":"x","project_id":1}]"#)),
        Case(
            name: "local check", method: "POST", target: "checked_tasks", body: #"{"id":7,"name":"x","project_id":2}"#, status: 400,
            expect: pgError("44000", #"new row violates check option for view "checked_tasks""#, details: "Failing row contains (7, x, 2).")),
        Case(
            name: "local check on update", method: "PATCH", target: "checked_tasks?id=eq.1", body: #"{"project_id":2}"#, status: 400,
            expect: pgError("44000", #"new row violates check option for view "checked_tasks""#, details: "Failing row contains (1, Design rocket, 2).")),
        Case(
            name: "local check of the outer view on update", method: "PATCH", target: "early_checked_tasks?id=eq.5", body: #"{"id":17}"#, status: 400,
            expect: pgError("44000", #"new row violates check option for view "early_checked_tasks""#, details: "Failing row contains (17, Launch, 1).")),
        Case(
            name: "local check over a checked view", method: "POST", target: "early_checked_tasks", body: #"{"id":17,"name":"x"}"#, status: 400,
            expect: pgError("44000", #"new row violates check option for view "checked_tasks""#, details: "Failing row contains (17, x, null).")),
        Case(name: "no check without the option", method: "POST", target: "rocket_tasks", body: #"{"id":9,"name":"x","project_id":2}"#, status: 201)
    ]
}
