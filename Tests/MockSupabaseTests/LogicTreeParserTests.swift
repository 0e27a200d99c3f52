import XCTest
@testable import MockSupabase

/// PostgREST's logic trees (`or=`, `and=`, `not.or=`) as its grammar (QueryParams.hs `pLogicTree`)
/// reads them: items tried as filters first, groups otherwise, Parsec's error positions, quoted
/// values, and nesting at any depth read in linear time with a PGRST100 past the limit.
final class LogicTreeParserTests: XCTestCase {
    /// The checks, over any parser of `(op, value)`: the real one and mutants.
    static func violations(_ parse: (String, String) throws -> RowFilter) -> [String] {
        var out: [String] = []
        func expect(_ op: String, _ v: String, _ want: RowFilter) {
            do {
                let got = try parse(op, v)
                if got != want { out.append("\(op)=\(v): \(got) ≠ \(want)") }
            } catch { out.append("\(op)=\(v): threw \(error)") }
        }
        func c(_ col: String, _ op: FilterOp, _ v: String, neg: Bool = false) -> RowFilter { .condition(column: col, op: op, value: .text(v), negated: neg) }
        expect("or", "(a.eq.1,b.gt.2)", .or([c("a", .eq, "1"), c("b", .gt, "2")]))
        expect(
            "and", "(a.eq.1,or(b.lt.2,c.is.null))",
            .and([c("a", .eq, "1"), .or([c("b", .lt, "2"), .condition(column: "c", op: .is, value: .isValue("null"), negated: false)])]))
        expect("or", "(name.eq.\"x,y)\",name.eq.z)", .or([c("name", .eq, "x,y)"), c("name", .eq, "z")]))
        expect(
            "or", "(id.in.(1,2),not.and(a.eq.1,b.eq.2))",
            .or([.condition(column: "id", op: .in, value: .list(["1", "2"]), negated: false), .not(.and([c("a", .eq, "1"), c("b", .eq, "2")]))]))
        expect("not.or", "(a.eq.1,a.eq.2)", .not(.or([c("a", .eq, "1"), c("a", .eq, "2")])))
        expect("or", "(tags.cs.{a,b},id.eq.3)", .or([c("tags", .cs, "{a,b}"), c("id", .eq, "3")]))
        expect("or", "(doc->>n.eq.3,doc->tags->0.eq.\"x\")", .or([c("doc->>n", .eq, "3"), c("doc->tags->0", .eq, "x")]))
        expect("or", "( a.eq.1 , b.eq.2 )", .or([c("a", .eq, "1 "), c("b", .eq, "2 ")]))
        expect("and", "(a.not.eq.1)", c("a", .eq, "1", neg: true))
        expect("or", "(" + String(repeating: "or(", count: 50) + "a.eq.1" + String(repeating: ")", count: 50) + ")", c("a", .eq, "1"))
        func fails(_ op: String, _ v: String, column: Int, _ details: String) {
            do {
                _ = try parse(op, v)
                out.append("\(op)=\(v) parsed")
            } catch let e as PostgresError {
                let want = PostgresError("PGRST100", "\"failed to parse logic tree (\(v))\" (line 1, column \(column))", details: details)
                if e != want { out.append("\(op)=\(v): \(e) ≠ \(want)") }
            } catch { out.append("\(op)=\(v): \(error)") }
        }
        fails("and", "()", column: 5, "unexpected \")\" expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)")
        fails("or", "(a.eq.1,not.nand(b.eq.2))", column: 15, "unexpected \"n\" expecting logic operator (and, or)")
        fails("or", "(a.in.5,6)", column: 9, "unexpected \"5\" expecting \"(\"")
        fails("or", "(a.eq.1", column: 10, "unexpected end of input expecting \",\" or \")\"")
        // `or=a.eq.1)` reads as the filter `ora.eq.1` (PostgREST parses `op <> value`), trailing text ignored.
        expect("or", "a.eq.1)", c("ora", .eq, "1"))
        return out
    }

    func parse(_ op: String, _ v: String) throws -> RowFilter { try QueryParser.parseLogicTree(op: op, v) }

    func testGrammarAndErrors() {
        XCTAssertEqual(Self.violations(parse), [])
    }

