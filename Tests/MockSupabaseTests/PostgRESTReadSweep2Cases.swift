import XCTest
@testable import MockSupabase

/// Reads EmbedDisambiguationSpec.hs, EmbedInnerJoinSpec.hs and SpreadQueriesSpec.hs send to
/// tables reached through composite foreign keys named as embeds (`fst_shift`), through
/// junctions that live in the unexposed `private` schema (exposed as views, or not at all), a
/// view over a self-referencing table, and views hiding part of a composite key; expectations
/// follow PostgREST's answers on data.sql's rows, in this corpus's own words.
extension PostgRESTCaseCorpusTests {
    static let readSweep2Cases: [Case] = onSpecTables(compositeKeySweep2 + privateJunctionSweep2 + plannedNullEmbedSweep2 + viewEmbedSweep2 + csvEmbedSweep2)

    /// CSV with embeds: each embed a jsonb column of the record (QueryBuilder.hs selects
    /// `row_to_json(…)::jsonb` for to-one and `COALESCE(json_agg(…)::jsonb, '[]')` for to-many),
    /// printed by `record_out` (quoted, quotes doubled); a to-one embed without a row is NULL.
    static let csvEmbedSweep2: [Case] = [
        Case(
            name: "csv with a to-one embed", target: "projects?select=id,clients(id)&order=id", headers: ["Accept": "text/csv"], status: 200,
            expect: .exact("id,clients\n1,\"{\"\"id\"\": 1}\"\n2,\"{\"\"id\"\": 1}\"\n3,\"{\"\"id\"\": 2}\"\n4,\"{\"\"id\"\": 2}\"\n5,")),
        Case(
            name: "csv with a to-many embed", target: "clients?select=id,projects(id,name)&order=id", headers: ["Accept": "text/csv"], status: 200,
            expect: .exact(
                #"id,projects"# + "\n" + #"1,"[{""id"": 1, ""name"": ""Windows 7""}, {""id"": 2, ""name"": ""Windows 10""}]""# + "\n"
                    + #"2,"[{""id"": 3, ""name"": ""IOS""}, {""id"": 4, ""name"": ""OSX""}]""#)),
        Case(
            name: "csv with an empty to-many embed", target: "clients?select=id,projects(id)&projects.id=gt.10&order=id", headers: ["Accept": "text/csv"],
            status: 200, expect: .exact("id,projects\n1,[]\n2,[]"))
    ]

    static let compositeKeySweep2: [Case] = [
        Case(
            name: "embed by composite foreign-key name, twice, each with its own parent",
            target: "unit_workdays?select=unit_id,day,fst_shift(car_id,schedule(name)),snd_shift(camera_id,schedule(name))", status: 200,
            expect: .json(
                #"[{"unit_id":1,"day":"2019-12-02","fst_shift":{"car_id":"CAR-349","schedule":{"name":"morning"}},"snd_shift":{"camera_id":"CAM-123","schedule":{"name":"night"}}}]"#
            )),
        Case(
            name: "foreign-key name shared by a table and a view over it picks the table", target: "activities?select=fst_shift(*)", status: 200,
            expect: .json(
                #"[{"fst_shift":[{"unit_id":1,"day":"2019-12-02","fst_shift_activity_id":1,"fst_shift_schedule_id":1,"snd_shift_activity_id":2,"snd_shift_schedule_id":3}]},{"fst_shift":[]}]"#
            )),
        Case(
            name: "view over a self-referencing table: parent by column, children by column hint",
            target: "job?select=id,parent_id(*),children:job!parent_id(id,parent_id)&order=id", status: 200,
            expect: .json(
                #"[{"id":1,"parent_id":null,"children":[{"id":2,"parent_id":1}]},{"id":2,"parent_id":{"id":1,"parent_id":null},"children":[]}]"#)),
        Case(
            name: "column named as its target table embeds the table, not a view over it",
            target: "adaptation_notifications?select=id,status,series(*)", status: 200, expect: .exact("[]")),
        Case(
            name: "view over the column's target table embeds when named",
            target: "adaptation_notifications?select=id,status,series_popularity(*)", status: 200, expect: .exact("[]")),
        Case(name: "views hiding half of a composite key keep the single-column one", target: "va?select=vb(*)", status: 200, expect: .exact("[]"))
    ]

    static let privateJunctionSweep2: [Case] = [
        Case(
            name: "many-to-many through an exposed view of a private junction", target: "screens?select=labels(name)", status: 200,
            expect: .json(#"[{"labels":[{"name":"fruit"}]},{"labels":[{"name":"vehicles"}]},{"labels":[{"name":"vehicles"},{"name":"fruit"}]}]"#)),
        Case(
            name: "many-to-many through views of private tables", target: "actors?select=*,films(*)", status: 200,
            expect: .json(
                #"[{"id":1,"name":"john","films":[{"id":12,"title":"douze commandements"}]},{"id":2,"name":"mary","films":[{"id":2001,"title":"odyssée de l'espace"}]}]"#
            )),
        Case(
            name: "many-to-many embed printed as jsonb", target: "actors?select=id,films(*)&id=eq.1", status: 200,
            expect: .exact(#"[{"id":1,"films":[{"id": 12, "title": "douze commandements"}]}]"#)),
        Case(
            name: "a junction only in a private schema relates nothing", target: "end_1?select=end_2(*)", status: 400,
            expect: .json(
                #"{"code":"PGRST200","details":"Searched for a foreign key relationship between 'end_1' and 'end_2' in the schema 'test', but no matches were found.","hint":null,"message":"Could not find a relationship between 'end_1' and 'end_2' in the schema cache"}"#
            )),
        Case(
            name: "a private junction between exposed tables relates nothing", target: "schauspieler?select=filme(*)", status: 400,
            expect: .json(
                #"{"code":"PGRST200","details":"Searched for a foreign key relationship between 'schauspieler' and 'filme' in the schema 'test', but no matches were found.","hint":null,"message":"Could not find a relationship between 'schauspieler' and 'filme' in the schema cache"}"#
            )),
        Case(
            name: "inner many-to-many through private junction views", target: "actors?select=*,films!inner(*)&films.title=eq.douze%20commandements",
            status: 200, expect: .json(#"[{"id":1,"name":"john","films":[{"id":12,"title":"douze commandements"}]}]"#)),
        Case(
            name: "inner many-to-many the other way", target: "films?select=*,actors!inner(*)&actors.name=eq.john", status: 200,
            expect: .json(#"[{"id":12,"title":"douze commandements","actors":[{"id":1,"name":"john"}]}]"#)),
        Case(
            name: "inner many-to-many counted", method: "HEAD", target: "actors?select=*,films!inner(*)&films.title=eq.douze%20commandements",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-0/1"]),
        Case(
            name: "empty to-many spread adds nothing", target: "actors?select=*,...films()", status: 200,
            expect: .json(#"[{"id":1,"name":"john"},{"id":2,"name":"mary"}]"#))
    ]

    /// RelatedQueriesSpec's null filters on embeds counted by the planner (`count=planned`, and
    /// `count=estimated` with no `db-max-rows`).
    static let plannedNullEmbedSweep2: [Case] = [
        Case(
            name: "planned count guesses a not-null embed keeps nearly every row", target: "projects?select=name,clients(name)&clients=not.is.null",
            headers: ["Prefer": "count=planned"], status: 206,
            expect: .json(
                #"[{"name":"Windows 7","clients":{"name":"Microsoft"}},{"name":"Windows 10","clients":{"name":"Microsoft"}},{"name":"IOS","clients":{"name":"Apple"}},{"name":"OSX","clients":{"name":"Apple"}}]"#
            ), expectHeaders: ["Content-Range": "0-3/5"]),
        Case(
            name: "estimated count without max rows takes the planner's larger guess",
            target: "projects?select=name,clients(name)&clients=not.is.null", headers: ["Prefer": "count=estimated"], status: 206,
            expect: .json(
                #"[{"name":"Windows 7","clients":{"name":"Microsoft"}},{"name":"Windows 10","clients":{"name":"Microsoft"}},{"name":"IOS","clients":{"name":"Apple"}},{"name":"OSX","clients":{"name":"Apple"}}]"#
            ), expectHeaders: ["Content-Range": "0-3/5"]),
        Case(
            name: "planned count guesses a null embed keeps at least one row", target: "projects?select=name,clients()&clients=is.null",
            headers: ["Prefer": "count=planned"], status: 200, expect: .json(#"[{"name":"Orphan"}]"#), expectHeaders: ["Content-Range": "0-0/1"]),
        Case(
            name: "planned count over a logic tree naming embeds",
            target:
                "client?select=*,clientinfo(),contact()&clientinfo.other=ilike.*main*&contact.name=ilike.*tabby*&or=(clientinfo.not.is.null,contact.not.is.null)",
            headers: ["Prefer": "count=planned"], status: 200, expect: .json(#"[{"id":1,"name":"Walmart"},{"id":2,"name":"Target"}]"#),
            expectHeaders: ["Content-Range": "0-1/2"])
    ]

    /// QuerySpec's view embedding, EmbedInnerJoinSpec's views, RangeSpec's planned counts and
    /// SpreadQueriesSpec's empty spreads, as the specs send them.
    static let viewEmbedSweep2: [Case] = [
        Case(
            name: "two parents of a view with renamed columns", target: "articleStars?select=createdAt,article:articles(id),user:users(name)&limit=1",
            status: 200, expect: .exact(#"[{"createdAt":"2015-12-08T04:22:57.472738","article":{"id": 1},"user":{"name": "Angela Martin"}}]"#)),
        Case(
            name: "two parents of a view, one by foreign-key name", target: "articleStars?select=createdAt,article:articles(id),user(name)&limit=1",
            status: 200, expect: .exact(#"[{"createdAt":"2015-12-08T04:22:57.472738","article":{"id": 1},"user":{"name": "Angela Martin"}}]"#)),
        Case(
            name: "children of a view over a private table, each with its parent", target: "articles?id=eq.1&select=id,articleStars(users(*))",
            status: 200,
            expect: .json(
                #"[{"id":1,"articleStars":[{"users":{"id":1,"name":"Angela Martin"}},{"users":{"id":2,"name":"Michael Scott"}},{"users":{"id":3,"name":"Dwight Schrute"}}]}]"#
            )),
        Case(
            name: "parent of a view among many views of a private table", target: "books?select=title,author:authors(name)&id=eq.5", status: 200,
            expect: .json(#"[{"title":"Farenheit 451","author":{"name":"Ray Bradbury"}}]"#)),
        Case(
            name: "parent of a filtered view (forties)", target: "forties_books?select=title,author:authors(name)&limit=1", status: 200,
            expect: .json(#"[{"title":"1984","author":{"name":"George Orwell"}}]"#)),
        Case(
            name: "parent of a filtered view (fifties)", target: "fifties_books?select=title,author:authors(name)&limit=1", status: 200,
            expect: .json(#"[{"title":"The Catcher in the Rye","author":{"name":"J.D. Salinger"}}]"#)),
        Case(
            name: "parent of a filtered view (sixties)", target: "sixties_books?select=title,author:authors(name)&limit=1", status: 200,
            expect: .json(#"[{"title":"To Kill a Mockingbird","author":{"name":"Harper Lee"}}]"#)),
        Case(
            name: "view children keyed by a long compound key", target: "player_view?select=id,contract(purchase_price)&id=in.(1,3,5,7)", status: 200,
            expect: .json(
                #"[{"id":1,"contract":[{"purchase_price":10}]},{"id":3,"contract":[{"purchase_price":30}]},{"id":5,"contract":[{"purchase_price":50}]},{"id":7,"contract":[]}]"#
            )),
        Case(
            name: "view parent through a long compound key", target: "contract?select=tournament,player_view(first_name)&limit=3", status: 200,
            expect: .json(
                #"[{"tournament":"tournament_1","player_view":{"first_name":"first_name_1"}},{"tournament":"tournament_2","player_view":{"first_name":"first_name_2"}},{"tournament":"tournament_3","player_view":{"first_name":"first_name_3"}}]"#
            )),
        Case(
            name: "view children of a view through a long compound key", target: "player_view?select=id,contract_view(purchase_price)&id=in.(1,3,5,7)",
            status: 200,
            expect: .json(
                #"[{"id":1,"contract_view":[{"purchase_price":10}]},{"id":3,"contract_view":[{"purchase_price":30}]},{"id":5,"contract_view":[{"purchase_price":50}]},{"id":7,"contract_view":[]}]"#
            )),
        Case(
            name: "view parent of a view through a long compound key", target: "contract_view?select=tournament,player_view(first_name)&limit=3",
            status: 200,
            expect: .json(
                #"[{"tournament":"tournament_1","player_view":{"first_name":"first_name_1"}},{"tournament":"tournament_2","player_view":{"first_name":"first_name_2"}},{"tournament":"tournament_3","player_view":{"first_name":"first_name_3"}}]"#
            )),
        Case(name: "views over tables with columns in another order", target: "v1?select=v2(*)", status: 200, expect: .exact("[]")),
        Case(
            name: "one-to-one from a view to a table", target: "students_view?select=name,students_info(address)", status: 200,
            expect: .json(#"[{"name":"John Doe","students_info":{"address":"Street 1"}},{"name":"Jane Doe","students_info":{"address":"Street 2"}}]"#)),
        Case(
            name: "one-to-one from a view to a view", target: "students_view?select=name,students_info_view(address)", status: 200,
            expect: .json(#"[{"name":"John Doe","students_info_view":{"address":"Street 1"}},{"name":"Jane Doe","students_info_view":{"address":"Street 2"}}]"#)
        ),
        Case(
            name: "one-to-one back from a view to a table", target: "students_info_view?select=address,students(name)", status: 200,
            expect: .json(#"[{"address":"Street 1","students":{"name":"John Doe"}},{"address":"Street 2","students":{"name":"Jane Doe"}}]"#)),
        Case(
            name: "one-to-one back from a view to a view", target: "students_info_view?select=address,students_view(name)", status: 200,
            expect: .json(#"[{"address":"Street 1","students_view":{"name":"John Doe"}},{"address":"Street 2","students_view":{"name":"Jane Doe"}}]"#)),
        Case(
            name: "view whose foreign key is a unique key", target: "referrals?select=site,link:pages(url)", status: 200,
            expect: .json(
                #"[{"site":"github.com","link":{"url":"http://postgrest.org/en/v6.0/api.html"}},{"site":"hub.docker.com","link":{"url":"http://postgrest.org/en/v6.0/admin.html"}}]"#
            )),
        Case(
            name: "each view column showing a base column is a hint (v1 to v2 by t1_id1)", target: "i2459_simple_v1?select=*,i2459_simple_v2!t1_id1(*)",
            status: 200, expect: .exact("[]")),
        Case(
            name: "each view column showing a base column is a hint (v2 to v1 by t1_id2)", target: "i2459_simple_v2?select=*,i2459_simple_v1!t1_id2(*)",
            status: 200, expect: .exact("[]")),
        Case(
            name: "inner parent of a view", target: "books?select=title,authors!inner(name)&authors.name=eq.George%20Orwell", status: 200,
            expect: .json(#"[{"title":"1984","authors":{"name":"George Orwell"}}]"#)),
        Case(
            name: "inner parent of a view counted", method: "HEAD", target: "books?select=title,authors!inner(name)&authors.name=eq.George%20Orwell",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-0/1"]),
        Case(
            name: "inner children of a view", target: "authors?select=*,books!inner(*)&books.title=eq.1984", status: 200,
            expect: .json(#"[{"id":1,"name":"George Orwell","books":[{"id":1,"title":"1984","publication_year":1949,"author_id":1,"first_publisher_id":1}]}]"#)),
        Case(
            name: "inner children of a view counted", method: "HEAD", target: "authors?select=*,books!inner(*)&books.title=eq.1984",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-0/1"]),
        Case(
            name: "inner embed alongside another embed", target: "books?select=id,authors(name),publishers!inner(name)&id=gte.7", status: 200,
            expect: .json(
                #"[{"id":7,"authors":{"name":"Harper Lee"},"publishers":{"name":"J. B. Lippincott & Co."}},{"id":8,"authors":{"name":"Kurt Vonnegut"},"publishers":{"name":"Delacorte"}},{"id":9,"authors":{"name":"Ken Kesey"},"publishers":{"name":"Viking Press & Signet Books"}}]"#
            )),
        Case(
            name: "inner embed after another embed counted", method: "HEAD", target: "books?select=id,authors(name),publishers!inner(name)&id=gte.7",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-2/3"]),
        Case(
            name: "inner embed before another embed counted", method: "HEAD", target: "books?select=id,publishers!inner(name),authors(name)&id=gte.7",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-2/3"]),
        Case(
            name: "planned count of a whole table", method: "HEAD", target: "child_entities", headers: ["Prefer": "count=planned"], status: 200,
            expect: .exact(""), expectHeaders: ["Content-Range": "0-5/6"]),
        Case(
            name: "planned count ignores limit and offset", method: "HEAD", target: "items?limit=2&offset=3", headers: ["Prefer": "count=planned"],
            status: 206, expect: .exact(""), expectHeaders: ["Content-Range": "3-4/15"]),
        Case(
            name: "planned count ignores limit", method: "HEAD", target: "child_entities?limit=2", headers: ["Prefer": "count=planned"], status: 206,
            expect: .exact(""), expectHeaders: ["Content-Range": "0-1/6"]),
        Case(
            name: "nested empty spreads add nothing", target: "grandchild_entities?select=name,...child_entities(parent_name:name,...entities())",
            status: 200,
            expect: .json(
                #"[{"name":"grandchild entity 1","parent_name":"child entity 1"},{"name":"grandchild entity 2","parent_name":"child entity 1"},{"name":"grandchild entity 3","parent_name":"child entity 2"},{"name":"(grandchild,entity,4)","parent_name":"child entity 2"},{"name":"(grandchild,entity,5)","parent_name":"child entity 2"}]"#
            )),
        Case(
            name: "empty to-many spread with an alias beside it", target: "factories?select=factory:name,...processes()", status: 200,
            expect: .json(#"[{"factory":"Factory A"},{"factory":"Factory B"},{"factory":"Factory C"},{"factory":"Factory D"}]"#))
    ]

    /// Runs only this sweep's cases (the whole corpus runs them too).
    func testSweep2Cases() throws {
        var failures: [String] = []
        for c in Self.readSweep2Cases {
            if let f = try run(c) { failures.append("\(c.name): \(f)") }
        }
        XCTAssertEqual(failures, [])
    }

    /// An engine counting null-filtered embeds exactly instead of with the planner's guess is
    /// rejected by the planned-count cases.
    func testSweep2RejectsAnExactCountForPlannedNullEmbeds() throws {
        var rejected = 0
        for c in Self.onSpecTables(Self.plannedNullEmbedSweep2) {
            let wrong = try run(c) { h in
                var h = h
                h["Prefer"] = "count=exact"
                return h
            }
            if wrong != nil { rejected += 1 }
        }
        XCTAssertGreaterThanOrEqual(rejected, 2)
    }

    /// The many-to-many between the views of a private junction's ends needs both of the
    /// junction's keys: a schema that drops one answers PGRST200 where the case expects rows.
    func testSweep2RejectsAJunctionViewMissingAKey() throws {
        let key = #"{"columns": ["label_id"], "references": {"table": "private.labels", "columns": ["id"]}, "onDelete": "cascade"},"#
        let dropped = SpecTablesFixture.schemaJSON.replacingOccurrences(of: key, with: "")
        XCTAssertNotEqual(dropped, SpecTablesFixture.schemaJSON)
        let c = Self.onSpecTables(Self.privateJunctionSweep2)[0]
        XCTAssertNil(try run(c))
        let r = try SpecTablesFixture(schemaJSON: dropped).send(c.method, c.target)
        XCTAssertEqual(r.status, 400, r.text)
    }
}
