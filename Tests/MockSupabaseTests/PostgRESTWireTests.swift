import XCTest
import MockBinding
@testable import MockSupabase

/// Every PostgREST feature and error the foundation promises, driven over the wire
/// (URLSession → MockURLProtocol → backend), asserting status, headers and body.
final class PostgRESTWireTests: XCTestCase {
    var f: WireFixture!

    override func setUpWithError() throws { f = try WireFixture() }

    // MARK: Reads

    func testSelectStarReturnsEveryColumnInTableOrder() throws {
        let r = try f.send("GET", "/rest/v1/cities", "id=eq.berlin")
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.headers["Content-Type"], "application/json; charset=utf-8")
        XCTAssertEqual(r.headers["Content-Range"], "0-0/*")
        // Key order follows the table's column order, as row_to_json prints it.
        XCTAssertTrue(r.text.hasPrefix(#"[{"id":"berlin","name":"Berlin","full_name":"Berlin, Germany","country":"Germany","continent":"Europe","#), r.text)
        XCTAssertTrue(r.text.contains(#""created_at":"2026-01-01T00:00:00+00:00""#), r.text)
    }

    func testSelectColumnListAliasAndCast() throws {
        let r = try f.send("GET", "/rest/v1/cities", "select=id,city:name,population::text&id=eq.tokyo")
        XCTAssertEqual(r.status, 200)
        let row = r.json().arrayValue?.first
        XCTAssertEqual(row?.objectValue?.keys.sorted(), ["city", "id", "population"])
        XCTAssertEqual(row?["city"], "Tokyo")
        XCTAssertNotNil(row?["population"]?.stringValue, "::text casts to a JSON string")
    }

    func testJSONAggFramingSeparatesRowsLikePostgreSQL() throws {
        let r = try f.send("GET", "/rest/v1/cities", "select=id&id=in.(berlin,tokyo)&order=id")
        XCTAssertEqual(r.text, "[{\"id\":\"berlin\"}, \n {\"id\":\"tokyo\"}]")
    }

    func testComparisonFilters() throws {
        func ids(_ q: String) throws -> [String] {
            let r = try f.send("GET", "/rest/v1/cities", "select=id&order=id&" + q)
            XCTAssertEqual(r.status, 200, r.text)
            return r.json().arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        }
        XCTAssertEqual(try ids("id=eq.berlin"), ["berlin"])
        XCTAssertEqual(try ids("continent=eq.Oceania"), ["brisbane", "melbourne", "perth", "sydney"])
        XCTAssertEqual(try ids("continent=eq.Oceania&id=neq.perth"), ["brisbane", "melbourne", "sydney"])
        let pops = try f.send("GET", "/rest/v1/cities", "select=population&id=eq.sydney").json().arrayValue?.first?["population"]?.intValue ?? 0
        XCTAssertTrue(try ids("continent=eq.Oceania&population=gt.\(pops)").allSatisfy { $0 != "sydney" })
        XCTAssertTrue(try ids("continent=eq.Oceania&population=gte.\(pops)").contains("sydney"))
        XCTAssertTrue(try ids("continent=eq.Oceania&population=lt.\(pops)").allSatisfy { $0 != "sydney" })
        XCTAssertTrue(try ids("continent=eq.Oceania&population=lte.\(pops)").contains("sydney"))
        XCTAssertEqual(try ids("name=like.San*"), ["san-antonio", "san-diego", "san-francisco", "santiago", "santo-domingo"])
        XCTAssertEqual(try ids("name=like.San%Fran%"), ["san-francisco"])
        XCTAssertEqual(try ids("name=ilike.*TOKYO*"), ["tokyo"])
        XCTAssertEqual(try ids("id=in.(perth,\"sydney\",nowhere)"), ["perth", "sydney"])
        XCTAssertEqual(try ids("summary=is.null").count, 0)
        XCTAssertEqual(try ids("summary=not.is.null").count, 55)
        XCTAssertEqual(try ids("continent=eq.Oceania&id=not.in.(perth,sydney)"), ["brisbane", "melbourne"])
        XCTAssertEqual(
            try ids("continent=not.eq.Europe&continent=not.eq.Asia&continent=not.eq.North America&continent=not.eq.South America&continent=not.eq.Africa"),
            ["brisbane", "melbourne", "perth", "sydney"])
    }

    func testOrAndNotLogicTrees() throws {
        let r = try f.send("GET", "/rest/v1/cities", "select=id&order=id&or=(id.eq.berlin,and(continent.eq.Oceania,id.like.s*))")
        XCTAssertEqual(r.json().arrayValue?.compactMap { $0["id"]?.stringValue }, ["berlin", "sydney"])
        let n = try f.send("GET", "/rest/v1/cities", "select=id&continent=eq.Oceania&not.or=(id.eq.perth,id.eq.sydney)&order=id")
        XCTAssertEqual(n.json().arrayValue?.compactMap { $0["id"]?.stringValue }, ["brisbane", "melbourne"])
    }

    func testOrderSeveralColumnsWithNullsPlacement() throws {
        // city_reports.ai_summary is NULL for ben's report; read as service role to see both.
        let asc = try f.send("GET", "/rest/v1/city_reports", "select=ai_summary&order=ai_summary.asc.nullsfirst", as: "service_role")
        XCTAssertEqual(asc.json(), [["ai_summary": nil], ["ai_summary": "Earlier report"]])
        let desc = try f.send("GET", "/rest/v1/city_reports", "select=ai_summary&order=ai_summary.desc.nullslast", as: "service_role")
        XCTAssertEqual(desc.json(), [["ai_summary": "Earlier report"], ["ai_summary": nil]])
        let def = try f.send("GET", "/rest/v1/city_reports", "select=ai_summary&order=ai_summary.desc", as: "service_role")
        XCTAssertEqual(def.json(), [["ai_summary": nil], ["ai_summary": "Earlier report"]], "DESC puts NULLs first by default")
        let multi = try f.send("GET", "/rest/v1/cities", "select=continent,id&continent=in.(Africa,Oceania)&order=continent.desc,id.asc&limit=3")
        XCTAssertEqual(multi.json().arrayValue?.compactMap { $0["id"]?.stringValue }, ["brisbane", "melbourne", "perth"])
    }

    func testLimitOffsetAndExactCount() throws {
        let r = try f.send("GET", "/rest/v1/cities", "select=id&order=id&limit=5&offset=10", headers: ["Prefer": "count=exact"])
        XCTAssertEqual(r.status, 206)
        XCTAssertEqual(r.headers["Content-Range"], "10-14/55")
        XCTAssertEqual(r.json().arrayValue?.count, 5)
        let all = try f.send("GET", "/rest/v1/cities", "select=id", headers: ["Prefer": "count=exact"])
        XCTAssertEqual(all.status, 200)
        XCTAssertEqual(all.headers["Content-Range"], "0-54/55")
        let empty = try f.send("GET", "/rest/v1/cities", "id=eq.atlantis", headers: ["Prefer": "count=exact"])
        XCTAssertEqual(empty.headers["Content-Range"], "*/0")
        XCTAssertEqual(empty.text, "[]")
        let past = try f.send("GET", "/rest/v1/cities", "offset=100", headers: ["Prefer": "count=exact"])
        past.assertPostgrestError(416, "PGRST103", "Requested range not satisfiable")
        let range = try f.send("GET", "/rest/v1/cities", "select=id&order=id", headers: ["Range": "0-1", "Range-Unit": "items"])
        XCTAssertEqual(range.json().arrayValue?.count, 2)
    }

    func testHeadReturnsHeadersWithoutBody() throws {
        let r = try f.send("HEAD", "/rest/v1/cities", "continent=eq.Europe", headers: ["Prefer": "count=exact"])
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.headers["Content-Range"], "0-17/18")
        XCTAssertTrue(r.body.isEmpty)
    }

    func testSingularObjectAcceptHeader() throws {
        let one = try f.send("GET", "/rest/v1/cities", "select=id,name&id=eq.berlin", headers: ["Accept": "application/vnd.pgrst.object+json"])
        XCTAssertEqual(one.status, 200)
        XCTAssertEqual(one.headers["Content-Type"], "application/vnd.pgrst.object+json; charset=utf-8")
        XCTAssertEqual(one.json(), ["id": "berlin", "name": "Berlin"])
        let none = try f.send("GET", "/rest/v1/cities", "id=eq.atlantis", headers: ["Accept": "application/vnd.pgrst.object+json"])
        none.assertPostgrestError(406, "PGRST116", "Cannot coerce the result to a single JSON object", details: "The result contains 0 rows", hint: .some(nil))
        let many = try f.send("GET", "/rest/v1/cities", "continent=eq.Oceania", headers: ["Accept": "application/vnd.pgrst.object+json"])
        many.assertPostgrestError(406, "PGRST116", details: "The result contains 4 rows")
    }

    func testProfilesOnlyPublicIsExposed() throws {
        let ok = try f.send("GET", "/rest/v1/cities", "id=eq.berlin", headers: ["Accept-Profile": "public"])
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(ok.headers["Content-Profile"], "public", "a negotiated schema is named back (Response.hs profileHeader)")
        XCTAssertNil(try f.send("GET", "/rest/v1/cities", "id=eq.berlin").headers["Content-Profile"])
        let bad = try f.send("GET", "/rest/v1/cities", headers: ["Accept-Profile": "auth"])
        bad.assertPostgrestError(406, "PGRST106")
        let badWrite = try f.send(
            "POST", "/rest/v1/saved_cities", headers: ["Content-Profile": "private"], json: ["user_id": .string(f.ana), "city_id": "paris"])
        badWrite.assertPostgrestError(406, "PGRST106")
        XCTAssertEqual(f.backend.database.count("saved_cities"), 3)
    }

    func testEmbeddingFollowsForeignKeysAndRLS() throws {
        let r = try f.send("GET", "/rest/v1/saved_cities", "select=city_id,cities(name,country)&order=city_id")
        XCTAssertEqual(
            r.json(),
            [
                ["city_id": "berlin", "cities": ["name": "Berlin", "country": "Germany"]],
                ["city_id": "london", "cities": ["name": "London", "country": "United Kingdom"]]
            ])
        let many = try f.send("GET", "/rest/v1/cities", "select=id,city_scores(category,score)&id=eq.berlin&city_scores.category=eq.Safety")
        let scores = many.json().arrayValue?.first?["city_scores"]?.arrayValue
        XCTAssertEqual(scores?.count, 1)
        XCTAssertEqual(scores?.first?["category"], "Safety")
        // Ana reading cities with their saved_cities sees only her own rows inside the embed.
        let own = try f.send("GET", "/rest/v1/cities", "select=id,saved_cities(user_id)&id=in.(berlin,tokyo)&order=id")
        XCTAssertEqual(own.json(), [["id": "berlin", "saved_cities": [["user_id": .string(f.ana)]]], ["id": "tokyo", "saved_cities": []]])
        let inner = try f.send("GET", "/rest/v1/cities", "select=id,saved_cities!inner(user_id)&order=id")
        XCTAssertEqual(inner.json().arrayValue?.compactMap { $0["id"]?.stringValue }, ["berlin", "london"])
        let unknown = try f.send("GET", "/rest/v1/cities", "select=id,planets(*)")
        unknown.assertPostgrestError(400, "PGRST200", "Could not find a relationship between 'cities' and 'planets' in the schema cache")
    }

    // MARK: Writes

    func testInsertSingleWithRepresentationAndDefaults() throws {
        let r = try f.send(
            "POST", "/rest/v1/saved_cities", "select=*", headers: ["Prefer": "return=representation"],
            json: ["user_id": .string(f.ana), "city_id": "paris"])
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.headers["Content-Range"], "*/*")
        let row = r.json().arrayValue?.first
        XCTAssertNotNil(row?["id"]?.stringValue.flatMap(SQLValue.canonicalUUID), "gen_random_uuid() default")
        XCTAssertEqual(
            row?["created_at"], .string(PGTime.formatTimestamp(PGTime.micros(f.clock.now()), withZone: true)), "now() default from the injected clock")
    }

    func testInsertMinimalAndHeadersOnly() throws {
        let m = try f.send("POST", "/rest/v1/saved_cities", headers: ["Prefer": "return=minimal"], json: ["user_id": .string(f.ana), "city_id": "paris"])
        XCTAssertEqual(m.status, 201)
        XCTAssertTrue(m.body.isEmpty)
        let h = try f.send(
            "POST", "/rest/v1/saved_cities", headers: ["Prefer": "return=headers-only"],
            json: ["id": "5a000000-0000-4000-8000-0000000000ff", "user_id": .string(f.ana), "city_id": "rome"])
        XCTAssertEqual(h.status, 201)
        XCTAssertEqual(h.headers["Location"], "/saved_cities?id=eq.5a000000-0000-4000-8000-0000000000ff")
    }

    func testBulkInsertWithCountAndColumns() throws {
        let body: JSONValue = [["user_id": .string(f.ana), "city_id": "paris"], ["user_id": .string(f.ana), "city_id": "rome"]]
        let r = try f.send("POST", "/rest/v1/saved_cities", headers: ["Prefer": "return=representation,count=exact"], json: body)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(r.headers["Content-Range"], "*/2")
        XCTAssertEqual(r.json().arrayValue?.count, 2)
        // Mismatched keys are rejected unless `columns=` names the columns.
        let mixed: JSONValue = [["user_id": .string(f.ana), "city_id": "madrid"], ["user_id": .string(f.ana), "city_id": "milan", "extra": 1]]
        try f.send("POST", "/rest/v1/saved_cities", json: mixed).assertPostgrestError(400, "PGRST102", "All object keys must match")
        let cols = try f.send("POST", "/rest/v1/saved_cities", "columns=user_id,city_id", headers: ["Prefer": "return=representation"], json: mixed)
        XCTAssertEqual(cols.status, 201, cols.text)
        XCTAssertEqual(cols.json().arrayValue?.count, 2)
    }

    func testUpsertMergeIgnoreAndOnConflict() throws {
        let prefs = "/rest/v1/user_preferences"
        let merge = try f.send(
            "POST", prefs, "on_conflict=user_id", headers: ["Prefer": "resolution=merge-duplicates,return=representation"],
            json: ["user_id": .string(f.ana), "cost_preference": 9.5])
        XCTAssertEqual(merge.status, 200, "an upsert that only updates answers 200 (PostgREST Response.hs): \(merge.text)")
        XCTAssertEqual(merge.json().arrayValue?.first?["cost_preference"], 9.5)
        XCTAssertEqual(merge.json().arrayValue?.first?["culture_preference"], 8, "unlisted columns keep their values")
        XCTAssertEqual(merge.json().arrayValue?.first?["id"], "0f000000-0000-4000-8000-00000000a001")
        XCTAssertTrue(merge.headers["Preference-Applied"]?.contains("resolution=merge-duplicates") == true)
        // Preferences.hs matches preference text exactly: upper case is an unknown preference.
        let shouted = try f.send(
            "POST", prefs, "on_conflict=user_id", headers: ["Prefer": "RETURN=REPRESENTATION, Resolution=Ignore-Duplicates"],
            json: ["user_id": .string(f.ana), "cost_preference": 1.0])
        XCTAssertEqual(shouted.status, 409, shouted.text)
        let ignore = try f.send(
            "POST", prefs, "on_conflict=user_id", headers: ["Prefer": "return=representation, resolution=ignore-duplicates"],
            json: ["user_id": .string(f.ana), "cost_preference": 1.0])
        XCTAssertEqual(ignore.status, 201)
        XCTAssertEqual(ignore.text, "[]", "ignored duplicates return nothing")
        let plain = try f.send("POST", prefs, json: ["user_id": .string(f.ana), "cost_preference": 1.0])
        plain.assertPostgrestError(
            409, "23505", "duplicate key value violates unique constraint \"user_preferences_user_id_key\"",
            details: "Key (user_id)=(\(f.ana)) already exists.")
        let noConstraint = try f.send(
            "POST", prefs, "on_conflict=start_type", headers: ["Prefer": "resolution=merge-duplicates"], json: ["user_id": .string(f.ana)])
        noConstraint.assertPostgrestError(400, "42P10")
    }

    func testMissingDefault() throws {
        let body: JSONValue = [
            ["user_id": .string(f.ana), "city_id": "paris", "created_at": "2026-03-01T00:00:00Z"], ["user_id": .string(f.ana), "city_id": "rome"]
        ]
        let r = try f.send(
            "POST", "/rest/v1/saved_cities", "columns=user_id,city_id,created_at", headers: ["Prefer": "return=representation, missing=default"], json: body)
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.json().arrayValue?.last?["created_at"], .string(PGTime.formatTimestamp(PGTime.micros(f.clock.now()), withZone: true)))
        let nulls = try f.send(
            "POST", "/rest/v1/saved_cities", "columns=user_id,city_id,created_at", headers: ["Prefer": "return=representation"],
            json: [["user_id": .string(f.ana), "city_id": "madrid"]])
        XCTAssertEqual(nulls.json().arrayValue?.first?["created_at"], .null, "without missing=default a listed column a row lacks is NULL")
    }

