import XCTest
import MockBinding

/// The line diff: minimal edit scripts (checked against an LCS table on seeded random inputs)
/// and the unified format.
final class GoldenDiffTests: XCTestCase {
    func apply(_ edits: [LineDiff.Edit]) -> (old: [String], new: [String]) {
        var a: [String] = [], b: [String] = []
        for e in edits {
            switch e {
            case .same(let l): a.append(l); b.append(l)
            case .delete(let l): a.append(l)
            case .insert(let l): b.append(l)
            }
        }
        return (a, b)
    }

    func lcs(_ a: [String], _ b: [String]) -> Int {
        var t = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : max(t[i + 1][j], t[i][j + 1])
            }
        }
        return t[0][0]
    }

    func testEditScriptsAreCorrectAndMinimal() {
        var state: UInt64 = 12345
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        for _ in 0..<400 {
            let a = (0..<Int(next() % 14)).map { _ in String(UnicodeScalar(UInt8(97 + next() % 4))) }
            let b = (0..<Int(next() % 14)).map { _ in String(UnicodeScalar(UInt8(97 + next() % 4))) }
            let e = LineDiff.edits(a, b)
            let (x, y) = apply(e)
            XCTAssertEqual(x, a)
            XCTAssertEqual(y, b)
            let changes = e.filter {
                if case .same = $0 { return false }; return true
            }.count
            XCTAssertEqual(changes, a.count + b.count - 2 * lcs(a, b), "\(a) → \(b)")
        }
    }

    func testUnifiedFormat() {
        let old = (1...12).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var lines = (1...12).map { "line \($0)" }
        lines[5] = "line six"
        lines.insert("new line", at: 11)
        let new = lines.joined(separator: "\n") + "\n"
        XCTAssertEqual(
            LineDiff.unified(from: old, to: new, fromLabel: "a.json", toLabel: "b.json"),
            """
            --- a.json
            +++ b.json
            @@ -3,10 +3,11 @@
             line 3
             line 4
             line 5
            -line 6
            +line six
             line 7
             line 8
             line 9
             line 10
             line 11
            +new line
             line 12

            """)
        XCTAssertEqual(LineDiff.unified(from: "a\nb\n", to: "a\nb\n"), "")
        XCTAssertEqual(LineDiff.unified(from: "", to: "x\n", fromLabel: "e", toLabel: "a"), "--- e\n+++ a\n@@ -0,0 +1,1 @@\n+x\n")
        XCTAssertEqual(
            LineDiff.unified(from: "a", to: "a\n", fromLabel: "e", toLabel: "a"), "--- e\n+++ a\n@@ the texts differ only in their final newline @@\n")
        // Two distant changes make two hunks.
        let far = (1...30).map { "l\($0)" }
        var far2 = far
        far2[1] = "X"; far2[27] = "Y"
        let d = LineDiff.unified(from: far.joined(separator: "\n"), to: far2.joined(separator: "\n"))
        XCTAssertEqual(d.components(separatedBy: "\n@@ ").count, 3, d)
        XCTAssertTrue(d.contains("@@ -1,5 +1,5 @@"), d)
        XCTAssertTrue(d.contains("@@ -25,6 +25,6 @@"), d)
    }

    /// Beyond `maxSearchedDifferences` the script is still correct (one replaced block).
    func testVeryDifferentFilesStayCorrect() {
        let a = (0..<3000).map { "a\($0)" }, b = (0..<3000).map { "b\($0)" }
        let e = LineDiff.edits(a, b)
        XCTAssertEqual(e.count, 6000)
        let (x, y) = apply(e)
        XCTAssertEqual(x, a)
        XCTAssertEqual(y, b)
        let c = (0..<2500).map { "l\($0 % 7)" }, d = (0..<2500).map { "l\(($0 * 3) % 11)" }
        let (p, q) = apply(LineDiff.edits(c, d))
        XCTAssertEqual(p, c)
        XCTAssertEqual(q, d)
    }
}
