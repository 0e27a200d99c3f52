import XCTest
@testable import MockSupabase

/// Views whose columns rename their base's (QuerySpec.hs "view embedding", EmbedDisambiguationSpec.hs
/// issue 2459) and views over views, on `SpecTablesFixture`: the spec blocks the audit takes, and
/// the writes and errors PostgreSQL gives through such a view (the rewriter writes the base column a
/// view column shows; PostgREST's own errors name the view's columns, PostgreSQL's the base's).
extension PostgRESTCaseCorpusTests {
    static let json = [#"Content-Type"#: #"application/json; charset=utf-8"#]

    /// The audited spec blocks (QuerySpec 884, 890, 895, 905, 910, 924, 958, 961, 976, 991, 994, 1007, 1426;
    /// EmbedInnerJoinSpec 97, 200, 357;
    /// EmbedDisambiguationSpec 137, 231, 292).
    static let auditViewCases: [Case] =
        [
            Case(
                name: #"Query GET projects_view_alt?t_id=eq.1&select=t_id, name, clients(*), tasks(id, name)"#,
                target: #"projects_view_alt?t_id=eq.1&select=t_id, name, clients(*), tasks(id, name)"#, status: 200,
                expect: .json(
                    #"[{"t_id":1,"name":"Windows 7","clients":{"id":1,"name":"Microsoft"},"tasks":[{"id":1,"name":"Design w7"},{"id":2,"name":"Code w7"}]}]"#),
                expectHeaders: json, onSpecTables: true),
            Case(
                name: #"Query GET projects_count_grouped_by?select=number_of_projects,client:clients(name)&order=number_of_projects"#,
                target: #"projects_count_grouped_by?select=number_of_projects,client:clients(name)&order=number_of_projects"#, status: 200,
                expect: .json(
                    #"[{"number_of_projects":1,"client":null}, {"number_of_projects":2,"client":{"name":"Microsoft"}}, {"number_of_projects":2,"client":{"name":"Apple"}}]"#
                ), expectHeaders: json, onSpecTables: true),
            Case(
                name: #"Query GET consumers_view?select=*,orders_view(*)"#, target: #"consumers_view?select=*,orders_view(*)"#, status: 200,
                expect: .exact("[]"), expectHeaders: json, onSpecTables: true),
            Case(
                name: #"Query GET consumers_view_view?select=*,orders_view(*)"#, target: #"consumers_view_view?select=*,orders_view(*)"#, status: 200,
                expect: .exact("[]"), expectHeaders: json, onSpecTables: true),
            Case(
                name: #"EmbedDisambiguation GET i2459_composite_v2?select=*,i2459_composite_v1(*)"#,
                target: #"i2459_composite_v2?select=*,i2459_composite_v1(*)"#,
                status: 300,
                expect: .json(
                    #"{"code":"PGRST201","details":[{"cardinality":"many-to-one","embedding":"i2459_composite_v2 with i2459_composite_v1","relationship":"i2459_composite_t2_t1_a_t1_b_fkey using i2459_composite_v2(t1_a1, t1_b1) and i2459_composite_v1(a, b)"},{"cardinality":"many-to-one","embedding":"i2459_composite_v2 with i2459_composite_v1","relationship":"i2459_composite_t2_t1_a_t1_b_fkey using i2459_composite_v2(t1_a1, t1_b2) and i2459_composite_v1(a, b)"},{"cardinality":"many-to-one","embedding":"i2459_composite_v2 with i2459_composite_v1","relationship":"i2459_composite_t2_t1_a_t1_b_fkey using i2459_composite_v2(t1_a2, t1_b1) and i2459_composite_v1(a, b)"},{"cardinality":"many-to-one","embedding":"i2459_composite_v2 with i2459_composite_v1","relationship":"i2459_composite_t2_t1_a_t1_b_fkey using i2459_composite_v2(t1_a2, t1_b2) and i2459_composite_v1(a, b)"}],"hint":"Try changing 'i2459_composite_v1' to one of the following: 'i2459_composite_v1!i2459_composite_t2_t1_a_t1_b_fkey', 'i2459_composite_v1!i2459_composite_t2_t1_a_t1_b_fkey', 'i2459_composite_v1!i2459_composite_t2_t1_a_t1_b_fkey', 'i2459_composite_v1!i2459_composite_t2_t1_a_t1_b_fkey'. Find the desired relationship in the 'details' key.","message":"Could not embed because more than one relationship was found for 'i2459_composite_v2' and 'i2459_composite_v1'"}"#
                ), expectHeaders: json, onSpecTables: true)
        ]
        + [
            (
                "player_view?select=id,contract(purchase_price)&id=in.(1,3,5,7)",
                #"[{"id":1,"contract":[{"purchase_price":10}]}, {"id":3,"contract":[{"purchase_price":30}]}, {"id":5,"contract":[{"purchase_price":50}]}, {"id":7,"contract":[]}]"#
            ),
            (
                "contract?select=tournament,player_view(first_name)&limit=3",
                #"[{"tournament":"tournament_1","player_view":{"first_name":"first_name_1"}}, {"tournament":"tournament_2","player_view":{"first_name":"first_name_2"}}, {"tournament":"tournament_3","player_view":{"first_name":"first_name_3"}}]"#
            ),
            (
                "player_view?select=id,contract_view(purchase_price)&id=in.(1,3,5,7)",
                #"[{"id":1,"contract_view":[{"purchase_price":10}]}, {"id":3,"contract_view":[{"purchase_price":30}]}, {"id":5,"contract_view":[{"purchase_price":50}]}, {"id":7,"contract_view":[]}]"#
            ),
            (
                "contract_view?select=tournament,player_view(first_name)&limit=3",
                #"[{"tournament":"tournament_1","player_view":{"first_name":"first_name_1"}}, {"tournament":"tournament_2","player_view":{"first_name":"first_name_2"}}, {"tournament":"tournament_3","player_view":{"first_name":"first_name_3"}}]"#
            ),
            (
                "students_view?select=name,students_info(address)",
                #"[{"name":"John Doe","students_info":{"address":"Street 1"}}, {"name":"Jane Doe","students_info":{"address":"Street 2"}}]"#
            ),
            (
                "students_view?select=name,students_info_view(address)",
                #"[{"name":"John Doe","students_info_view":{"address":"Street 1"}}, {"name":"Jane Doe","students_info_view":{"address":"Street 2"}}]"#
            ),
            (
                "students_info_view?select=address,students(name)",
                #"[{"address":"Street 1","students":{"name":"John Doe"}}, {"address":"Street 2","students":{"name":"Jane Doe"}}]"#
            ),
            (
                "articleStars?select=createdAt,article:articles(id),user:users(name)&limit=1",
                #"[{"createdAt":"2015-12-08T04:22:57.472738","article":{"id": 1},"user":{"name": "Angela Martin"}}]"#
            ),
            (
                "articles?id=eq.1&select=id,articleStars(users(*))",
                #"[{"id":1,"articleStars":[{"users":{"id":1,"name":"Angela Martin"}},{"users":{"id":2,"name":"Michael Scott"}},{"users":{"id":3,"name":"Dwight Schrute"}}]}]"#
            ),
            (
                "articleStars?select=createdAt,article:articles(id),user(name)&limit=1",
                #"[{"createdAt":"2015-12-08T04:22:57.472738","article":{"id": 1},"user":{"name": "Angela Martin"}}]"#
            ),
            (
                "referrals?select=site,link:pages(url)",
                #"[{"site":"github.com", "link":{"url":"http://postgrest.org/en/v6.0/api.html"}}, {"site":"hub.docker.com", "link":{"url":"http://postgrest.org/en/v6.0/admin.html"}}]"#
            ),
            (
                "books?select=title,author:authors(name)&id=eq.5",
                #"[ { "title": "Farenheit 451", "author": { "name": "Ray Bradbury" } } ]"#
            ),
            (
                "forties_books?select=title,author:authors(name)&limit=1",
                #"[ { "title": "1984", "author": { "name": "George Orwell" } } ]"#
            ),
            (
                "fifties_books?select=title,author:authors(name)&limit=1",
                #"[ { "title": "The Catcher in the Rye", "author": { "name": "J.D. Salinger" } } ]"#
            ),
            (
                "sixties_books?select=title,author:authors(name)&limit=1",
                #"[ { "title": "To Kill a Mockingbird", "author": { "name": "Harper Lee" } } ]"#
            ),
            (
                "books?select=title,authors!inner(name)&authors.name=eq.George%20Orwell",
                #"[{"title":"1984","authors":{"name":"George Orwell"}}]"#
            ),
            (
                "authors?select=*,books!inner(*)&books.title=eq.1984",
                #"[{"id":1,"name":"George Orwell","books":[{"id":1,"title":"1984","publication_year":1949,"author_id":1,"first_publisher_id":1}]}]"#
            ),
            (
                "books?select=id,authors(name),publishers!inner(name)&id=gte.7",
                #"[{"id":7,"authors":{"name":"Harper Lee"},"publishers":{"name":"J. B. Lippincott & Co."}}, {"id":8,"authors":{"name":"Kurt Vonnegut"},"publishers":{"name":"Delacorte"}}, {"id":9,"authors":{"name":"Ken Kesey"},"publishers":{"name":"Viking Press & Signet Books"}}]"#
            )
        ].map { (target: String, body: String) in
            Case(name: "Query GET \(target)", target: target, status: 200, expect: .json(body), expectHeaders: json, onSpecTables: true)
        }
        + [
            ("books?select=title,authors!inner(name)&authors.name=eq.George%20Orwell", "0-0/1"),
            ("authors?select=*,books!inner(*)&books.title=eq.1984", "0-0/1"),
            ("books?select=id,authors(name),publishers!inner(name)&id=gte.7", "0-2/3"),
            ("books?select=id,publishers!inner(name),authors(name)&id=gte.7", "0-2/3")
        ].map { (target: String, range: String) in
            Case(
                name: "EmbedInnerJoin HEAD \(target)", method: "HEAD", target: target, headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""),
                expectHeaders: json.merging(["Content-Range": range]) { a, _ in a }, onSpecTables: true)
        }
        + [
            "i2459_simple_v1?select=*,i2459_simple_v2!t1_id1(*)", "i2459_simple_v1?select=*,i2459_simple_v2!t1_id2(*)",
            "i2459_simple_v2?select=*,i2459_simple_v1!t1_id1(*)", "i2459_simple_v2?select=*,i2459_simple_v1!t1_id2(*)", "foos?select=*,bars(*)",
            "v1?select=v2(*)"
        ].map {
            Case(name: "View GET \($0)", target: $0, status: 200, expect: .exact("[]"), expectHeaders: json, onSpecTables: true)
        }

    static let representation: HTTPHeaders = ["Prefer": "return=representation"]

    /// Reads, writes and errors through `projects_view_alt` (`select id as t_id, name, client_id as
    /// t_client_id from projects`) and the issue-2459 views without a hint.
    static let viewKeyCases: [Case] = [
        Case(
            name: "renamed view embeds its parent by the base key", target: "projects_view_alt?select=t_id,clients(name)&t_client_id=eq.2&order=t_id",
            status: 200, expect: .exact("[{\"t_id\":3,\"clients\":{\"name\": \"Apple\"}}, \n {\"t_id\":4,\"clients\":{\"name\": \"Apple\"}}]"),
            onSpecTables: true),
        Case(
            name: "renamed view embedded as a parent", target: "tasks?select=id,projects_view_alt(t_id,name)&id=eq.3", status: 200,
            expect: .json(#"[{"id":3,"projects_view_alt":{"t_id":2,"name":"Windows 10"}}]"#), onSpecTables: true),
        Case(
            name: "renamed view insert writes the base columns", method: "POST", target: "projects_view_alt", headers: representation,
            body: #"{"t_id":6,"name":"New","t_client_id":2}"#, status: 201, expect: .exact(#"[{"t_id":6,"name":"New","t_client_id":2}]"#),
            onSpecTables: true),
        Case(
            name: "renamed view update filters and sets by view names", method: "PATCH", target: "projects_view_alt?t_id=eq.5", headers: representation,
            body: #"{"t_client_id":1}"#, status: 200, expect: .exact(#"[{"t_id":5,"name":"Orphan","t_client_id":1}]"#), onSpecTables: true),
        Case(
            name: "renamed view delete filters by view names", method: "DELETE", target: "projects_view_alt?t_client_id=is.null", headers: representation,
            status: 200, expect: .exact(#"[{"t_id":5,"name":"Orphan","t_client_id":null}]"#), onSpecTables: true),
        Case(
            name: "renamed view write of a base name", method: "POST", target: "projects_view_alt", body: #"{"id":6,"name":"x"}"#, status: 400,
            expect: .json(
                #"{"code":"PGRST204","details":null,"hint":null,"message":"Could not find the 'id' column of 'projects_view_alt' in the schema cache"}"#),
            onSpecTables: true),
        Case(
            name: "renamed view not-null names the base", method: "POST", target: "projects_view_alt", body: #"{"t_id":7}"#, status: 400,
            expect: .json(
                #"{"code":"23502","details":"Failing row contains (7, null, null).","hint":null,"message":"null value in column \"name\" of relation \"projects\" violates not-null constraint"}"#
            ), onSpecTables: true),
        Case(
            name: "grouped view counts per group", target: "projects_count_grouped_by?client_id=not.is.null&order=client_id", status: 200,
            expect: .exact(#"[{"client_id":1,"number_of_projects":2}, \#n {"client_id":2,"number_of_projects":2}]"#), onSpecTables: true),
        Case(
            name: "grouped view embedded from its parent", target: "clients?select=name,projects_count_grouped_by(number_of_projects)&id=eq.2", status: 200,
            expect: .json(#"[{"name":"Apple","projects_count_grouped_by":[{"number_of_projects":2}]}]"#), onSpecTables: true),
        Case(
            name: "grouped view refuses an insert", method: "POST", target: "projects_count_grouped_by", body: #"{"client_id":1}"#, status: 500,
            expect: .json(
                #"{"code":"55000","details":"Views containing GROUP BY are not automatically updatable.","hint":"To enable inserting into the view, provide an INSTEAD OF INSERT trigger or an unconditional ON INSERT DO INSTEAD rule.","message":"cannot insert into view \"projects_count_grouped_by\""}"#
            ), onSpecTables: true),
        Case(
            name: "grouped view refuses a delete", method: "DELETE", target: "projects_count_grouped_by?client_id=eq.1", status: 500,
            expect: .json(
                #"{"code":"55000","details":"Views containing GROUP BY are not automatically updatable.","hint":"To enable deleting from the view, provide an INSTEAD OF DELETE trigger or an unconditional ON DELETE DO INSTEAD rule.","message":"cannot delete from view \"projects_count_grouped_by\""}"#
            ), onSpecTables: true),
        Case(
            name: "view showing a key twice is ambiguous without a hint", target: "i2459_simple_v1?select=*,i2459_simple_v2(*)", status: 300,
            expect: .json(
                #"{"code":"PGRST201","details":[{"cardinality":"one-to-many","embedding":"i2459_simple_v1 with i2459_simple_v2","relationship":"i2459_simple_t2_t1_id_fkey using i2459_simple_v1(id) and i2459_simple_v2(t1_id1)"},{"cardinality":"one-to-many","embedding":"i2459_simple_v1 with i2459_simple_v2","relationship":"i2459_simple_t2_t1_id_fkey using i2459_simple_v1(id) and i2459_simple_v2(t1_id2)"}],"hint":"Try changing 'i2459_simple_v2' to one of the following: 'i2459_simple_v2!i2459_simple_t2_t1_id_fkey', 'i2459_simple_v2!i2459_simple_t2_t1_id_fkey'. Find the desired relationship in the 'details' key.","message":"Could not embed because more than one relationship was found for 'i2459_simple_v1' and 'i2459_simple_v2'"}"#
            ), onSpecTables: true)
    ]
}

/// The view cases reject a mock whose views ignore renames' targets (each renamed column shows the
/// wrong base column) and one that drops the second name of a twice-shown column.
final class PostgRESTViewKeyTests: XCTestCase {
    func failures(_ schemaJSON: String) throws -> [String] {
        var out: [String] = []
        for c in PostgRESTCaseCorpusTests.auditViewCases + PostgRESTCaseCorpusTests.viewKeyCases {
            let r = try SpecTablesFixture(schemaJSON: schemaJSON).send(c.method, c.target, headers: c.headers, body: c.body)
            var wrong = r.status != c.status
            switch c.expect {
            case .exact(let s): if r.text != s { wrong = true }
            case .json(let s): if (try? JSONValue.parse(r.text)) != (try JSONValue.parse(s)) { wrong = true }
            case .none: break
            }
            if wrong { out.append("\(c.name): \(r.status) \(r.text)") }
        }
        return out
    }

    func testViewCasesPass() throws {
        XCTAssertEqual(try failures(SpecTablesFixture.schemaJSON), [])
    }

    func testRejectsRenamesToTheWrongBaseColumn() throws {
        let mutant = SpecTablesFixture.schemaJSON.replacingOccurrences(
            of: #""renamed": {"t_id": "id", "t_client_id": "client_id"}"#, with: #""renamed": {"t_id": "client_id", "t_client_id": "id"}"#)
        XCTAssertNotEqual(mutant, SpecTablesFixture.schemaJSON)
        XCTAssertGreaterThanOrEqual(try failures(mutant).count, 5)
    }

    /// A grouped view that forgets its grouping is refused when decoded (PostgreSQL's 42803), and
    /// one counting the wrong column answers otherwise.
    func testRejectsAGroupedViewWithoutItsGroupingOrCountingAnotherColumn() throws {
        let ungrouped = SpecTablesFixture.schemaJSON.replacingOccurrences(of: #""groupBy": ["client_id"]"#, with: #""groupBy": []"#)
        XCTAssertNotEqual(ungrouped, SpecTablesFixture.schemaJSON)
        XCTAssertThrowsError(try SpecTablesFixture(schemaJSON: ungrouped))
        let wrongCount = SpecTablesFixture.schemaJSON.replacingOccurrences(
            of: #""counts": {"number_of_projects": "id"}"#, with: #""counts": {"number_of_projects": "client_id"}"#)
        XCTAssertNotEqual(wrongCount, SpecTablesFixture.schemaJSON)
        XCTAssertEqual(try failures(wrongCount).count, 1)
    }

    func testRejectsAViewShowingAColumnOnce() throws {
        let mutant = SpecTablesFixture.schemaJSON.replacingOccurrences(of: #""t1_a2": "t1_a", "t1_b2": "t1_b""#, with: #""t1_a2": "t1_b", "t1_b2": "t1_a""#)
        XCTAssertNotEqual(mutant, SpecTablesFixture.schemaJSON)
        XCTAssertEqual(
            try failures(mutant).map { String($0.prefix(while: { $0 != ":" })) }, ["EmbedDisambiguation GET i2459_composite_v2?select=*,i2459_composite_v1(*)"])
    }
}
