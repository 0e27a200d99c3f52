import XCTest
import MockBinding
import MockSupabase
import TeleportMe
import NaarsCars
import Aura
import CivicForge

/// The gate: schema.json's `functions` equal PostgreSQL's catalog (`pg_proc`: input arguments,
/// defaults, result, SECURITY DEFINER, volatility) for every app, so a function made SECURITY
/// INVOKER, re-typed, dropped or added without the contract fails naming the function. Each
/// mutant is DDL run before the catalog is read, in a transaction that is rolled back.
final class PostgresFunctionCatalogGateTests: GateTestCase {
    func failures(_ app: any AppModule.Type, _ prelude: [String], spec: AppSpec? = nil) throws -> String {
        guard PostgresCluster.hasSQL(app: app.name) else { throw XCTSkip("no \(app.name) SQL") }
        let results = try PostgresChecks.catalogResults(try spec ?? app.spec(), try PostgresGate.target(app), prelude: prelude)
        return results.filter { !$0.passed }.map { "\($0.name): \($0.message)" }.joined(separator: "\n")
    }

    func testEveryAppDeclaresItsFunctionsAndTheCatalogAgrees() throws {
        for app in try PostgresGate.appsWithSQL() {
            let spec = try app.spec()
            let declared = try XCTUnwrap(spec.schema.functions, "\(app.name): schema.json states no functions")
            XCTAssertFalse(declared.isEmpty, app.name)
            let results = try PostgresChecks.catalogResults(spec, try PostgresGate.target(app)).filter { $0.name.hasPrefix("catalog · function") }
            XCTAssertEqual(results.count, declared.count + 1, "\(app.name): one case per declared function and one for undeclared ones")
            XCTAssertTrue(results.allSatisfy(\.passed), PostgresGate.failures(results))
        }
    }

    /// Naar's Cars FR-014: get_unread_counts made SECURITY INVOKER, get_user_stats made VOLATILE,
    /// validate_invite_code's result changed, cleanup_stale_push_tokens dropped, a function
    /// nobody declared.
    func testNaarsCarsFunctionMutantsFail() throws {
        let found = try failures(
            NaarsCarsApp.self,
            [
                "alter function public.get_unread_counts(uuid) security invoker",
                "alter function public.get_user_stats(uuid) volatile",
                "drop function public.validate_invite_code(text)",
                "create function public.validate_invite_code(code text) returns boolean language sql stable security definer as $$ select true $$",
                "drop function public.cleanup_stale_push_tokens()",
                "create function public.make_admin(target uuid) returns void language sql as $$ select $$"
            ])
        for expected in [
            "catalog · function get_unread_counts: schema.json and PostgreSQL differ:\n  - security: schema.json SECURITY DEFINER, PostgreSQL SECURITY INVOKER",
            "catalog · function get_user_stats: schema.json and PostgreSQL differ:\n  - volatility: schema.json STABLE, PostgreSQL VOLATILE",
            "returns: schema.json TABLE(is_valid boolean, code_id uuid, created_by uuid), PostgreSQL boolean",
            "catalog · function cleanup_stale_push_tokens: schema.json and PostgreSQL differ:\n  - missing in PostgreSQL",
            "function make_admin(target uuid) RETURNS void SECURITY INVOKER VOLATILE: in PostgreSQL, not in schema.json"
        ] {
            XCTAssertTrue(found.contains(expected), "expected '\(expected)' in:\n\(found)")
        }
    }

