import XCTest
import MockBinding

/// File-system errors in words, never Foundation's `Error Domain=… Code=…` dumps.
final class FileErrorTextTests: XCTestCase {
    func testProblemsAreNamedInWords() throws {
        XCTAssertEqual(FileErrorText.problemWriting("/etc/passwd/report.html"), "/etc/passwd is a file, not a folder")
        XCTAssertEqual(FileErrorText.problemWriting("/nonexistent-folder-\(UUID().uuidString)/x.xml")?.hasPrefix("no such folder /nonexistent-folder-"), true)
        let dir = FileManager.default.temporaryDirectory
        XCTAssertEqual(FileErrorText.problemWriting(dir.path), "it is a folder")
        XCTAssertNil(FileErrorText.problemWriting(dir.appendingPathComponent("fresh-\(UUID().uuidString).xml").path))
    }

    func testFoundationErrorsBecomeWords() {
        let target = URL(fileURLWithPath: "/etc/passwd/inside.json")
        do {
            try Data("x".utf8).write(to: target)
            XCTFail("writing inside a file succeeded")
        } catch {
            let text = FileErrorText.describe(error: error, path: target.path, writing: true)
            XCTAssertFalse(text.contains("Error Domain"), text)
            XCTAssertFalse(text.contains("NSCocoaErrorDomain"), text)
            XCTAssertFalse(text.isEmpty)
        }
    }
}
