import XCTest
import MockBinding
@testable import MockSupabase

/// Mock versus PostgreSQL for what PostgREST builds from a request: the fixture's tables
/// (`RestSpecFixture`) are created in a throwaway PostgreSQL database with the same rows, and
/// each probe pairs a request with the SQL PostgREST sends for it (SqlFragment.hs: `to_tsvector`
/// / `to_tsquery` for fts, `->`/`->>` for JSON paths, `json_agg` lateral subqueries for embeds,
/// and simple views, `rocket_tasks` and `task_refs` (renamed columns), and a grouped view,
/// `tasks_per_project`, read and embedded both ways).
/// Rows must be equal; refused probes must carry PostgreSQL's SQLSTATE and message. Skips when
/// no PostgreSQL is installed (a failure under SUPACONTRACTS_REQUIRE_POSTGRES=1).
final class PostgRESTFilterDifferentialTests: XCTestCase {
    struct Probe {
        var request: String
        /// Row query (wrapped in `jsonb_agg`), or the statement expected to fail.
        var sql: String
    }

    static let setupSQL = """
        create table clients(id int primary key, name text not null);
        create table projects(id int primary key, name text not null, client_id int references clients(id));
        create table tasks(id int primary key, name text not null, project_id int references projects(id));
        create table items(id int primary key, label text, doc jsonb);
        create table quotes(id int primary key, body text, meta jsonb, n int);
        create view rocket_tasks as select id, name, project_id from tasks where project_id = 1;
        create view task_refs as select id as key, name, project_id as project from tasks;
        create view tasks_per_project as select project_id, count(id) as n from tasks group by project_id;
        create view early_rocket_tasks as select id, name, project_id from rocket_tasks where id < 10 with cascaded check option;
        insert into clients values (1,'Acme'),(2,'Globex'),(3,'Initech');
        insert into projects values (1,'Rocket',1),(2,'Anvil',1),(3,'Dome',2),(4,'Orphan',null);
        insert into tasks values (1,'Design rocket',1),(2,'Build rocket',1),(3,'Design anvil',2),(4,'Paint dome',3),(5,'Launch',1);
        insert into items values
          (1,'a','{"tags":["x","y","z"],"n":3,"inner":{"k":"v","deep":{"leaf":1}}}'),
          (2,'b','{"tags":["y"],"n":10,"inner":{"k":"w"}}'),
          (3,null,null);
        insert into quotes values
          (1,'The rockets were launched quickly at dawn','{"title":"The rockets were launched quickly at dawn"}',1),
          (2,'Designing better rockets is possibly impossible','{"title":"Designing better rockets is possibly impossible"}',2),
          (3,'Cats and dogs enjoyed running through the park','{"title":"Cats and dogs enjoyed running through the park"}',3),
          (4,'Un chat très amusant dans le jardin',null,4),
          (5,'Self-driving cars park themselves',null,5);
        create table process_costs(process_id int primary key, cost numeric);
        insert into process_costs values (1,150.00),(2,200.00),(3,180.00),(4,70.00),(5,40.00),(6,70.00);
        create table schedules(id int primary key, name text, start_at timetz, end_at time with time zone);
        insert into schedules values (1,'morning','06:00:00+00','11:59:00+00'),(2,'afternoon','12:00:00+00','17:59:00+00'),(3,'night','18:00:00+00','23:59:00+00');
        create table blobs(id int primary key, bin bytea, span interval);
        insert into blobs values (1,'abc','1 day 02:00:00'),(2,'\\x00ff','36 hours');
        create table ranges(id int primary key, range numrange, slots int4range, during tstzrange);
        insert into ranges values (1,'[1,3]','[1,3]','[2024-01-01 10:00+00,2024-01-01 12:00+00)'),(2,'[3,6]',null,null),(3,'[6,9]',null,null),(4,'[9,12]',null,null),(5,null,null,null);
        create type enum_menagerie_type as enum ('foo', 'bar');
        create table menagerie("integer" int not null, double double precision not null, "varchar" varchar not null, "boolean" boolean not null,
          date date not null, money money not null, enum enum_menagerie_type not null);
        insert into menagerie values (1, 1.5, 'a', true, '2000-01-01', '$1,000.50', 'foo'), (2, 0.1, 'b', false, '2000-01-02', '(5)', 'bar');
        create table tsearch(text_search_vector tsvector);
        insert into tsearch values (to_tsvector('english', 'It''s kind of fun to do the impossible')),
          (to_tsvector('english', 'But also fun to do what is possible')), (to_tsvector('english', 'Fat cats ate rats')),
          (to_tsvector('french', 'C''est un peu amusant de faire l''impossible')),
          (to_tsvector('german', 'Es ist eine Art Spaß, das Unmögliche zu machen'));
        """

