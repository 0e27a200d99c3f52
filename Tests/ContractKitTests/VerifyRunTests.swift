import XCTest
#if canImport(FoundationXML)
    import FoundationXML
#endif
import MockBinding

/// The verify runner and its outputs: skips are visible, `--require` turns them into failures,
/// load errors are reported once, and JSON/JUnit carry every case.
final class VerifyRunTests: XCTestCase {
    enum FakeApp: ContractApp, AppModule {
        static let name = "fake"
        static let title = "Fake"
        static func register(on backend: MockSupabase) {}
    }

    let passing = VerifySuite(kind: "alpha") { app in
        [
            CaseResult(app: app.name, kind: "alpha", name: "t · SELECT · as amy", passed: true),
            CaseResult(app: app.name, kind: "alpha", name: "t · DELETE · as bo", passed: false, message: "expected denied, got 1 row <&>")
        ]
    }
    let skipping = VerifySuite(kind: "postgres") { _ in throw VerifySkip("PostgreSQL not found; install postgresql-15 or set PG_BIN") }

    func testSkipIsARowAndPassesUnlessRequired() {
        let ok = VerifySuite(kind: "beta") { app in [CaseResult(app: app.name, kind: "beta", name: "x", passed: true)] }
        let free = VerifyRunner.run(apps: [FakeApp.self], suites: [ok, skipping], check: { _ in [] })
        XCTAssertTrue(free.passed)
        XCTAssertTrue(VerifyOutput.text(free, maxFailures: 50).contains("skipped: PostgreSQL not found; install postgresql-15 or set PG_BIN"))
        let strict = VerifyRunner.run(apps: [FakeApp.self], suites: [ok, skipping], required: ["postgres"], check: { _ in [] })
        XCTAssertFalse(strict.passed, "a required kind that skips fails verify")
        XCTAssertTrue(VerifyOutput.text(strict, maxFailures: 50).contains("required (--require postgres) but skipped"))
        let nothing = VerifyRunner.run(apps: [FakeApp.self], suites: [skipping], check: { _ in [] })
        XCTAssertFalse(nothing.passed, "no case ran")
    }

    func testLoadErrorsAreReportedOnceAndKindsShownAsNotRun() {
        let counting = VerifySuite(kind: "alpha") { _ in
            XCTFail("a kind ran on contracts that do not load"); return []
        }
        let o = VerifyRunner.run(apps: [FakeApp.self], suites: [counting, skipping], check: { _ in ["Contracts/fake/policies.json: missing file"] })
        XCTAssertFalse(o.passed)
        let text = VerifyOutput.text(o, maxFailures: nil)
        XCTAssertEqual(text.components(separatedBy: "policies.json: missing file").count - 1, 1, "the error is printed once:\n\(text)")
        XCTAssertEqual(text.components(separatedBy: "not run: the app's contracts did not load").count - 1, 2, "each kind says it did not run")
    }

    /// A broken file two kinds read is one error naming both kinds, not a "1 case" row each.
    func testTheSameErrorOfSeveralKindsIsPrintedOnce() {
        struct Broken: Error, CustomStringConvertible { var description: String { "Contracts/fake/interactions/a.json: $: invalid JSON" } }
        let a = VerifySuite(kind: "interactions") { _ in throw Broken() }
        let b = VerifySuite(kind: "models") { _ in throw Broken() }
        let text = VerifyOutput.text(VerifyRunner.run(apps: [FakeApp.self], suites: [a, b], check: { _ in [] }), maxFailures: 50)
        XCTAssertEqual(text.components(separatedBy: "invalid JSON").count - 1, 1, text)
        XCTAssertTrue(text.contains("fake · interactions, fake · models: Contracts/fake/interactions/a.json"), text)
        XCTAssertTrue(text.contains("2 rule kinds failed as a whole"), text)
        XCTAssertFalse(text.contains("  1  "), "no kind collapses to one case:\n\(text)")
    }

