import XCTest
import MockBinding
import MockSupabase
@testable import Shvil

/// The gate: Shvil's SQL agrees with its JSON contracts.
final class ShvilSQLTests: GateTestCase {
    func testMigrationMatchesSchemaAndPolicies() throws {
        let spec = try ShvilApp.spec()
        XCTAssertEqual(try CivicShvilSQL(app: ShvilApp.name).problems(schema: spec.schema, policies: spec.policies), [])
    }

    func testReorderErrorsMatchRulesJson() throws {
        let rules = try ShvilRules.load()
        let sql = try CivicShvilSQL(app: ShvilApp.name).text
        for e in [rules.notFound, rules.notPermutation] {
            XCTAssertTrue(sql.contains("errcode = '\(e.code)', message = '\(e.message)'"), "\(e.code)")
        }
        XCTAssertTrue(sql.contains("function public.\(rules.reorderFunction)(p_adventure_id uuid, p_stop_ids uuid[])"))
    }

    /// Mutant: a schema whose column is NOT NULL while the SQL leaves it nullable.
    func testMigrationCheckCatchesDrift() throws {
        var schema = try ShvilApp.spec().schema
        let t = schema.tables.firstIndex { $0.name == "adventures" }!
        let c = schema.tables[t].columns.firstIndex { $0.name == "description" }!
        schema.tables[t].columns[c].nullable = false
        let problems = try CivicShvilSQL(app: ShvilApp.name).problems(schema: schema, policies: try ShvilApp.spec().policies)
        XCTAssertEqual(problems.count, 1)
        XCTAssertTrue(problems[0].hasPrefix("adventures.description: nullability differs"), "\(problems)")
    }
}