    static func fts(_ filter: String, _ where_: String) -> Probe {
        Probe(request: "quotes?select=id&order=id&" + filter, sql: "select id from quotes where \(where_) order by id")
    }

    static let probes: [Probe] = [
        fts("body=fts.rocket", "to_tsvector(body) @@ to_tsquery('rocket')"),
        fts("body=fts.launch%26dawn", "to_tsvector(body) @@ to_tsquery('launch&dawn')"),
        fts("body=fts.rocket%7Cpark", "to_tsvector(body) @@ to_tsquery('rocket|park')"),
        fts("body=fts.rocket%26!launch", "to_tsvector(body) @@ to_tsquery('rocket&!launch')"),
        fts("body=fts.run:*", "to_tsvector(body) @@ to_tsquery('run:*')"),
        fts("body=fts.self-driving", "to_tsvector(body) @@ to_tsquery('self-driving')"),
        fts("body=fts(simple).the", "to_tsvector('simple', body) @@ to_tsquery('simple', 'the')"),
        fts("body=fts(french).chat", "to_tsvector('french', body) @@ to_tsquery('french', 'chat')"),
        fts("body=plfts(french).chats%20jardins", "to_tsvector('french', body) @@ plainto_tsquery('french', 'chats jardins')"),
        fts("body=phfts(french).amusante%20dans%20les%20jardins", "to_tsvector('french', body) @@ phraseto_tsquery('french', 'amusante dans les jardins')"),
        fts("body=wfts(french).tr%C3%A8s%20-chiens", "to_tsvector('french', body) @@ websearch_to_tsquery('french', 'très -chiens')"),
        fts("body=plfts.enjoyed%20parks", "to_tsvector(body) @@ plainto_tsquery('enjoyed parks')"),
        fts("body=phfts.dogs%20enjoyed%20running", "to_tsvector(body) @@ phraseto_tsquery('dogs enjoyed running')"),
        fts("body=phfts.cars%20park", "to_tsvector(body) @@ phraseto_tsquery('cars park')"),
        fts("body=wfts.%22were%20launched%22%20or%20cats", "to_tsvector(body) @@ websearch_to_tsquery('\"were launched\" or cats')"),
        fts("body=wfts.park%20-cats", "to_tsvector(body) @@ websearch_to_tsquery('park -cats')"),
        fts("meta=fts.design", "to_tsvector(meta) @@ to_tsquery('design')"),
        fts("body=not.fts.park", "not (to_tsvector(body) @@ to_tsquery('park'))"),
        fts("body=fts.possibl:*%20%26%20!rocket", "to_tsvector(body) @@ to_tsquery('possibl:* & !rocket')"),
        // JSON paths (JsonOperatorSpec's kinds of paths, on the fixture's documents).
        Probe(request: "items?select=id&order=id&doc->>n=eq.3", sql: "select id from items where doc->>'n' = '3' order by id"),
        Probe(request: "items?select=id&order=id&doc->inner->>k=eq.w", sql: "select id from items where doc->'inner'->>'k' = 'w' order by id"),
        Probe(request: "items?select=id&order=id&doc->tags->>0=eq.y", sql: "select id from items where doc->'tags'->>0 = 'y' order by id"),
        Probe(request: "items?select=id,t:doc->tags->-1&order=id", sql: "select id, doc->'tags'->-1 as t from items order by id"),
        Probe(request: "items?select=id,leaf:doc->inner->deep->leaf&order=id", sql: "select id, doc->'inner'->'deep'->'leaf' as leaf from items order by id"),
        Probe(request: "items?select=id&order=doc->n.desc.nullslast", sql: "select id from items order by doc->'n' desc nulls last"),
        Probe(request: "items?select=id&order=doc->inner.asc", sql: "select id from items order by doc->'inner' asc"),
        Probe(request: "items?select=id&order=id&doc->n=gt.5", sql: "select id from items where doc->'n' > '5' order by id"),
        Probe(
            request: "items?select=id&order=id&doc->inner=eq.%7B%22k%22:%22w%22%7D",
            sql: "select id from items where doc->'inner' = '{\"k\":\"w\"}' order by id"),
        Probe(request: "items?select=id&order=id&doc->tags=eq.[%22y%22]", sql: "select id from items where doc->'tags' = '[\"y\"]' order by id"),
        // Through the simple view.
        Probe(request: "rocket_tasks?select=id,name&order=id.desc", sql: "select id, name from rocket_tasks order by id desc"),
        Probe(request: "early_rocket_tasks?select=id,name&order=id.desc", sql: "select id, name from early_rocket_tasks order by id desc"),
        Probe(request: "rocket_tasks?select=id&order=id&name=like.*rocket", sql: "select id from rocket_tasks where name like '%rocket' order by id"),
        Probe(
            request: "rocket_tasks?select=id,projects(name)&order=id",
            sql: "select r.id, (select row_to_json(p) from (select name from projects where id = r.project_id) p) as projects from rocket_tasks r order by r.id"
        ),
        Probe(
            request: "projects?select=id,rocket_tasks(id)&order=id",
            sql:
                "select p.id, coalesce((select json_agg(r) from (select id from rocket_tasks where project_id = p.id) r), '[]') as rocket_tasks from projects p order by p.id"
        ),
        // Through a view renaming its columns, and a grouped view.
        Probe(request: "task_refs?select=key,name,project&order=key.desc", sql: "select key, name, project from task_refs order by key desc"),
        Probe(request: "task_refs?select=key&project=eq.1&order=key", sql: "select key from task_refs where project = 1 order by key"),
        Probe(
            request: "task_refs?select=key,projects(name)&order=key",
            sql: "select r.key, (select row_to_json(p) from (select name from projects where id = r.project) p) as projects from task_refs r order by r.key"),
        Probe(
            request: "projects?select=id,task_refs(key)&order=id",
            sql:
                "select p.id, coalesce((select json_agg(r) from (select key from task_refs where project = p.id) r), '[]') as task_refs from projects p order by p.id"
        ),
        Probe(request: "tasks_per_project?order=project_id", sql: "select project_id, n from tasks_per_project order by project_id"),
        Probe(
            request: "tasks_per_project?select=n,projects(name)&n=gt.1&order=project_id",
            sql:
                "select t.n, (select row_to_json(p) from (select name from projects where id = t.project_id) p) as projects from tasks_per_project t where t.n > 1 order by t.project_id"
        ),
        // Typed columns: numeric scale and order, timetz, bytea, interval spans, tsvector.
        Probe(
            request: "process_costs?select=process_id,cost&order=cost.desc,process_id",
            sql: "select process_id, cost from process_costs order by cost desc, process_id"),
        Probe(
            request: "process_costs?select=process_id&cost=gte.70.00&cost=lt.1.8e2&order=process_id",
            sql: "select process_id from process_costs where cost >= '70.00' and cost < '1.8e2' order by process_id"),
        Probe(request: "schedules?select=id,start_at,end_at&order=id", sql: "select id, start_at, end_at from schedules order by id"),
        Probe(request: "schedules?select=id&start_at=gt.11:00-02&order=id", sql: "select id from schedules where start_at > '11:00-02' order by id"),
        Probe(request: "blobs?select=id,bin,span&order=id", sql: "select id, bin, span from blobs order by id"),
        Probe(request: "blobs?select=id&span=gt.1%20day%2006:00&order=id", sql: "select id from blobs where span > '1 day 06:00' order by id"),
        Probe(request: "blobs?select=id&span=eq.PT36H", sql: "select id from blobs where span = 'PT36H'"),
        Probe(request: "blobs?select=id&order=bin.desc", sql: "select id from blobs order by bin desc"),
        Probe(request: "ranges?select=id,range,slots,during&order=range.desc", sql: "select id, range, slots, during from ranges order by range desc"),
        Probe(request: "ranges?select=id&range=adj.[0,1)&order=id", sql: "select id from ranges where range -|- '[0,1)' order by id"),
        Probe(request: "ranges?select=id&range=ov.(3,6)&order=id", sql: "select id from ranges where range && '(3,6)' order by id"),
        Probe(request: "ranges?select=id&range=sr.(,3)&order=id", sql: "select id from ranges where range >> '(,3)' order by id"),
        Probe(request: "ranges?select=id&slots=cs.[2,4)&order=id", sql: "select id from ranges where slots @> '[2,4)'::int4range order by id"),
        Probe(request: "ranges?select=id&range=cd.(0,)&order=id", sql: "select id from ranges where range <@ '(0,)' order by id"),
        Probe(request: "menagerie?order=money.desc", sql: "select * from menagerie order by money desc"),
        Probe(request: "menagerie?select=integer&money=lt.$1,000.49", sql: "select \"integer\" from menagerie where money < '$1,000.49'"),
        Probe(
            request: "tsearch?text_search_vector=fts.impossible", sql: "select * from tsearch where text_search_vector @@ to_tsquery('english', 'impossible')"),
        Probe(
            request: "tsearch?text_search_vector=fts(french).amusant", sql: "select * from tsearch where text_search_vector @@ to_tsquery('french', 'amusant')"),
        Probe(
            request: "tsearch?text_search_vector=plfts(french).amusant%20impossibles",
            sql: "select * from tsearch where text_search_vector @@ plainto_tsquery('french', 'amusant impossibles')"),
        Probe(
            request: "tsearch?text_search_vector=plfts(german).Art%20Spass",
            sql: "select * from tsearch where text_search_vector @@ plainto_tsquery('german', 'Art Spass')"),
        Probe(
            request: "tsearch?text_search_vector=not.wfts.fun%20or%20rats",
            sql: "select * from tsearch where not (text_search_vector @@ websearch_to_tsquery('english', 'fun or rats'))"),
        // Embedded reads.
        Probe(
            request: "clients?select=id,projects(id,name)&order=id&projects.order=id.desc",
            sql:
                "select c.id, coalesce((select json_agg(p order by p.id desc) from (select id, name from projects where client_id = c.id order by id desc) p), '[]') as projects from clients c order by c.id"
        ),
        Probe(
            request: "projects?select=id,clients(name)&order=id",
            sql: "select p.id, (select row_to_json(c) from (select name from clients where id = p.client_id) c) as clients from projects p order by p.id"),
        Probe(
            request: "clients?select=id,projects!inner(id)&projects.name=eq.Dome&order=id",
            sql:
                "select c.id, (select json_agg(p) from (select id from projects where client_id = c.id and name = 'Dome') p) as projects from clients c where exists (select 1 from projects where client_id = c.id and name = 'Dome') order by c.id"
        ),
        Probe(
            request: "tasks?select=id,projects(name,clients(name))&id=in.(1,4)&order=id",
            sql:
                "select t.id, (select row_to_json(x) from (select p.name, (select row_to_json(c) from (select name from clients where id = p.client_id) c) as clients from projects p where p.id = t.project_id) x) as projects from tasks t where t.id in (1,4) order by t.id"
        )
    ]

