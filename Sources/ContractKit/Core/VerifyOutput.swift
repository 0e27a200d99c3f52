import Foundation

/// `contracts verify`'s outputs: the table for people, JSON and JUnit XML for CI.
package enum VerifyOutput {
    /// ANSI colours, used only when the output is a terminal.
    package struct Style: Sendable {
        package var color: Bool
        package init(color: Bool) { self.color = color }
        func paint(_ s: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
        /// Passed.
        package func green(_ s: String) -> String { paint(s, "32") }
        /// Failed.
        package func red(_ s: String) -> String { paint(s, "31") }
        /// Skipped.
        package func yellow(_ s: String) -> String { paint(s, "33") }
        /// Emphasis.
        package func bold(_ s: String) -> String { paint(s, "1") }
    }

    /// The state column of a row: `ok`, `FAILED`, `skipped: …`, `error (below)`, `not run: …`.
    static func note(_ row: VerifyRow, _ style: Style) -> String {
        switch row.status {
        case .ran(let r): return r.allSatisfy(\.passed) ? style.green("ok") : style.red("FAILED")
        case .skipped(let reason): return style.yellow("skipped: \(reason)")
        case .error: return style.red("error (below)")
        case .notRun: return style.red("not run: the app's contracts did not load (above)")
        case .notApplicable(let reason): return reason
        }
    }

    /// The table of app × rule kind (cases, passed, failed, seconds, state), load errors first and
    /// each once, then every row error once, a summary line, and the first `maxFailures` failing
    /// cases (nil: all).
    package static func text(_ outcome: VerifyOutcome, maxFailures: Int?, style: Style = Style(color: false)) -> String {
        var out: [String] = []
        if !outcome.loadErrors.isEmpty {
            out.append(style.red("load errors (the app's rule kinds did not run):"))
            for e in outcome.loadErrors { out.append("  \(e.app): \(e.message)") }
            out.append("")
        }
        let header = ["app", "rule kind", "cases", "passed", "failed", "time", "state"]
        let table = outcome.rows.map { r -> [String] in
            let c = r.cases, failed = c.filter { !$0.passed }.count
            let ran: Bool = { if case .ran = r.status { return true } else { return false } }()
            return [
                r.app, r.kind, ran ? String(c.count) : "-", ran ? String(c.count - failed) : "-", ran ? String(failed) : "-",
                String(format: "%.1fs", r.seconds), note(r, style)
            ]
        }
        let widths = (0..<header.count - 1).map { i in max(header[i].count, table.map { $0[i].count }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in
                if i == cells.count - 1 { return c }
                let pad = String(repeating: " ", count: max(0, widths[i] - c.count))
                return i >= 2 ? pad + c : c + pad
            }.joined(separator: "  ")
        }
        out.append(line(header))
        out.append(line(widths.map { String(repeating: "-", count: $0) } + ["-----"]))
        out += table.map(line)
        // Each distinct error once, with every app · kind it stopped.
        var order: [String] = [], holders: [String: [String]] = [:]
        var errorRows = 0
        for r in outcome.rows {
            guard case .error(let m) = r.status else { continue }
            errorRows += 1
            if holders[m] == nil { order.append(m) }
            holders[m, default: []].append("\(r.app) · \(r.kind)")
        }
        let errors = order.map { "  \(holders[$0]!.joined(separator: ", ")): \($0)" }
        if !errors.isEmpty { out += ["", style.red("rule kinds that failed as a whole:")] + errors }
        let cases = outcome.cases, failures = outcome.failures
        let skipped = outcome.rows.filter { if case .skipped = $0.status { return true } else { return false } }
        let notRun = outcome.rows.filter { if case .notRun = $0.status { return true } else { return false } }
        var summary = "\(cases.count) cases, \(cases.count - failures.count) passed, \(failures.count) failed"
        if !skipped.isEmpty {
            summary += ", \(skipped.count) rule kind\(skipped.count == 1 ? "" : "s") skipped (\(Set(skipped.map(\.kind)).sorted().joined(separator: ", ")))"
        }
        if errorRows > 0 { summary += ", \(errorRows) rule kind\(errorRows == 1 ? "" : "s") failed as a whole" }
        if !notRun.isEmpty { summary += ", \(notRun.count) not run (load errors)" }
        if cases.isEmpty { summary += "; no case ran" + (outcome.rows.isEmpty ? " (the rule kinds asked for do not apply to the apps asked for)" : "") }
        out += ["", outcome.passed ? style.green(summary) : style.bold(summary)]
        let shown = maxFailures.map { Array(failures.prefix($0)) } ?? failures
        for f in shown { out.append(style.red("FAIL") + " \(f.app) · \(f.kind) · \(f.name) · \(f.message)") }
        if shown.count < failures.count {
            out.append("… and \(failures.count - shown.count) more failures (--max-failures 0 shows all; --format json or junit lists every case)")
        }
        return out.joined(separator: "\n")
    }

    /// Every row and every case as JSON (sorted keys): `summary`, `loadErrors`, `rows`, `cases`.
    package static func json(_ outcome: VerifyOutcome) -> String {
        let cases = outcome.cases, failures = outcome.failures
        func rowJSON(_ r: VerifyRow) -> JSONValue {
            var o: [String: JSONValue] = ["app": .string(r.app), "kind": .string(r.kind), "seconds": .double((r.seconds * 1000).rounded() / 1000)]
            switch r.status {
            case .ran(let c):
                let f = c.filter { !$0.passed }.count
                o["status"] = .string(f == 0 ? "passed" : "failed")
                o["cases"] = .int(Int64(c.count)); o["passed"] = .int(Int64(c.count - f)); o["failed"] = .int(Int64(f))
            case .skipped(let reason): o["status"] = "skipped"; o["reason"] = .string(reason)
            case .error(let m): o["status"] = "error"; o["reason"] = .string(m)
            case .notRun: o["status"] = "not-run"; o["reason"] = "the app's contracts did not load (see loadErrors)"
            case .notApplicable(let reason): o["status"] = "not-applicable"; o["reason"] = .string(reason)
            }
            return .object(o)
        }
        let doc: JSONValue = .object([
            "passed": .bool(outcome.passed),
            "summary": .object([
                "cases": .int(Int64(cases.count)), "passed": .int(Int64(cases.count - failures.count)), "failed": .int(Int64(failures.count)),
                "skippedKinds": .int(Int64(outcome.rows.filter { if case .skipped = $0.status { return true } else { return false } }.count)),
                "loadErrors": .int(Int64(outcome.loadErrors.count))
            ]),
            "loadErrors": .array(outcome.loadErrors.map { .object(["app": .string($0.app), "message": .string($0.message)]) }),
            "rows": .array(outcome.rows.map(rowJSON)),
            "cases": .array(
                cases.map { c in
                    var o: [String: JSONValue] = ["app": .string(c.app), "kind": .string(c.kind), "name": .string(c.name), "passed": .bool(c.passed)]
                    if !c.passed { o["message"] = .string(c.message) }
                    return .object(o)
                })
        ])
        return doc.serialized(.pretty)
    }

    /// JUnit XML: a testsuite per app × kind (`naarscars.rls`) with a testcase per case named by
    /// its rule, failures carrying the message that names the cell; a skipped kind is one
    /// skipped testcase with the reason; load errors and kinds that did not run are errors.
    package static func junit(_ outcome: VerifyOutcome) -> String {
        var suites: [String] = []
        var total = 0, failures = 0, errors = 0, skipped = 0, time = 0.0
        /// A testcase's body (empty when it passed) is a `failure`, an `error` or a `skipped` element.
        func suite(_ name: String, _ seconds: Double, _ cases: [(name: String, body: String)]) {
            func count(_ element: String) -> Int { cases.filter { $0.body.hasPrefix("<\(element) ") }.count }
            let f = count("failure"), e = count("error"), s = count("skipped")
            total += cases.count; failures += f; errors += e; skipped += s; time += seconds
            var lines = [
                "  <testsuite name=\"\(xml(name))\" tests=\"\(cases.count)\" failures=\"\(f)\" errors=\"\(e)\" skipped=\"\(s)\" time=\"\(String(format: "%.3f", seconds))\">"
            ]
            for c in cases {
                lines.append("    <testcase classname=\"\(xml(name))\" name=\"\(xml(c.name))\"" + (c.body.isEmpty ? "/>" : ">\(c.body)</testcase>"))
            }
            lines.append("  </testsuite>")
            suites.append(lines.joined(separator: "\n"))
        }
        for app in Set(outcome.loadErrors.map(\.app)).sorted() {
            suite(
                "\(app).load", 0,
                outcome.loadErrors.filter { $0.app == app }.map { e in
                    (e.message.components(separatedBy: ": ").first ?? "load", "<error message=\"\(xml(e.message))\">\(xml(e.message))</error>")
                })
        }
        for r in outcome.rows {
            let name = "\(r.app).\(r.kind)"
            switch r.status {
            case .ran(let cs):
                suite(
                    name, r.seconds,
                    cs.map { c in
                        (c.name, c.passed ? "" : "<failure message=\"\(xml(String(c.message.prefix(500))))\">\(xml(c.description))</failure>")
                    })
            case .skipped(let reason), .notApplicable(let reason):
                suite(name, r.seconds, [(r.kind, "<skipped message=\"\(xml(reason))\"/>")])
            case .error(let m):
                suite(name, r.seconds, [(r.kind, "<error message=\"\(xml(String(m.prefix(500))))\">\(xml(m))</error>")])
            case .notRun:
                let m = "not run: the app's contracts did not load (see \(r.app).load)"
                suite(name, 0, [(r.kind, "<error message=\"\(xml(m))\"/>")])
            }
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="contracts verify" tests="\(total)" failures="\(failures)" errors="\(errors)" skipped="\(skipped)" time="\(String(format: "%.3f", time))">
            \(suites.joined(separator: "\n"))
            </testsuites>
            """
    }

    /// Escapes text for XML attributes and content; drops characters XML 1.0 cannot carry.
    static func xml(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\t", "\r": out.unicodeScalars.append(u)
            default:
                if u.value < 0x20 || (0xFFFE...0xFFFF).contains(u.value) { out += "\u{FFFD}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }
}