    func testPatchAndDeleteWithRepresentation() throws {
        let p = try f.send("PATCH", "/rest/v1/profiles", "id=eq.\(f.ana)", headers: ["Prefer": "return=representation"], json: ["name": "Ana María"])
        XCTAssertEqual(p.status, 200)
        XCTAssertEqual(p.json().arrayValue?.first?["name"], "Ana María")
        let minimal = try f.send("PATCH", "/rest/v1/profiles", "id=eq.\(f.ana)", json: ["name": "Ana"])
        XCTAssertEqual(minimal.status, 204)
        let d = try f.send("DELETE", "/rest/v1/saved_cities", "city_id=eq.berlin", headers: ["Prefer": "return=representation"])
        XCTAssertEqual(d.status, 200)
        XCTAssertEqual(d.json().arrayValue?.count, 1)
        let again = try f.send("DELETE", "/rest/v1/saved_cities", "city_id=eq.berlin")
        XCTAssertEqual(again.status, 204)
        let unfiltered = try f.send("DELETE", "/rest/v1/saved_cities")
        unfiltered.assertPostgrestError(400, "21000", "DELETE requires a WHERE clause")
        XCTAssertEqual(f.backend.database.count("saved_cities"), 2)
    }

    func testForeignKeysCascadeAndSetNull() throws {
        try f.send("DELETE", "/rest/v1/cities", "id=eq.berlin", as: "service_role")
        XCTAssertEqual(try f.backend.database.rows("city_scores", where: .eq("city_id", "berlin")).count, 0, "city_scores cascade")
        XCTAssertEqual(try f.backend.database.rows("saved_cities", where: .eq("city_id", "berlin")).count, 0, "saved_cities cascade")
        let report = try f.backend.database.rows("city_reports", where: .eq("id", "4e000000-0000-4000-8000-00000000b001")).first
        XCTAssertEqual(report?["current_city_id"], .null, "city_reports.current_city_id is SET NULL")
        let fk = try f.send("POST", "/rest/v1/saved_cities", json: ["user_id": .string(f.ana), "city_id": "atlantis"])
        fk.assertPostgrestError(
            409, "23503", "insert or update on table \"saved_cities\" violates foreign key constraint \"saved_cities_city_id_fkey\"",
            details: "Key (city_id)=(atlantis) is not present in table \"cities\".")
    }