    /// TeleportMe §4.4 search_cities with a renamed argument and a lost default elsewhere; Aura's
    /// update_updated_at made SECURITY DEFINER; CivicForge's private helper made VOLATILE.
    func testArgumentsAndSecurityMutantsFailInOtherApps() throws {
        let teleport = try failures(
            TeleportMeApp.self,
            [
                "drop function public.search_cities(text)",
                "create function public.search_cities(term text, max_rows integer default 20) returns setof public.cities language sql stable as $$ select * from public.cities limit max_rows $$"
            ])
        XCTAssertTrue(teleport.contains("arguments: schema.json (search_term text), PostgreSQL (term text, max_rows integer)"), teleport)
        XCTAssertTrue(teleport.contains("arguments with a default: schema.json 0, PostgreSQL 1"), teleport)
        let aura = try failures(AuraApp.self, ["alter function public.update_updated_at() security definer"])
        XCTAssertTrue(
            aura.contains(
                "catalog · function update_updated_at: schema.json and PostgreSQL differ:\n  - security: schema.json SECURITY INVOKER, PostgreSQL SECURITY DEFINER"
            ), aura)
        let civic = try failures(CivicForgeApp.self, ["alter function civicforge_private.can_see_post(uuid) volatile"])
        XCTAssertTrue(
            civic.contains(
                "catalog · function civicforge_private.can_see_post: schema.json and PostgreSQL differ:\n  - volatility: schema.json STABLE, PostgreSQL VOLATILE"
            ), civic)
    }

    /// The other way round: a schema.json whose function is wrong fails against the right database.
    func testAWrongSchemaFileFails() throws {
        var spec = try NaarsCarsApp.spec()
        spec.schema.functions = spec.schema.functions?.map { f in
            var f = f
            if f.name == "mark_messages_read" { f.security = .invoker }
            return f
        }
        let found = try failures(NaarsCarsApp.self, [], spec: spec)
        XCTAssertTrue(
            found.contains(
                "catalog · function mark_messages_read: schema.json and PostgreSQL differ:\n  - security: schema.json SECURITY INVOKER, PostgreSQL SECURITY DEFINER"
            ), found)
    }

    /// functions.json (what the mock's RPCs and the function checks follow) and schema.json's
    /// `functions` (what the catalog is compared with) say the same of every FR-014 function.
    func testNaarsCarsFunctionsFileAgreesWithSchema() throws {
        let declared = try XCTUnwrap(try NaarsCarsApp.spec().schema.functions)
        let rpcs = try NaarsCarsContracts.load().functions.rpcs
        XCTAssertFalse(rpcs.isEmpty)
        for r in rpcs {
            guard let f = declared.first(where: { $0.name == r.name }) else { XCTFail("\(r.name): in functions.json, not in schema.json"); continue }
            XCTAssertEqual(f.security.rawValue, r.security, "\(r.name): security")
            XCTAssertEqual(f.volatility.rawValue, r.volatility, "\(r.name): volatility")
            XCTAssertEqual(f.arguments.map { String($0.split(separator: " ")[0]) }, r.params.map(\.name), "\(r.name): argument names")
            XCTAssertEqual(f.defaults, r.params.filter(\.hasDefault).count, "\(r.name): defaults")
            switch r.returns {
            case .void: XCTAssertEqual(f.returns, "void", r.name)
            case .scalar(let t): XCTAssertEqual(f.returns, t, r.name)
            case .table(let cols): XCTAssertEqual(f.returns, "TABLE(" + cols.map { "\($0.name) \($0.type)" }.joined(separator: ", ") + ")", r.name)
            }
        }
    }

    /// Loading refuses a malformed declaration with the file and JSON path.
    func testMalformedDeclarationsNameFileAndPath() throws {
        let base = try JSONValue.parse(Data(contentsOf: ContractsLocator.app("aura").appendingPathComponent("schema.json")))
        func load(_ key: String, _ value: JSONValue) -> String {
            guard case .object(var o) = base, case .array(var fs) = o["functions"], case .object(var f) = fs[0] else { return "no functions" }
            f[key] = value; fs[0] = .object(f); o["functions"] = .array(fs)
            do { _ = try DatabaseSchema.decode(SpecNode(value: .object(o), file: "Contracts/aura/schema.json")); return "loaded" } catch { return "\(error)" }
        }
        XCTAssertEqual(load("security", "owner"), "Contracts/aura/schema.json: $.functions[0].security: security is 'definer' or 'invoker', not 'owner'")
        XCTAssertEqual(
            load("volatility", "pure"), "Contracts/aura/schema.json: $.functions[0].volatility: volatility is 'immutable' or 'stable' or 'volatile', not 'pure'"
        )
        XCTAssertEqual(
            load("defaults", 3), "Contracts/aura/schema.json: $.functions[0].defaults: defaults counts trailing arguments with a default: 0 to 0, not 3")
    }
}
