import XCTest
import MockBinding
@testable import ContractKit
@testable import MockSupabase

/// Stored generated columns (`"generated"` in schema.json): computed on every insert and update,
/// refused when written (PostgreSQL's 428C9 texts, checked on PostgreSQL 15), and compared with
/// PostgreSQL's catalog (`attgenerated = 's'`, the expression `pg_get_expr` prints).
final class GeneratedColumnTests: XCTestCase {
    static let schemaJSON = #"""
        {"tables": [
          {"name": "foo", "columns": [
            {"name": "a", "type": "text"},
            {"name": "b", "type": "text", "generated": {"case": [
              {"when": {"eq": [{"column": "a"}, {"value": "telegram"}]}, "then": {"value": "im"}},
              {"when": {"eq": [{"column": "a"}, {"value": "proton"}]}, "then": {"value": "email"}}], "else": {"value": "bad idea"}},
             "generatedSQL": "CASE WHEN a = 'telegram' THEN 'im' WHEN a = 'proton' THEN 'email' ELSE 'bad idea' END"}]},
          {"name": "tagged", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "x", "type": "integer"},
            {"name": "label", "type": "text", "generated": {"coalesce": [{"concat": [{"value": "n"}, {"column": "x"}]}, {"value": "none"}]},
             "generatedSQL": "COALESCE('n' || x::text, 'none')"},
            {"name": "note", "type": "text"}]}]}
        """#

    static let ddl = """
        create table foo (a text, b text generated always as (
          case when a = 'telegram' then 'im' when a = 'proton' then 'email' else 'bad idea' end) stored);
        create table tagged (id int primary key, x int, label text generated always as (coalesce('n' || x::text, 'none')) stored, note text);
        """

    static func schema(_ json: String = schemaJSON) throws -> DatabaseSchema {
        try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(json), file: "inline"))
    }

    /// The comparison's column findings (`relation: difference`).
    static func differences(_ schema: DatabaseSchema, _ relations: [CatalogRelation]) -> [String] {
        PostgresCatalog.compare(schema, relations: relations, enums: [:]).flatMap { r in
            r.differences.filter { $0.hasPrefix("column ") }.map { "\(r.relation): \($0)" }
        }
    }

    /// Mutant schemas: `b` declared plain, `label`'s expression wrong, `note` declared generated.
    static let undeclared = withoutGeneratedB(schemaJSON, upTo: #"ELSE 'bad idea' END""#)
    /// `json` with `foo.b`'s `generated` and `generatedSQL` cut (from the first to `end`).
    static func withoutGeneratedB(_ json: String, upTo end: String) -> String {
        let start = json.range(of: #", "generated": {"case": ["#)!
        return json.replacingCharacters(in: start.lowerBound..<json.range(of: end)!.upperBound, with: "")
    }
    static let wrongExpression = schemaJSON.replacingOccurrences(of: "'none')", with: "'nothing')")
    static let falselyGenerated = schemaJSON.replacingOccurrences(
        of: #"{"name": "note", "type": "text"}"#, with: #"{"name": "note", "type": "text", "generated": {"column": "x"}}"#)

    func testPostgresCatalogAgreesAndRejectsMutants() throws {
        let cluster: PostgresCluster
        do { cluster = try PostgresChecks.sharedCluster() } catch let e as PostgresUnavailable {
            if ProcessInfo.processInfo.environment[PostgresChecks.requireVariable] == "1" { throw e }
            throw XCTSkip("PostgreSQL not available (\(e.reason))")
        }
        try cluster.createDatabase("generated_catalog", applying: [], extraSQL: [Self.ddl])
        let session = try PsqlSession(installation: cluster.installation, host: cluster.host, database: "generated_catalog")
        defer { session.close() }
        let target = PostgresTarget(session: session, schema: try Self.schema(), statuses: try ContractsLocator.postgrestStatuses())
        let (relations, _) = try PostgresCatalog.read(target)
        XCTAssertEqual(relations.first { $0.name == "tagged" }?.columns.map(\.generated), [false, false, true, false])
        XCTAssertEqual(Self.differences(try Self.schema(), relations), [])
        XCTAssertEqual(
            Self.differences(try Self.schema(Self.undeclared), relations).map { $0.prefix(47) },
            ["public.foo: column b: PostgreSQL generates it ("])
        XCTAssertEqual(
            Self.differences(try Self.schema(Self.wrongExpression), relations),
            [
                "public.tagged: column label: generation expression: schema.json COALESCE('n' || x::text, 'nothing'), "
                    + "PostgreSQL COALESCE(('n'::text || (x)::text), 'none'::text)"
            ])
        XCTAssertEqual(
            Self.differences(try Self.schema(Self.falselyGenerated), relations),
            ["public.tagged: column note: schema.json declares a generated column, PostgreSQL stores a plain one"])
    }

    /// The engine computes on insert and on update, and a mutant schema that stores `b` as a plain
    /// column is caught by the corpus's generated-column cases.
    func testEngineComputesOnInsertAndUpdate() throws {
        let f = try SpecTablesFixture()
        XCTAssertEqual(try f.send("POST", "foo", body: #"{"a": "telegram"}"#).status, 201)
        let r = try f.send("PATCH", "foo?a=eq.telegram", headers: ["Prefer": "return=representation"], body: #"{"a": "infinity"}"#)
        XCTAssertEqual(r.status, 200)
        XCTAssertEqual(r.text, #"[{"a":"infinity","b":"idea"}]"#)
        let cleared = try f.send("PATCH", "foo?a=eq.infinity", headers: ["Prefer": "return=representation"], body: #"{"a": null}"#)
        XCTAssertEqual(cleared.text, #"[{"a":null,"b":"bad idea"}]"#)

        let plain = Self.withoutGeneratedB(SpecTablesFixture.schemaJSON, upTo: #"ELSE 'bad idea'::text END""#)
        let mutant = try SpecTablesFixture(schemaJSON: plain)
        var caught = 0
        for c in PostgRESTCaseCorpusTests.generatedColumnCases {
            let got = try mutant.send(c.method, c.target, headers: c.headers, body: c.body)
            let body: String? = if case .exact(let s) = c.expect { s } else { nil }
            if got.status != c.status || (body != nil && got.text != body) { caught += 1 }
        }
        XCTAssertGreaterThanOrEqual(caught, 5)
    }

    func testSchemaRefusesWhatPostgreSQLRefuses() throws {
        func decodes(_ column: String) -> Bool {
            let json = #"{"tables": [{"name": "t", "columns": [{"name": "x", "type": "integer"}, "# + column + "]}]}"
            return (try? Self.schema(json)) != nil
        }
        XCTAssertTrue(decodes(#"{"name": "y", "type": "integer", "generated": {"column": "x"}}"#))
        XCTAssertFalse(decodes(#"{"name": "y", "type": "integer", "generated": {"column": "x"}, "default": {"value": 1}}"#))
        XCTAssertFalse(decodes(#"{"name": "y", "type": "integer", "generated": {"column": "z"}}"#))
        XCTAssertFalse(decodes(#"{"name": "y", "type": "integer", "generated": {"column": "y"}}"#))
        XCTAssertFalse(decodes(#"{"name": "y", "type": "integer", "generatedSQL": "x"}"#))
        XCTAssertFalse(decodes(#"{"name": "y", "type": "integer", "generated": {"case": []}}"#))
    }
}
