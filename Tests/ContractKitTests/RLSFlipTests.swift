import XCTest
@testable import ContractKit

/// Flips of a matrix and the recognition of flips that cannot change any outcome.
final class RLSFlipTests: XCTestCase {
    func expr(_ json: String) throws -> Expr { try SpecNode(value: try JSONValue.parse(json), file: "test").decode(Expr.self) }

    func testEveryCellGetsItsFlips() throws {
        let spec = try RLSTestApp.spec()
        let flips = RLSFlip.all(spec.policies, schema: spec.schema)
        let notesSelect = flips.filter { $0.table == "notes" && $0.command == .select }.map(\.kind)
        XCTAssertEqual(notesSelect, ["negated", "public", "nobody", "owner user_id dropped", "owner shared_with dropped"])
        XCTAssertFalse(flips.contains { $0.table == "tags" }, "a table with RLS off ignores its cells")
        for f in flips {
            XCTAssertNotEqual(f.policies, spec.policies, f.name)
            let changed = f.policies.tables.enumerated().filter { $0.element != spec.policies.tables[$0.offset] }
            XCTAssertEqual(changed.map(\.element.table), [f.table], "one cell of one table per flip: \(f.name)")
        }
    }

    func testFlipsTheSelectPolicyAlreadyImpliesAreEquivalent() throws {
        let spec = try RLSTestApp.spec()
        let all = RLSFlip.all(spec.policies, schema: spec.schema, includeEquivalent: true)
        // prefs: UPDATE and DELETE reach only rows the SELECT policy (the same owner test) shows.
        XCTAssertEqual(all.first { $0.name == "prefs · DELETE · public" }?.equivalent, true)
        XCTAssertEqual(all.first { $0.name == "prefs · UPDATE · USING dropped" }?.equivalent, true)
        XCTAssertEqual(all.first { $0.name == "prefs · DELETE · negated" }?.equivalent, false)
        XCTAssertEqual(all.first { $0.name == "notes · DELETE · public" }?.equivalent, false, "shared_with sees the note but may not delete it")
    }

    func testSimplifier() throws {
        let spec = try RLSTestApp.spec()
        let s = Simplifier(table: "notes", schema: spec.schema, definitions: spec.policies.definitions)
        let owner = try expr(#"{"owner": "user_id"}"#)
        XCTAssertEqual(s.simplify(.all([owner, .constant(true), owner])), owner)
        XCTAssertEqual(s.simplify(.any([owner, .constant(true)])), .constant(true))
        XCTAssertEqual(s.simplify(.not(.not(owner))), owner)
        XCTAssertEqual(s.simplify(.all([owner, .any([owner, try expr(#"{"owner": "shared_with"}"#)])])), owner, "absorption")
        XCTAssertEqual(s.simplify(.all([try expr(#"{"isNull": {"column": "shared_with"}}"#), try expr(#"{"owner": "shared_with"}"#)])), .constant(false))
        // The parent a NOT NULL foreign key points to always exists.
        XCTAssertEqual(s.simplify(try expr(#"{"exists": {"table": "profiles", "where": {"eq": [{"column": "id"}, {"outer": "user_id"}]}}}"#)), .constant(true))
        XCTAssertEqual(
            s.simplify(try expr(#"{"exists": {"table": "profiles", "where": {"eq": [{"column": "id"}, {"outer": "shared_with"}]}}}"#)),
            try expr(#"{"notNull": {"column": "shared_with"}}"#))
    }

    func testAFlipTheTargetIgnoresIsReported() throws {
        // A target that never installs the flipped matrix: every flip must be reported as not
        // enforced (the cases that should notice kept their original outcome).
        final class Stubborn: RLSPolicyInstalling {
            let inner: MockTarget
            init(_ inner: MockTarget) { self.inner = inner }
            func execute(_ c: RLSCase) throws -> RLSOutcome { try inner.execute(c) }
            func install(_ policies: PolicySet) throws {}
        }
        let (backend, e) = try RLSTestApp.backend()
        let target = Stubborn(MockTarget(backend: backend, transport: .inProcess))
        let flips = try RLSSuite.flipTest(e, on: target, baseline: RLSSuite.run(e, on: target))
        XCTAssertFalse(flips.isEmpty)
        for f in flips {
            guard case .notEnforced = f.verdict else { return XCTFail("\(f.flip.name): \(f.verdict)") }
        }
    }
}