    /// Aggregates (`"aggregatesEnabled": true`) against PostgreSQL's own `count`, `sum`, `avg`,
    /// `max`, `min`: result types and numeric scales (`avg` at `select_div_scale`), GROUP BY the
    /// other fields, one row over none inside an embed.
    static let aggregateProbes: [Probe] = [
        Probe(
            request: "process_costs?select=cost.sum(),cost.avg(),cost.max(),cost.min(),cost.count()",
            sql: "select sum(cost), avg(cost), max(cost), min(cost), count(cost) from process_costs"),
        Probe(
            request: "tasks?select=project_id,n:count()&order=project_id",
            sql: "select project_id, count(*) as n from tasks group by project_id order by project_id"),
        Probe(request: "tasks?select=id.avg(),id.sum(),id.max()::text", sql: "select avg(id), sum(id), max(id)::text as max from tasks"),
        Probe(
            request: "clients?select=id,projects(id.count(),id.avg())&order=id",
            sql:
                "select c.id, (select json_agg(p) from (select count(id), avg(id) from projects where client_id = c.id) p) as projects from clients c order by c.id"
        ),
        Probe(
            request: "menagerie?select=money.sum(),double.avg(),integer.sum(),varchar.max()",
            sql: "select sum(money), avg(double), sum(\"integer\"), max(\"varchar\") as max from menagerie")
    ]

