import XCTest
import MockBinding
@testable import ContractKit
@testable import MockSupabase

/// The catalog comparison of simple views: each view column must read, unchanged, the column of
/// `from` that `renamed` (or its own name) says, as the view's `_RETURN` rule stores it. Checked
/// on PostgreSQL when installed (a failure under SUPACONTRACTS_REQUIRE_POSTGRES=1 when not), and on
/// a hand-made catalog otherwise.
final class ViewCatalogTests: XCTestCase {
    static let schemaJSON = #"""
        {"tables": [
          {"name": "projects", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "client_id", "type": "integer"}]},
          {"name": "projects_view_alt", "view": {"from": "projects", "renamed": {"t_id": "id", "t_client_id": "client_id"}}, "columns": [
            {"name": "t_id", "type": "integer"}, {"name": "name", "type": "text"}, {"name": "t_client_id", "type": "integer"}]},
          {"name": "later_projects", "view": {"from": "projects_view_alt", "renamed": {"key": "t_id"}, "where": {"gt": [{"column": "id"}, 1]}}, "columns": [
            {"name": "key", "type": "integer"}, {"name": "name", "type": "text"}]},
          {"name": "per_client", "view": {"from": "projects", "groupBy": ["client_id"], "counts": {"n": "id"}}, "columns": [
            {"name": "client_id", "type": "integer"}, {"name": "n", "type": "bigint"}]},
          {"name": "pairs", "columns": [{"name": "t1_id", "type": "integer"}]},
          {"name": "pairs_twice", "view": {"from": "pairs", "renamed": {"t1_id1": "t1_id", "t1_id2": "t1_id"}}, "columns": [
            {"name": "t1_id1", "type": "integer"}, {"name": "t1_id2", "type": "integer"}]}]}
        """#

    static let ddl = """
        create table projects(id int primary key, name text not null, client_id int);
        create view projects_view_alt as select id as t_id, name, client_id as t_client_id from projects;
        create view later_projects as select t_id as key, name from projects_view_alt where t_id > 1
          and exists (select p.name as key from projects_view_alt p where p.t_id = projects_view_alt.t_id);
        create view per_client as select client_id, count(id) as n from projects group by client_id;
        create table pairs(t1_id int);
        create view pairs_twice as select t1_id as t1_id1, t1_id as t1_id2 from pairs;
        """

    static func schema(_ json: String = schemaJSON) throws -> DatabaseSchema {
        try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(json), file: "inline"))
    }

    /// The differences the comparison finds on the views.
    static func viewDifferences(_ schema: DatabaseSchema, _ relations: [CatalogRelation]) -> [String] {
        let views = Set(schema.tables.filter { $0.simpleView != nil }.map(\.qualifiedName))
        return PostgresCatalog.compare(schema, relations: relations, enums: [:]).filter { views.contains($0.relation) }.flatMap { r in
            r.differences.map { "\(r.relation): \($0)" }
        }
    }

    /// A mutant schema: `t_id` said to show `client_id`, and the count said to be a plain column.
    static let uncounted = schemaJSON.replacingOccurrences(of: #""counts": {"n": "id"}"#, with: #""counts": {}"#)
        .replacingOccurrences(of: #""groupBy": ["client_id"]"#, with: #""groupBy": ["client_id", "n"], "renamed": {"n": "id"}"#)
    static let swapped = schemaJSON.replacingOccurrences(
        of: #"{"t_id": "id", "t_client_id": "client_id"}"#, with: #"{"t_id": "client_id", "t_client_id": "id"}"#)

    func testPostgresCatalogAgreesAndRejectsAWrongRename() throws {
        let cluster: PostgresCluster
        do { cluster = try PostgresChecks.sharedCluster() } catch let e as PostgresUnavailable {
            if ProcessInfo.processInfo.environment[PostgresChecks.requireVariable] == "1" { throw e }
            throw XCTSkip("PostgreSQL not available (\(e.reason))")
        }
        try cluster.createDatabase("view_catalog", applying: [], extraSQL: [Self.ddl])
        let session = try PsqlSession(installation: cluster.installation, host: cluster.host, database: "view_catalog")
        defer { session.close() }
        let target = PostgresTarget(session: session, schema: try Self.schema(), statuses: try ContractsLocator.postgrestStatuses())
        let (relations, _) = try PostgresCatalog.read(target)
        XCTAssertEqual(Self.viewDifferences(try Self.schema(), relations), [])
        XCTAssertEqual(
            Self.viewDifferences(try Self.schema(Self.swapped), relations),
            [
                "public.projects_view_alt: view column t_id: schema.json shows public.projects.client_id, PostgreSQL public.projects.id",
                "public.projects_view_alt: view column t_client_id: schema.json shows public.projects.id, PostgreSQL public.projects.client_id"
            ])
        XCTAssertEqual(
            Self.viewDifferences(try Self.schema(Self.uncounted), relations),
            ["public.per_client: view column n: schema.json shows public.projects.id, PostgreSQL a computed value"])
    }

    /// The same comparison on a catalog written by hand: a computed column is reported.
    func testComparisonReportsAComputedColumn() throws {
        let schema = try Self.schema()
        func columns(_ names: [String]) -> [CatalogRelation.Column] { names.map { .init(name: $0, type: "integer", nullable: true, defaultSQL: nil) } }
        var view = CatalogRelation(schema: "public", name: "pairs_twice", kind: "v", rlsEnabled: false, columns: columns(["t1_id1", "t1_id2"]), constraints: [])
        view.viewSources = [.init(column: "t1_id1", from: "public.pairs", fromColumn: "t1_id"), .init(column: "t1_id2", from: nil, fromColumn: nil)]
        let diffs = PostgresCatalog.compare(schema, relations: [view], enums: [:]).first { $0.relation == "public.pairs_twice" }?.differences ?? []
        XCTAssertEqual(diffs, ["view column t1_id2: schema.json shows public.pairs.t1_id, PostgreSQL a computed value"])
    }
}
