import Foundation
import XCTest

@testable import ContractKit

/// `PostgresTarget.executeAll` runs a batch of RLS cases in one call of
/// `PostgresCaseBatch.function`; every case must get exactly the outcome its own psql script
/// gives (`executePipelined`), and a batch that loses, reorders or misattributes a case, or does
/// not undo one, must be caught.
final class PostgresCaseBatchTests: XCTestCase {
    /// The apps with SQL and a cluster holding a seeded database of each, made once (read-only
    /// after; the sessions lock themselves).
    nonisolated(unsafe) private static let shared: Result<(PostgresCluster, [(AppSpec, PostgresTarget)]), any Error> = Result {
        let cluster = try PostgresCluster.start()
        let apps = ["teleportme", "naarscars", "civicforge", "aura", "shvil"].filter { PostgresCluster.hasSQL(app: $0) }
        let targets = try apps.map { app -> (AppSpec, PostgresTarget) in
            let spec = try AppSpec.load(folder: ContractsLocator.app(app))
            return (spec, try PostgresTarget.open(cluster: cluster, spec: spec, database: "batch_\(app)"))
        }
        return (cluster, targets)
    }

    private func targets() throws -> [(AppSpec, PostgresTarget)] {
        do { return try Self.shared.get().1 } catch let e as PostgresUnavailable {
            if ProcessInfo.processInfo.environment["SUPACONTRACTS_REQUIRE_POSTGRES"] == "1" { XCTFail(e.reason) }
            throw XCTSkip("PostgreSQL not available (\(e.reason))")
        }
    }

    /// Reads, re-inserts, updates and deletes for every table × actor (two rows each), seeded
    /// random cases (writes with and without RETURNING, whole-table statements, service role),
    /// and for the smaller matrices every matrix case (witness rows inserted in setup).
    private func cases(_ spec: AppSpec) throws -> [RLSCase] {
        var out = DifferentialExpansion.cases(spec, rowsPerTable: 2) + RandomizedCases.generate(spec, seed: 19, count: 300)
        if ["teleportme", "aura"].contains(spec.app), RLSSuite.hasMatrix(spec.app) {
            out += RLSExpansion(spec: spec, now: Date(), statuses: try ContractsLocator.postgrestStatuses()).cases
        }
        return out
    }

    /// A target over the same session running the batch function `function`.
    private func batched(_ t: PostgresTarget, _ function: String) -> PostgresTarget {
        let m = PostgresTarget(session: t.session, schema: t.schema, statuses: t.statuses)
        m.caseBatchFunction = function
        return m
    }

    func testEveryCaseGetsTheOutcomeOfItsOwnScript() throws {
        for (spec, target) in try targets() {
            let cs = try cases(spec)
            let batch = try batchOutcomes(target, cs)
            let one = target.executePipelined(cs)
            XCTAssertEqual(batch.count, cs.count)
            var differ: [String] = []
            for (i, c) in cs.enumerated() {
                let a = try batch[i].get(), b = try one[i].get()
                // Compared as verify compares them: a write's echoed rows on the key and the
                // written columns (the others hold `now()` and new ids, different on every run).
                let cols = c.comparedColumns(in: spec.schema)
                let same =
                    a.status == b.status && a.code == b.code && a.message == b.message && a.count == b.count
                    && DifferentialOutcome(a).projected(cols) == DifferentialOutcome(b).projected(cols)
                if !same { differ.append("\(c.name): batch \(a), own script \(b)") }
            }
            XCTAssertEqual(differ, [], "\(spec.app): \(differ.count) of \(cs.count) cases differ")
            // The comparison has teeth: the cases give errors, counts and rows.
            let outcomes = try batch.map { try $0.get() }
            XCTAssertTrue(outcomes.contains { $0.code == "42501" }, spec.app)
            XCTAssertTrue(outcomes.contains { ($0.rows?.count ?? 0) > 0 }, spec.app)
            XCTAssertTrue(outcomes.contains { $0.rows == nil && ($0.count ?? 0) > 0 }, spec.app)
        }
    }

