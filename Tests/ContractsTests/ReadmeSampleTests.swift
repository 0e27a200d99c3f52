import XCTest
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import MockBinding

/// The README's adoption sample: `ReadmeSample.swift` is compiled as part of this target and must
/// be the README's block (after "Point your networking at the mock") byte for byte; then it runs.
final class ReadmeSampleContractsTests: GateTestCase {
    static let marker = "<!-- compiled: Tests/ContractsTests/ReadmeSample.swift -->"

    /// The fenced block following `marker` in README.md.
    static func readmeBlock() throws -> String {
        let readme = try String(contentsOf: ContractsLocator.root.appendingPathComponent("README.md"), encoding: .utf8)
        guard let m = readme.range(of: marker),
            let open = readme.range(of: "```swift\n", range: m.upperBound..<readme.endIndex),
            let close = readme.range(of: "\n```\n", range: open.upperBound..<readme.endIndex)
        else {
            throw TestSetupFailure(description: "README.md has no ```swift block after \(marker): the compiled sample no longer matches the README")
        }
        return String(readme[open.upperBound..<close.lowerBound]) + "\n"
    }

    func testReadmeBlockIsTheCompiledFileByteForByte() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ReadmeSample.swift")
        let compiled = try String(contentsOf: file, encoding: .utf8)
        let block = try Self.readmeBlock()
        XCTAssertEqual(
            Data(block.utf8), Data(compiled.utf8),
            "README.md's sample and Tests/ContractsTests/ReadmeSample.swift differ; keep them identical\n--- README\n\(block)\n--- file\n\(compiled)")
    }

    func testReadmeSampleRuns() async throws {
        let (data, response) = try await fetchOceaniaCities()
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        let cities = try JSONDecoder().decode([[String: String]].self, from: data)
        XCTAssertEqual(cities.map { $0["name"] }, ["Brisbane", "Melbourne", "Perth", "Sydney"])
    }
}