    // MARK: RLS

    func testRLSReadsAreFilteredSilently() throws {
        let mine = try f.send("GET", "/rest/v1/saved_cities", "select=city_id&order=city_id")
        XCTAssertEqual(mine.json(), [["city_id": "berlin"], ["city_id": "london"]])
        let bens = try f.send("GET", "/rest/v1/saved_cities", "user_id=eq.\(f.ben)")
        XCTAssertEqual(bens.status, 200)
        XCTAssertEqual(bens.text, "[]")
        let anon = try f.send("GET", "/rest/v1/saved_cities", as: "anon")
        XCTAssertEqual(anon.text, "[]")
        let service = try f.send("GET", "/rest/v1/saved_cities", "select=id", as: "service_role")
        XCTAssertEqual(service.json().arrayValue?.count, 3, "the service role bypasses RLS")
    }

    func testRLSRejectsInsertForAnotherUser() throws {
        let r = try f.send("POST", "/rest/v1/saved_cities", json: ["user_id": .string(f.ben), "city_id": "paris"])
        r.assertPostgrestError(403, "42501", "new row violates row-level security policy for table \"saved_cities\"", details: .some(nil), hint: .some(nil))
        let anon = try f.send("POST", "/rest/v1/saved_cities", json: ["user_id": .string(f.ben), "city_id": "paris"], as: "anon")
        anon.assertPostgrestError(401, "42501")
        XCTAssertEqual(f.backend.database.count("saved_cities"), 3)
    }

