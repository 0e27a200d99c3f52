import XCTest
import MockBinding
@testable import ContractKit
@testable import MockSupabase

/// A simple view's own column default (`ALTER VIEW … ALTER COLUMN … SET DEFAULT`): taken by
/// inserts through the view before the base's, compared with PostgreSQL's catalog.
final class ViewColumnDefaultTests: XCTestCase {
    static let schemaJSON = #"""
        {"tables": [
          {"name": "items", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "default": {"value": "base"}}]},
          {"name": "items_view", "view": {"from": "items"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text", "default": {"value": "Default"}}]}]}
        """#

    static let ddl = """
        create table items (id int primary key, name text default 'base');
        create view items_view as select * from items;
        alter view items_view alter column name set default 'Default';
        """

    static func schema(_ json: String = schemaJSON) throws -> DatabaseSchema {
        try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(json), file: "inline"))
    }

    /// A mutant schema: the view column without its own default.
    static let undefaulted = schemaJSON.replacingOccurrences(of: #", "default": {"value": "Default"}"#, with: "")

    func testPostgresCatalogAgreesAndRejectsAMissingViewDefault() throws {
        XCTAssertNotEqual(Self.undefaulted, Self.schemaJSON)
        let cluster: PostgresCluster
        do { cluster = try PostgresChecks.sharedCluster() } catch let e as PostgresUnavailable {
            if ProcessInfo.processInfo.environment[PostgresChecks.requireVariable] == "1" { throw e }
            throw XCTSkip("PostgreSQL not available (\(e.reason))")
        }
        try cluster.createDatabase("view_default_catalog", applying: [], extraSQL: [Self.ddl])
        let session = try PsqlSession(installation: cluster.installation, host: cluster.host, database: "view_default_catalog")
        defer { session.close() }
        let target = PostgresTarget(session: session, schema: try Self.schema(), statuses: try ContractsLocator.postgrestStatuses())
        let (relations, _) = try PostgresCatalog.read(target)
        func columnDiffs(_ json: String) throws -> [String] {
            PostgresCatalog.compare(try Self.schema(json), relations: relations, enums: [:]).flatMap { r in
                r.differences.filter { $0.hasPrefix("column ") }.map { "\(r.relation): \($0)" }
            }
        }
        XCTAssertEqual(try columnDiffs(Self.schemaJSON), [])
        XCTAssertEqual(try columnDiffs(Self.undefaulted), ["public.items_view: column name: default: schema.json none, PostgreSQL 'Default'::text"])
    }

    /// The spec-table cases that depend on the view default fail on a fixture without it.
    func testEngineWithoutTheViewDefaultIsCaught() throws {
        let plain = SpecTablesFixture.schemaJSON.replacingOccurrences(
            of: #"{"name": "name", "type": "text", "default": {"value": "Default"}}"#, with: #"{"name": "name", "type": "text"}"#)
        XCTAssertNotEqual(plain, SpecTablesFixture.schemaJSON)
        let mutant = try SpecTablesFixture(schemaJSON: plain)
        var caught = 0
        for c in PostgRESTCaseCorpusTests.viewDefaultCases {
            let got = try mutant.send(c.method, c.target, headers: c.headers, body: c.body)
            let want: JSONValue? =
                switch c.expect {
                case .exact(let s), .json(let s): try JSONValue.parse(s)
                case .none: nil
                }
            if got.status != c.status || (want != nil && (try? JSONValue.parse(got.text)) != want) { caught += 1 }
        }
        XCTAssertEqual(caught, 3)
    }
}