    /// Refused requests: the mock's code and message must be PostgreSQL's for the same SQL.
    static let refusals: [Probe] = [
        Probe(request: "quotes?body=fts.fat%20rat", sql: "select 1 from quotes where to_tsvector(body) @@ to_tsquery('fat rat')"),
        Probe(request: "quotes?n=fts.x", sql: "select 1 from quotes where to_tsvector(n) @@ to_tsquery('x')"),
        Probe(request: "quotes?body=fts(klingon).x", sql: "select 1 from quotes where to_tsvector('klingon', body) @@ to_tsquery('klingon', 'x')"),
        Probe(request: "quotes?n=sl.1", sql: "select 1 from quotes where n << '1'"),
        Probe(request: "quotes?body=nxr.x", sql: "select 1 from quotes where body &< 'x'"),
        Probe(request: "quotes?n=eq.abc", sql: "select 1 from quotes where n = 'abc'"),
        Probe(request: "quotes?n=eq.99999999999", sql: "select 1 from quotes where n = '99999999999'"),
        Probe(request: "clients?select=nam", sql: "select clients.nam from clients"),
        Probe(request: "projects?select=client", sql: "select projects.client from projects"),
        Probe(request: "projects?select=nme", sql: "select projects.nme from projects"),
        Probe(request: "items?doc->tags->0=eq.y", sql: "select 1 from items where doc->'tags'->0 = 'y'"),
        Probe(request: "items?doc->n=eq.%7B%22a%22:", sql: "select 1 from items where doc->'n' = '{\"a\":'"),
        Probe(request: "process_costs?cost=eq.abc", sql: "select 1 from process_costs where cost = 'abc'"),
        Probe(request: "schedules?start_at=eq.xx", sql: "select 1 from schedules where start_at = 'xx'"),
        Probe(request: "ranges?range=eq.[1,2", sql: "select 1 from ranges where range = '[1,2'"),
        Probe(request: "ranges?range=eq.[1,2]x", sql: "select 1 from ranges where range = '[1,2]x'"),
        Probe(request: "ranges?range=eq.[a,2]", sql: "select 1 from ranges where range = '[a,2]'"),
        Probe(request: "menagerie?money=eq.abc", sql: "select 1 from menagerie where money = 'abc'"),
        Probe(request: "blobs?span=eq.foo", sql: "select 1 from blobs where span = 'foo'"),
        Probe(request: "blobs?bin=eq.%5Cxzz", sql: "select 1 from blobs where bin = '\\xzz'"),
        Probe(request: "blobs?bin=eq.%5Cx0", sql: "select 1 from blobs where bin = '\\x0'")
    ]