    func testRLSUpdateAndDeleteOfInvisibleRowsAffectNothing() throws {
        let p = try f.send("PATCH", "/rest/v1/profiles", "id=eq.\(f.ben)", headers: ["Prefer": "return=representation"], json: ["name": "Hacked"])
        XCTAssertEqual(p.status, 200)
        XCTAssertEqual(p.text, "[]")
        let d = try f.send("DELETE", "/rest/v1/saved_cities", "user_id=eq.\(f.ben)", headers: ["Prefer": "return=representation"])
        XCTAssertEqual(d.text, "[]")
        XCTAssertEqual(try f.backend.database.rows("profiles", where: .eq("id", f.ben)).first?["name"], "Ben")
        XCTAssertEqual(f.backend.database.count("saved_cities"), 3)
        // Moving one's own row to another owner fails WITH CHECK.
        let steal = try f.send("PATCH", "/rest/v1/user_preferences", "user_id=eq.\(f.ana)", json: ["user_id": .string(f.ben)])
        steal.assertPostgrestError(403, "42501", "new row violates row-level security policy for table \"user_preferences\"")
    }

    // MARK: Errors

    func testUnknownTableColumnAndFunction() throws {
        // Error.hs `getFuzzyHint`: a table is suggested only when at least 75% alike
        // (normalized Levenshtein): "citie" is 83% "cities", "citys" 67%.
        try f.send("GET", "/rest/v1/citie").assertPostgrestError(
            404, "PGRST205", "Could not find the table 'public.citie' in the schema cache",
            hint: "Perhaps you meant the table 'public.cities'")
        try f.send("GET", "/rest/v1/citys").assertPostgrestError(
            404, "PGRST205", "Could not find the table 'public.citys' in the schema cache", hint: .some(nil))
        try f.send("GET", "/rest/v1/cities", "select=nope").assertPostgrestError(400, "42703", "column cities.nope does not exist")
        try f.send("GET", "/rest/v1/cities", "nope=eq.1").assertPostgrestError(400, "42703", "column cities.nope does not exist")
        try f.send("POST", "/rest/v1/saved_cities", json: ["user_id": .string(f.ana), "city_id": "paris", "colour": "red"])
            .assertPostgrestError(400, "PGRST204", "Could not find the 'colour' column of 'saved_cities' in the schema cache")
        try f.send("POST", "/rest/v1/rpc/nope", json: [:]).assertPostgrestError(
            404, "PGRST202", "Could not find the function public.nope without parameters in the schema cache")
        try f.send("POST", "/rest/v1/rpc/nope", json: ["a": 1]).assertPostgrestError(
            404, "PGRST202", "Could not find the function public.nope(a) in the schema cache")
    }