    func testJUnitHasATestcasePerCaseAndFailuresNameTheCell() {
        let o = VerifyRunner.run(apps: [FakeApp.self], suites: [passing, skipping], check: { _ in [] })
        let xml = VerifyOutput.junit(o)
        XCTAssertTrue(xml.contains(#"<testsuites name="contracts verify" tests="3" failures="1" errors="0" skipped="1""#), xml)
        XCTAssertTrue(xml.contains(#"<testcase classname="fake.alpha" name="t · SELECT · as amy"/>"#), xml)
        XCTAssertTrue(
            xml.contains(
                #"<failure message="expected denied, got 1 row &lt;&amp;&gt;">fake · t · DELETE · as bo · expected denied, got 1 row &lt;&amp;&gt;</failure>"#),
            xml)
        XCTAssertTrue(xml.contains(#"<skipped message="PostgreSQL not found"#), xml)
        // Well-formed: Foundation's XML parser reads it.
        XCTAssertTrue(XMLParser(data: Data(xml.utf8)).parse())
    }

    func testJSONListsEveryCaseAndTheTextCapIsOptional() throws {
        let many = VerifySuite(kind: "alpha") { app in
            (0..<120).map { CaseResult(app: app.name, kind: "alpha", name: "case \($0)", passed: false, message: "m\($0)") }
        }
        let o = VerifyRunner.run(apps: [FakeApp.self], suites: [many], check: { _ in [] })
        let doc = try JSONValue.parse(Data(VerifyOutput.json(o).utf8))
        XCTAssertEqual(doc["cases"]?.arrayValue?.count, 120)
        XCTAssertEqual(doc["summary"]?["failed"], .int(120))
        XCTAssertEqual(doc["passed"], .bool(false))
        XCTAssertEqual(VerifyOutput.text(o, maxFailures: 50).components(separatedBy: "\nFAIL ").count - 1, 50)
        XCTAssertTrue(VerifyOutput.text(o, maxFailures: 50).contains("… and 70 more failures"))
        XCTAssertEqual(VerifyOutput.text(o, maxFailures: nil).components(separatedBy: "\nFAIL ").count - 1, 120)
    }

    func testColoursOnlyWhenAsked() {
        let o = VerifyRunner.run(apps: [FakeApp.self], suites: [passing], check: { _ in [] })
        XCTAssertFalse(VerifyOutput.text(o, maxFailures: 50).contains("\u{1B}["))
        XCTAssertTrue(VerifyOutput.text(o, maxFailures: 50, style: .init(color: true)).contains("\u{1B}[31m"))
    }
}

/// Every file of an app's contracts folder must be claimed by a rule kind; required files present.
final class ContractFolderCheckTests: XCTestCase {
    enum ClaimingApp: ContractApp, AppModule {
        static let name = "claiming"
        static let title = "Claiming"
        static func register(on backend: MockSupabase) {}
        static var contractFiles: [ContractFile] {
            [
                ContractFile("flags.json", kind: AppRulesSuite.kind) { folder in
                    let v = try JSONValue.parse(Data(contentsOf: folder.appendingPathComponent("flags.json")))
                    return [RuleCheck("has flags", violations: v["flags"] == nil ? ["no flags"] : [])]
                }
            ]
        }
    }

    func testUnreadMissingAndBrokenFilesAreErrors() throws {
        let spec = try RLSTestApp.spec()
        let folder = spec.folder
        try Data(#"{"flags":[]}"#.utf8).write(to: folder.appendingPathComponent("flags.json"))
        XCTAssertEqual(
            ContractFolderCheck.problems(ClaimingApp.self, folder: folder).filter { !$0.contains("Contracts/claiming/") || $0.contains("no rule kind") }, [])
        try Data("{}".utf8).write(to: folder.appendingPathComponent("notes.json"))
        XCTAssertEqual(
            ContractFolderCheck.problems(ClaimingApp.self, folder: folder),
            [
                "Contracts/claiming/notes.json: no rule kind of verify reads this file; remove it, or claim it in ClaimingApp.contractFiles with the check that reads it"
            ])
        try FileManager.default.removeItem(at: folder.appendingPathComponent("notes.json"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("flags.json"))
        XCTAssertEqual(
            ContractFolderCheck.problems(ClaimingApp.self, folder: folder), ["Contracts/claiming/flags.json: missing file (read by the app-rules rule kind)"])
        try Data("{}".utf8).write(to: folder.appendingPathComponent("flags.json"))
        let results = AppRulesSuite.run(ClaimingApp.self, folder: folder)
        XCTAssertEqual(results.map(\.passed), [false], "an emptied rule file fails its check")
        try Data("{".utf8).write(to: folder.appendingPathComponent("flags.json"))
        XCTAssertEqual(AppRulesSuite.run(ClaimingApp.self, folder: folder).map(\.name), ["flags.json · loads"])
    }

    func testPoliciesAreRequiredAndCoverEveryTable() throws {
        let folder = try RLSTestApp.spec().folder
        let policies = folder.appendingPathComponent("policies.json")
        let text = try String(contentsOf: policies, encoding: .utf8)
        try FileManager.default.removeItem(at: policies)
        XCTAssertThrowsError(try AppSpec.load(folder: folder)) { e in
            XCTAssertTrue("\(e)".hasPrefix("Contracts/rlstest/policies.json: $: missing file"), "\(e)")
        }
        guard case .object(var o) = try JSONValue.parse(Data(text.utf8)), case .array(var tables) = o["tables"] else { return XCTFail() }
        tables.removeAll { $0["table"] == "tags" }
        o["tables"] = .array(tables)
        try Data(JSONValue.object(o).serialized().utf8).write(to: policies)
        XCTAssertThrowsError(try AppSpec.load(folder: folder)) { e in
            XCTAssertTrue("\(e)".contains("table 'tags' of schema.json has no entry"), "\(e)")
        }
    }
}