    func session() throws -> PsqlSession {
        let cluster: PostgresCluster
        do { cluster = try PostgresChecks.sharedCluster() } catch let e as PostgresUnavailable {
            if (ProcessInfo.processInfo.environment[PostgresChecks.requireVariable] == "1") { throw e }
            throw XCTSkip("PostgreSQL not available (\(e.reason))")
        }
        try cluster.createDatabase("rest_differential", applying: [], extraSQL: [Self.setupSQL])
        return try PsqlSession(installation: cluster.installation, host: cluster.host, database: "rest_differential")
    }

    /// Compares every probe (`probes` unless given) and refusal; returns the disagreements.
    static func disagreements(_ pg: PsqlSession, probes: [Probe] = probes, _ mock: (String) throws -> HTTPResponse) throws -> [String] {
        var out: [String] = []
        for p in probes {
            let expected = try pg.queryJSON("select coalesce(jsonb_agg(to_jsonb(q)), '[]'::jsonb) from (\(p.sql)) q")
            let r = try mock(p.request)
            let got = try? JSONValue.parse(r.text)
            if r.status != 200 || got != expected { out.append("\(p.request): mock \(r.status) \(r.text) ≠ PostgreSQL \(expected.serialized())") }
        }
        for p in refusals {
            var pgError: PostgresError?
            do { _ = try pg.query(p.sql) } catch let e as PostgresError { pgError = e }
            let r = try mock(p.request)
            let body = (try? JSONValue.parse(r.text))?.objectValue
            guard let e = pgError else { out.append("\(p.request): PostgreSQL accepted it"); continue }
            if body?["code"]?.stringValue != e.code || body?["message"]?.stringValue != e.message {
                out.append("\(p.request): mock \(r.text) ≠ PostgreSQL \(e.code) \(e.message)")
            }
        }
        return out
    }