    func testInvalidInputSyntax() throws {
        try f.send("GET", "/rest/v1/saved_cities", "id=eq.not-a-uuid").assertPostgrestError(400, "22P02", "invalid input syntax for type uuid: \"not-a-uuid\"")
        try f.send("GET", "/rest/v1/cities", "population=gt.many").assertPostgrestError(400, "22P02", "invalid input syntax for type integer: \"many\"")
        try f.send("GET", "/rest/v1/cities", "latitude=gt.north").assertPostgrestError(
            400, "22P02", "invalid input syntax for type double precision: \"north\"")
        try f.send("POST", "/rest/v1/saved_cities", json: ["user_id": "x", "city_id": "paris"]).assertPostgrestError(
            400, "22P02", "invalid input syntax for type uuid: \"x\"")
    }

    func testMalformedBodyAndQuery() throws {
        for bad in ["{", "[1,", "nul", "{\"a\":}", ""] {
            try f.send("POST", "/rest/v1/saved_cities", raw: bad).assertPostgrestError(400, "PGRST102", "Empty or invalid json")
        }
        try f.send("GET", "/rest/v1/cities", "id=equals.berlin").assertPostgrestError(400, "PGRST100")
        try f.send("GET", "/rest/v1/cities", "id=berlin").assertPostgrestError(400, "PGRST100")
        try f.send("GET", "/rest/v1/cities", "order=id.sideways").assertPostgrestError(400, "PGRST100")
        // PostgREST reads limit with readMaybe (QueryParams.hs): a non-number sets no limit.
        XCTAssertEqual(try f.send("GET", "/rest/v1/cities", "limit=ten").status, 200)
        try f.send("GET", "/rest/v1/cities", "select=id,(").assertPostgrestError(400, "PGRST100")
        try f.send("GET", "/rest/v1/cities", "or=(id.eq.berlin").assertPostgrestError(400, "PGRST100")
        XCTAssertEqual(f.backend.database.count("saved_cities"), 3)
    }