    func testABatchThatLosesACaseNamesIt() throws {
        let (spec, target) = try XCTUnwrap(try targets().first)
        let cs = Array(DifferentialExpansion.cases(spec).prefix(40))
        let dropping = try mutant("return next outcome;", "if i <> 7 then return next outcome; end if;")
        let out = batched(target, dropping).executeAll(cs)
        XCTAssertEqual(out.count, cs.count)
        // Case 8 has no line: it and every case after it (their lines no longer line up) fail,
        // each named; the cases before it keep their outcomes.
        for i in 0..<7 { XCTAssertNoThrow(try out[i].get()) }
        for i in 7..<cs.count {
            XCTAssertThrowsError(try out[i].get()) { e in XCTAssertTrue("\(e)".contains(cs[i].name), "\(e)") }
        }
    }

    func testABatchAnsweringOutOfOrderIsRefused() throws {
        let (spec, target) = try XCTUnwrap(try targets().first)
        let cs = Array(DifferentialExpansion.cases(spec).prefix(40))
        let swapped = try mutant("return next outcome;", "return next outcome || jsonb_build_object('i', case i when 3 then 4 when 4 then 3 else i end);")
        let out = batched(target, swapped).executeAll(cs)
        XCTAssertEqual(out.indices.filter { (try? out[$0].get()) == nil }, [3, 4], "the two cases whose lines changed places, and only they, fail")
        XCTAssertThrowsError(try out[3].get()) { e in XCTAssertTrue("\(e)".contains(cs[3].name), "\(e)") }
    }

    /// Wrong batches whose lines look right: each case answered with the next case's outcome,
    /// and cases not undone. The comparison verify makes (`RLSDifferential.compare`, here against
    /// each case's own script) reports them; the right function gives no disagreement.
    func testMisattributedOrLeakingCasesAreCaughtByTheDifferential() throws {
        let (spec, target) = try XCTUnwrap(try targets().first)
        let cs = DifferentialExpansion.cases(spec, rowsPerTable: 2)
        let reference = OwnScripts(target: target)
        /// Failing results, or 1 when the comparison fails as a whole (a read answered with a
        /// write's outcome: verify shows that as the row's error).
        func disagreements(_ function: String) -> Int {
            do {
                return try RLSDifferential.compare(cs, mock: reference, postgres: batched(target, function), schema: spec.schema, app: spec.app)
                    .filter { !$0.passed }.count
            } catch { return 1 }
        }
        XCTAssertEqual(disagreements(PostgresCaseBatch.function), 0)
        let shifted = try mutant("return next outcome;", "if i > 0 then return next outcome || jsonb_build_object('i', i - 1); end if;")
        XCTAssertGreaterThan(disagreements(shifted), 0, "a batch answering each case with the next one's outcome")
        let leaking = try mutant("raise sqlstate 'SCRB0' using message = 'undo the case';", "")
        XCTAssertGreaterThan(disagreements(leaking), 0, "a batch that keeps each case's writes for the next")
    }

    /// The batch function with one line changed.
    private func mutant(_ line: String, _ replacement: String) throws -> String {
        let f = PostgresCaseBatch.function.replacingOccurrences(of: line, with: replacement)
        guard f != PostgresCaseBatch.function else { throw MutantDoesNotApply(line: line) }
        return f
    }

    /// The function no longer holds the line a mutant changes.
    private struct MutantDoesNotApply: Error { var line: String }

    /// The cases' outcomes from the batch function itself, `PostgresTarget.pipelineChunk` at a
    /// time, with no fallback to one script per case: a batch the server refuses fails the test.
    private func batchOutcomes(_ target: PostgresTarget, _ cases: [RLSCase]) throws -> [Result<RLSOutcome, any Error>] {
        var out: [Result<RLSOutcome, any Error>] = []
        for start in stride(from: 0, to: cases.count, by: PostgresTarget.pipelineChunk) {
            let sqls = cases[start..<min(start + PostgresTarget.pipelineChunk, cases.count)].map(RLSCaseSQL.init)
            let reply = try target.session.run(PostgresCaseBatch.script(sqls, function: PostgresCaseBatch.function))
            out += try PostgresCaseBatch.outcomes(reply, cases: sqls, statuses: target.statuses)
        }
        return out
    }

    /// Every case through its own psql script.
    private struct OwnScripts: RLSTarget {
        let target: PostgresTarget
        func execute(_ c: RLSCase) throws -> RLSOutcome { try target.execute(c) }
        func executeAll(_ cases: [RLSCase]) -> [Result<RLSOutcome, any Error>] { target.executePipelined(cases) }
    }
}