    /// The checks reject a parser that splits on every comma (quotes and groups ignored) and one
    /// that reads `not.and` as `and`.
    func testChecksRejectMutants() {
        let naive: (String, String) throws -> RowFilter = { op, v in
            let parts = v.dropFirst().dropLast().split(separator: ",").map { p -> RowFilter in
                let bits = p.split(separator: ".", maxSplits: 2).map(String.init)
                return .condition(
                    column: bits[0], op: FilterOp(rawValue: bits.count > 1 ? bits[1] : "eq") ?? .eq, value: .text(bits.count > 2 ? bits[2] : ""), negated: false
                )
            }
            return op.hasSuffix("or") ? .or(parts) : .and(parts)
        }
        XCTAssertFalse(Self.violations(naive).isEmpty)
        let dropsNot: (String, String) throws -> RowFilter = { op, v in
            try QueryParser.parseLogicTree(op: op, v.replacingOccurrences(of: "not.and(", with: "and(").replacingOccurrences(of: "not.or(", with: "or("))
        }
        XCTAssertFalse(Self.violations(dropsNot).isEmpty)
    }

    func chain(_ depth: Int, leaf: String = "id.eq.2") -> String {
        "(" + String(repeating: "or(", count: depth - 1) + leaf + String(repeating: ")", count: depth - 1) + ")"
    }

    /// Issue 11's input: `or=(or(or(…id.eq.x…)))` 3,900 deep answers its rows (timing lives in
    /// `contracts-bench parser`).
    func testDeepSingleItemChainAnswersItsRows() throws {
        let f = try RestSpecFixture()
        let r = try f.send("GET", "clients?select=id,name&or=" + chain(3_900))
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.json(), [["id": 2, "name": "Globex"]])
    }

    /// Alternating `and`/`or` groups of two items cannot be folded; at the nesting limit they are
    /// evaluated on a thread with a 512 KiB stack (the smallest a transport thread gets).
    func testDeepAlternatingTreeAtTheLimitRunsOnASmallStack() throws {
        let f = try RestSpecFixture()
        let depth = LogicTreeParser.maxDepth
        var v = "id.eq.1"
        var open = "", close = ""
        for d in 0..<(depth - 1) {
            open += (d % 2 == 0 ? "and(" : "or(") + "id.gte.0,"
            close += ")"
        }
        v = "(" + open + "id.gte.1" + close + ",id.lte.2)"
        final class Box: @unchecked Sendable { var result: HTTPResponse? }
        let box = Box()
        let backend = f.backend
        let target = "/rest/v1/clients?select=id&order=id&and=" + v
        let done = DispatchSemaphore(value: 0)
        let t = Thread {
            let h: HTTPHeaders = ["apikey": backend.serviceRoleKey, "Authorization": "Bearer \(backend.serviceRoleKey)"]
            box.result = try? backend.handle(HTTPRequest(method: "GET", target: target, headers: h))
            done.signal()
        }
        t.stackSize = 512 * 1024
        t.start()
        done.wait()
        XCTAssertEqual(box.result?.status, 200, box.result?.text ?? "no answer")
        XCTAssertEqual(box.result?.json(), [["id": 1], ["id": 2]])
    }

    /// 100,000 levels: a PGRST100 at the `(` one level past the nesting limit, never a crash.
    func testTooDeepIsAParseErrorNotACrash() throws {
        let f = try RestSpecFixture()
        let v = chain(100_000)
        let r = try f.send("GET", "clients?or=" + v)
        let n = LogicTreeParser.maxNesting
        let column = 3 + 3 * (n - 1) + 2 + 1 // "or(" then n-1 × "or(", then "or" and the "(" one level too deep
        r.assertPostgrestError(
            400, "PGRST100", "\"failed to parse logic tree (\(v))\" (line 1, column \(column))",
            details: "unexpected \"(\" expecting a logic tree nested at most \(n) levels deep")
    }

    /// A tree still deeper than `maxDepth` after folding is refused at its outermost too-deep group.
    func testUnfoldableTreePastTheDepthLimitIsAParseError() throws {
        let f = try RestSpecFixture()
        var open = "", close = ""
        for d in 0..<(LogicTreeParser.maxDepth + 5) {
            open += (d % 2 == 0 ? "and(" : "or(") + "id.gte.0,"
            close += ")"
        }
        let r = try f.send("GET", "clients?or=(" + open + "id.gte.1" + close + ")")
        XCTAssertEqual(r.status, 400, r.text)
        XCTAssertEqual(r.json()["code"], "PGRST100")
        XCTAssertEqual(r.json()["details"], .string("unexpected \"(\" expecting a logic tree nested at most \(LogicTreeParser.maxDepth) levels deep"))
    }

    /// The same bounds for `select=` embedding: a PGRST100, never a crash.
    func testTooDeepSelectIsAParseError() throws {
        let f = try RestSpecFixture()
        let v = String(repeating: "a(", count: 100_000) + "id" + String(repeating: ")", count: 100_000)
        let r = try f.send("GET", "clients?select=" + v)
        XCTAssertEqual(r.status, 400)
        XCTAssertEqual(r.json()["code"], "PGRST100")
    }
}