    func testNotNullViolation() throws {
        let r = try f.send(
            "POST", "/rest/v1/cities", json: ["id": "atlantis", "name": "Atlantis", "full_name": "Atlantis", "country": "Sea"], as: "service_role")
        r.assertPostgrestError(400, "23502", "null value in column \"continent\" of relation \"cities\" violates not-null constraint")
        XCTAssertTrue(r.json()["details"]?.stringValue?.hasPrefix("Failing row contains (atlantis, Atlantis, Atlantis, Sea, null,") == true, r.text)
    }

    func testUniqueViolationIs409AndChangesNothing() throws {
        let r = try f.send(
            "POST", "/rest/v1/saved_cities", json: [["user_id": .string(f.ana), "city_id": "paris"], ["user_id": .string(f.ana), "city_id": "berlin"]])
        r.assertPostgrestError(
            409, "23505", "duplicate key value violates unique constraint \"saved_cities_user_id_city_id_key\"",
            details: "Key (user_id, city_id)=(\(f.ana), berlin) already exists.")
        XCTAssertEqual(f.backend.database.count("saved_cities"), 3, "the whole statement rolled back: paris was not kept")
    }

    func testApiKeyIsRequired() throws {
        let r = try f.wire.send(method: "GET", path: "/rest/v1/cities", as: nil)
        XCTAssertEqual(r.status, 401)
        XCTAssertEqual(r.json()["message"], "No API key found in request")
        let wrong = try f.wire.send(method: "GET", path: "/rest/v1/cities", headers: ["apikey": "nope"], as: nil)
        XCTAssertEqual(wrong.status, 401)
        XCTAssertEqual(wrong.json()["message"], "Invalid API key")
    }

