import XCTest
import AppRegistry
import MockBinding
import MockSupabase
import CivicForge

/// The gate: every rule value a document states carries its words (`trace`: document, section,
/// quote, the members holding it) and each number quoted equals the value held, so a value that
/// drifts from the document, or words edited without the value, fail naming the rule.
final class SourceTraceContractsTests: GateTestCase {
    func testEveryQuotedNumberEqualsItsRulesValue() {
        for app in allApps {
            let r = SourceTraceSuite.scan(folder: ContractsLocator.app(app.name), display: "Contracts/\(app.name)")
            XCTAssertEqual(r.problems.map(\.description), [], app.name)
            XCTAssertFalse(r.found.isEmpty, "\(app.name): no rule carries the document's words")
        }
    }

    /// A copy of an app's folder with `edits` (file, text, replacement) applied verbatim, removed
    /// when the test ends.
    func mutated(_ app: String, _ edits: [(file: String, from: String, to: String)]) throws -> URL {
        let (root, dir) = try Self.mutatedCopy(app, edits)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        return dir
    }

    /// A copy of an app's folder with `edits` applied, in a temporary folder (`root`) the caller
    /// removes.
    static func mutatedCopy(_ app: String, _ edits: [(file: String, from: String, to: String)]) throws -> (root: URL, dir: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        let dir = root.appendingPathComponent(app)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        do {
            try FileManager.default.copyItem(at: ContractsLocator.app(app), to: dir)
            for e in edits {
                let url = dir.appendingPathComponent(e.file)
                let text = try String(contentsOf: url, encoding: .utf8)
                guard text.contains(e.from) else { throw TestSetupFailure(description: "\(e.file) has no '\(e.from)': the mutation cannot be applied") }
                try text.replacingOccurrences(of: e.from, with: e.to).write(to: url, atomically: true, encoding: .utf8)
            }
        } catch {
            try? FileManager.default.removeItem(at: root)
            throw error
        }
        return (root, dir)
    }

    func problems(_ app: String, _ folder: URL) -> [String] {
        Self.problems(app, folder)
    }

    static func problems(_ app: String, _ folder: URL) -> [String] {
        SourceTraceSuite.scan(folder: folder, display: "Contracts/\(app)").problems.map(\.description)
    }

    /// What the source trace and verify's app-rules kind say of the audit's mutation (below):
    /// computed once per process (the gate's warm-up, `GateWarmUp`, makes it while earlier suites
    /// run), its copy removed once read.
    static let civicForgePhotoMutation = Result { () throws -> (trace: String, verify: String) in
        let (root, dir) = try mutatedCopy(
            "civicforge",
            [
                ("photos.json", "\"maxWidth\": 1200", "\"maxWidth\": 1600"),
                ("photos.json", "\"jpegQuality\": 80", "\"jpegQuality\": 95"),
                ("photos.json", "\"width\": 300", "\"width\": 256"),
                ("photos.json", "\"height\": 300", "\"height\": 256"),
                ("schema.json", "         1200\n", "         1600\n"),
                ("schema.json", "width between 1 and 1200", "width between 1 and 1600"),
                ("sql/001_tables.sql", "width between 1 and 1200", "width between 1 and 1600")
            ])
        defer { try? FileManager.default.removeItem(at: root) }
        let trace = problems("civicforge", dir).joined(separator: "\n")
        let verify = AppRulesSuite.run(CivicForgeApp.self, folder: dir).filter { !$0.passed }.map(\.description).joined(separator: "\n")
        return (trace, verify)
    }