    func testMockAnswersAsPostgreSQL() throws {
        let pg = try session()
        defer { pg.close() }
        let f = try RestSpecFixture()
        let failures = try Self.disagreements(pg) { try f.send("GET", $0) }
        print(
            "PostgREST filter differential: \(Self.probes.count + Self.refusals.count - failures.count) of \(Self.probes.count + Self.refusals.count) agree with PostgreSQL"
        )
        XCTAssertEqual(failures, [])
    }

    /// A mock that drops every filter on a search (answers all rows) is rejected.
    func testDifferentialRejectsAMockIgnoringSearch() throws {
        let pg = try session()
        defer { pg.close() }
        let f = try RestSpecFixture()
        let failures = try Self.disagreements(pg) { request in
            let stripped = request.split(separator: "&").filter { !$0.contains("fts.") }.joined(separator: "&")
            return try f.send("GET", stripped)
        }
        XCTAssertGreaterThan(failures.count, 10)
    }

    /// The aggregate probes on the fixture with aggregates on; with them off (the default) every
    /// probe is refused (PGRST123), so the comparison can fail.
    func testAggregatesAnswerAsPostgreSQL() throws {
        let pg = try session()
        defer { pg.close() }
        let on = try RestSpecFixture(
            schemaJSON: RestSpecFixture.schemaJSON.replacingOccurrences(of: #"{"enums""#, with: #"{"aggregatesEnabled": true, "enums""#))
        XCTAssertEqual(try Self.disagreements(pg, probes: Self.aggregateProbes) { try on.send("GET", $0) }, [])
        let off = try RestSpecFixture()
        XCTAssertEqual(
            try Self.disagreements(pg, probes: Self.aggregateProbes) { try off.send("GET", $0) }.count, Self.aggregateProbes.count)
    }
}