    // MARK: RPC

    func testRPCPostGetVolatileAndRowSets() throws {
        f.backend.registerRPC(
            RPCFunction(
                name: "cities_on", parameters: [RPCParameter("continent_name", .text)],
                returns: .rows([ColumnSchema(name: "id", type: .text, nullable: true), ColumnSchema(name: "population", type: .integer, nullable: true)])
            ) { call in
                .array(
                    try call.database.rows("cities", where: .eq("continent", call.arguments["continent_name"]?.stringValue ?? "")).map {
                        ["id": $0["id"]!, "population": $0["population"]!]
                    })
            })
        f.backend.registerRPC(RPCFunction(name: "touch", parameters: [], returns: .void, volatile: true) { _ in .null })
        f.backend.registerRPC(
            RPCFunction(name: "add", parameters: [RPCParameter("a", .integer), RPCParameter("b", .integer, hasDefault: true)], returns: .scalar(.integer)) {
                call in
                .int((call.arguments["a"]?.intValue ?? 0) + (call.arguments["b"]?.intValue ?? 10))
            })
        let post = try f.send("POST", "/rest/v1/rpc/cities_on", "select=id&order=id&limit=2", json: ["continent_name": "Oceania"])
        XCTAssertEqual(post.json(), [["id": "brisbane"], ["id": "melbourne"]])
        let get = try f.send("GET", "/rest/v1/rpc/cities_on", "continent_name=Africa&id=eq.lagos")
        XCTAssertEqual(get.json().arrayValue?.count, 1)
        XCTAssertEqual(try f.send("POST", "/rest/v1/rpc/add", json: ["a": 2]).text, "12")
        XCTAssertEqual(try f.send("GET", "/rest/v1/rpc/add", "a=2&b=3").text, "5")
        try f.send("GET", "/rest/v1/rpc/add", "a=two").assertPostgrestError(400, "22P02")
        try f.send("GET", "/rest/v1/rpc/touch").assertPostgrestError(405, "25006")
        XCTAssertEqual(try f.send("POST", "/rest/v1/rpc/touch", raw: "").status, 204, "an empty body means no arguments")
        // Error.hs `noRpcHint`: the sorted parameter lists are compared as text ("(a, b)"), so an
        // argument sharing no letters with them gets no hint; a near one gets the list.
        try f.send("POST", "/rest/v1/rpc/add", json: ["c": 1]).assertPostgrestError(
            404, "PGRST202", "Could not find the function public.add(c) in the schema cache",
            details:
                "Searched for the function public.add with parameter c or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
            hint: .some(nil))
        try f.send("GET", "/rest/v1/rpc/add", "bb=1&a=2").assertPostgrestError(
            404, "PGRST202", "Could not find the function public.add(a, bb) in the schema cache",
            details: "Searched for the function public.add with parameters a, bb, but no matches were found in the schema cache.",
            hint: "Perhaps you meant to call the function public.add(a, b)")
        try f.send("GET", "/rest/v1/rpc/ad").assertPostgrestError(404, "PGRST202", hint: .some(nil))
        try f.send("GET", "/rest/v1/rpc/addd").assertPostgrestError(404, "PGRST202", hint: "Perhaps you meant to call the function public.add")
    }