    /// The audit's mutation: CivicForge's 1200 px / JPEG 80 / 300 px changed to 1600 / 95 / 256
    /// in photos.json, schema.json and the SQL together. Each value fails naming its member.
    func testCivicForgePhotoValuesChangedEverywhereFail() throws {
        let (found, verify) = try Self.civicForgePhotoMutation.get()
        for rule in [
            "photos.json: $.maxWidth: holds 1600", "photos.json: $.jpegQuality: holds 95", "photos.json: $.thumbnail.height: holds 256",
            "schema.json: $.tables[5].columns[5].check.all[1].lte[1]: holds 1600"
        ] {
            XCTAssertTrue(found.contains(rule), "expected '\(rule)' in:\n\(found)")
        }
        // Verify's app-rules kind names the same members.
        XCTAssertTrue(verify.contains("photos.json: $.maxWidth: holds 1600"), verify)
    }

    /// Words edited without the value fail as well, and a trace of the wrong shape is a load
    /// error naming its path.
    func testEditedWordsAndMalformedTracesFail() throws {
        let words = try mutated(
            "civicforge", [("photos.json", "\"quote\": \"Compress to JPEG at quality 80\"", "\"quote\": \"Compress to JPEG at quality 85\"")])
        XCTAssertTrue(problems("civicforge", words).contains { $0.contains("$.trace[3]: the document states 85") }, "\(problems("civicforge", words))")
        let unknownKey = try mutated("civicforge", [("photos.json", "\"holds\": \"jpegQuality\"", "\"holds\": \"jpegQuality\", \"page\": 4")])
        XCTAssertThrowsError(try PhotoLimits.load(folder: unknownKey)) { XCTAssertTrue("\($0)".contains("$.trace[3].page: unknown key 'page'"), "\($0)") }
        let dangling = try mutated("civicforge", [("photos.json", "\"holds\": \"jpegQuality\"", "\"holds\": \"quality\"")])
        XCTAssertTrue(problems("civicforge", dangling).contains { $0.contains("'quality' names no member") }, "\(problems("civicforge", dangling))")
    }

    /// TeleportMe §4.7: 55 cities across 6 continents, 17 scores per city, 935 in all. A city
    /// removed with its scores (so no foreign key catches it) fails loading naming the count.
    func testTeleportMeSeedCountsAreTheDocuments() throws {
        XCTAssertNoThrow(try AppSpec.load(folder: ContractsLocator.app("teleportme")))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("teleportme")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ContractsLocator.app("teleportme"), to: dir)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        func rewrite(_ file: String, _ change: ([JSONValue]) -> [JSONValue]) throws {
            let url = dir.appendingPathComponent(file)
            guard case .array(let rows) = try JSONValue.parse(Data(contentsOf: url)) else { throw TestSetupFailure(description: "\(file) is not an array") }
            try Data(JSONValue.array(change(rows)).serialized(.pretty).utf8).write(to: url)
        }
        var removed = ""
        try rewrite("fixtures/cities.json") { rows in
            removed = rows.last?["id"]?.stringValue ?? ""; return Array(rows.dropLast())
        }
        try rewrite("fixtures/city_scores.json") { rows in rows.filter { $0["city_id"]?.stringValue != removed } }
        XCTAssertThrowsError(try AppSpec.load(folder: dir)) { error in
            XCTAssertTrue("\(error)".contains("fixtures.json: $.tables[0].count: cities has 54 fixture rows, the document's count is 55"), "\(error)")
        }
        // One score dropped: the per-city count names the city.
        let scores = try withoutOneScore()
        XCTAssertThrowsError(try AppSpec.load(folder: scores)) { error in
            XCTAssertTrue("\(error)".contains("$.tables[1]"), "\(error)")
        }
    }

    /// A fresh copy of TeleportMe's folder with one score row removed.
    func withoutOneScore() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
        let dir = root.appendingPathComponent("teleportme")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ContractsLocator.app("teleportme"), to: dir)
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let url = dir.appendingPathComponent("fixtures/city_scores.json")
        guard case .array(let rows) = try JSONValue.parse(Data(contentsOf: url)) else {
            throw TestSetupFailure(description: "city_scores.json is not an array")
        }
        try Data(JSONValue.array(Array(rows.dropFirst())).serialized(.pretty).utf8).write(to: url)
        return dir
    }
}
