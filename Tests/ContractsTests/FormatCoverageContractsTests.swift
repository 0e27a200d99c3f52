import XCTest
import MockBinding

/// Every file under Contracts/ is documented in Contracts/FORMAT.md: a heading (`#` line) names
/// it as `<app>/<path>` (an app's own file), as `<path>` (a file every app may have:
/// `schema.json`, `sql/checks.json`) or as its folder's pattern (`interactions/*.json`,
/// `sql/verify/*.sql`).
final class FormatCoverageContractsTests: GateTestCase {
    /// The files (relative to Contracts/) that no heading of `format` names.
    static func undocumented(_ files: [String], format: String) -> [String] {
        let separators = CharacterSet(charactersIn: " `,;:()—–\t")
        var named: Set<String> = []
        for line in format.split(separator: "\n") where line.hasPrefix("#") {
            for token in line.components(separatedBy: separators) where !token.isEmpty { named.insert(token) }
        }
        return files.filter { rel in
            guard rel != "FORMAT.md" else { return false }
            var candidates = [rel]
            let parts = rel.split(separator: "/").map(String.init)
            if parts.count >= 2 {
                let inApp = parts.dropFirst().joined(separator: "/")
                candidates.append(inApp)
                let ext = (parts.last! as NSString).pathExtension
                candidates.append((parts.dropFirst().dropLast() + ["*.\(ext)"]).joined(separator: "/"))
            }
            return !candidates.contains { named.contains($0) }
        }
    }

    func testEveryContractFileIsDocumentedInFormat() throws {
        let root = ContractsLocator.contracts
        let format = try String(contentsOf: root.appendingPathComponent("FORMAT.md"), encoding: .utf8)
        var files: [String] = []
        let e = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = e?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            files.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        XCTAssertGreaterThan(files.count, 100)
        XCTAssertEqual(
            Self.undocumented(files.sorted(), format: format), [],
            "document these files in Contracts/FORMAT.md under a heading naming them")
    }

    /// The check fails for a file nobody documented, and a passing mention outside a heading
    /// does not count.
    func testTheCheckCanFail() {
        let format = "# Formats\n## schema.json\nSee also teleportme/report.json.\n## interactions/*.json\n## shvil/flags.json — flags\n"
        XCTAssertEqual(
            Self.undocumented(
                [
                    "aura/schema.json", "aura/interactions/a.json", "shvil/flags.json",
                    "teleportme/report.json", "aura/rules.json"
                ], format: format),
            ["teleportme/report.json", "aura/rules.json"])
    }
}