    // MARK: Tolerance

    func testToleratesWhatOfficialClientsSend() throws {
        // Mixed-case headers, duplicated informational headers, Prefer in any order, `{}` bodies.
        let r = try f.send(
            "POST", "/rest/v1/saved_cities",
            headers: HTTPHeaders([
                ("prefer", "count=exact"), ("PREFER", "return=representation"), ("X-Client-Info", "supabase-swift/2.0"), ("x-client-info", "again")
            ]),
            json: ["user_id": .string(f.ana), "city_id": "paris"])
        XCTAssertEqual(r.status, 201, r.text)
        XCTAssertEqual(r.headers["Content-Range"], "*/1")
        let empty = try f.send("PATCH", "/rest/v1/profiles", "id=eq.\(f.ana)", json: [:])
        XCTAssertEqual(empty.status, 204)
    }
}

/// Logic-tree parse errors worded as PostgREST's parser words them (QueryParams.hs pLogicTree:
/// the value is parsed as `op + value`, so columns count from the operator).
final class PostgRESTLogicTreeErrorTests: XCTestCase {
    func testEmptyAndUnopenedTreesAreReportedAsPostgRESTReportsThem() throws {
        let f = try WireFixture()
        let element = "field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)"
        // test/spec/Feature/Query/AndOrParamsSpec.hs, "cannot have zero conditions".
        try f.send("GET", "/rest/v1/cities", "or=()").assertPostgrestError(
            400, "PGRST100", "\"failed to parse logic tree (())\" (line 1, column 4)",
            details: .some("unexpected \")\" expecting \(element)"))
        try f.send("GET", "/rest/v1/cities", "or=(").assertPostgrestError(
            400, "PGRST100", "\"failed to parse logic tree (()\" (line 1, column 4)",
            details: .some("unexpected end of input expecting \(element)"))
        try f.send("GET", "/rest/v1/cities", "and=(").assertPostgrestError(
            400, "PGRST100", "\"failed to parse logic tree (()\" (line 1, column 5)",
            details: .some("unexpected end of input expecting \(element)"))
        try f.send("GET", "/rest/v1/cities", "not.or=x").assertPostgrestError(
            400, "PGRST100", "\"failed to parse logic tree (x)\" (line 1, column 7)",
            details: .some("unexpected \"x\" expecting \"(\""))
    }
}
