import Foundation

/// Renders an app's RLS matrix with its results: a Markdown table and a self-contained HTML page
/// (inline CSS, no external assets), rows = tables, columns = SELECT / INSERT / UPDATE / DELETE,
/// each cell showing the document's words coloured by its result (fully checked, partly checked
/// — inconclusive cases or masked flips —, failed, no cases) with the number of cases and flips behind it. Output is deterministic (no times),
/// so it is golden-tested.
package enum RLSMatrixPage {
    static let commands = PolicyCommand.allCases

    /// The one-line summary: cells, cases, verdicts, flips.
    package static func summary(_ r: RLSReport) -> String {
        let failed = r.statuses.filter(\.isFailure).count
        let inconclusive = r.statuses.filter {
            if case .inconclusive = $0 { return true }; return false
        }.count
        var s = "\(r.expansion.cells.count) cells, \(r.statuses.count) cases: \(r.statuses.count - failed - inconclusive) passed, \(failed) failed"
        if inconclusive > 0 { s += ", \(inconclusive) inconclusive (refused by the app's own code)" }
        if let flips = r.flips {
            let masked = flips.filter {
                if case .masked = $0.verdict { return true }; return false
            }.count
            s += "; flips: \(flips.filter(\.caught).count) of \(flips.count) caught"
            if masked > 0 { s += ", \(masked) masked by the app's own code" }
        }
        return s
    }

    static func cellLine(_ c: RLSCellSummary) -> String {
        var parts = ["\(c.cases) case\(c.cases == 1 ? "" : "s")"]
        if c.failed > 0 { parts.append("\(c.failed) failed") }
        if c.inconclusive > 0 { parts.append("\(c.inconclusive) inconclusive") }
        if c.flips > 0 { parts.append("flips \(c.flipsCaught)/\(c.flips)" + (c.flipsMasked > 0 ? " (\(c.flipsMasked) masked)" : "")) }
        return parts.joined(separator: " · ")
    }

    static func mark(_ s: RLSCellSummary.Status) -> String {
        switch s {
        case .passed: return "✅"
        case .partial: return "🟡"
        case .failed: return "❌"
        case .noCases: return "⚪"
        }
    }

    static func mdEscape(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }

    /// Problems worth listing under the matrix: failed cases, flips not caught, expansion notes,
    /// tables without a row in the matrix.
    static func findings(_ r: RLSReport, limit: Int = 40) -> [String] {
        var out: [String] = []
        let failures = zip(r.expansion.cases, r.statuses).compactMap { c, s -> String? in
            if case .failed(let m) = s { return "\(c.name) · \(m)" }
            return nil
        }
        out += failures.prefix(limit).map { "FAIL \($0)" }
        if failures.count > limit { out.append("… and \(failures.count - limit) more failed cases") }
        for f in r.flips ?? [] where !f.verdict.acceptable { out.append("FLIP \(f.summary)") }
        out += r.expansion.notes.map { "NOTE \($0)" }
        if !r.expansion.tablesWithoutPolicies.isEmpty {
            out.append("NOTE tables without a row in the matrix (no cases): \(r.expansion.tablesWithoutPolicies.joined(separator: ", "))")
        }
        return out
    }

    /// The Markdown page of one app.
    package static func markdown(_ r: RLSReport, title: String) -> String {
        var out = "# \(title) — RLS matrix\n\n"
        out += summary(r) + "\n\n"
        out +=
            "✅ fully checked: every case passed, every flip caught · 🟡 partly checked: no failure, but some cases inconclusive or flips masked by the app's own code · ❌ a case failed or a flip went unnoticed · ⚪ no cases\n\n"
        out += "| table | " + commands.map(\.rawValue).joined(separator: " | ") + " |\n"
        out += "|---|" + commands.map { _ in "---" }.joined(separator: "|") + "|\n"
        let cells = r.cells
        for table in tables(r) {
            var line = "| \(table) |"
            for cmd in commands {
                guard let c = cells.first(where: { $0.cell.table == table && $0.cell.command == cmd }) else { line += " |"; continue }
                line += " \(mark(c.status)) \(mdEscape(c.cell.doc))<br>\(cellLine(c)) |"
            }
            out += line + "\n"
        }
        let f = findings(r)
        if !f.isEmpty {
            out += "\n## Findings\n\n" + f.map { "- \(mdEscape($0))" }.joined(separator: "\n") + "\n"
        }
        return out
    }

    static func tables(_ r: RLSReport) -> [String] {
        var seen = Set<String>()
        return r.expansion.cells.map(\.table).filter { seen.insert($0).inserted }
    }

    static func html(_ s: String) -> String {
        var out = ""
        for ch in s {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(ch)
            }
        }
        return out
    }

    static let style = """
        body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;margin:2em;color:#202124;background:#fff}
        h1{font-size:1.5em;margin:0 0 .3em}p.summary{margin:0 0 1em;color:#3c4043}
        table.matrix{border-collapse:separate;border-spacing:4px;width:100%;table-layout:fixed}
        table.matrix col.name{width:14em}
        th{font-weight:600;text-align:left;padding:4px 8px;color:#5f6368;overflow-wrap:anywhere}
        th.table{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;color:#202124;vertical-align:top;padding-top:10px}
        td{vertical-align:top;padding:8px 10px;border-radius:6px;border:1px solid;overflow-wrap:anywhere;min-width:0}
        td.passed{background:#e6f4ea;border-color:#81c995}td.failed{background:#fce8e6;border-color:#ee675c}
        td.partial{background:#fef7e0;border:2px dashed #e37400}
        td.no-cases{background:#f1f3f4;border-color:#dadce0;color:#5f6368}
        .doc{font-weight:600}.counts{font-size:12px;color:#3c4043;margin-top:2px}
        td.partial .counts{color:#b06000;font-weight:600}
        details{margin-top:4px;font-size:12px}summary{cursor:pointer;color:#1a73e8}
        .rule{margin:4px 0;font:11px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;white-space:pre-wrap;overflow-wrap:anywhere}
        .rule b{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;font-weight:600}
        .legend span{display:inline-block;padding:2px 8px;border-radius:4px;margin:0 6px 4px 0;border:1px solid}
        ul.findings{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;padding-left:1.2em;overflow-wrap:anywhere}
        a{color:#1a73e8}
        """

    static func legend() -> String {
        "<p class=\"legend\"><span style=\"background:#e6f4ea;border-color:#81c995\">fully checked: every case passed, every flip caught</span>"
            + "<span style=\"background:#fef7e0;border:2px dashed #e37400\">partly checked: no failure, but some cases inconclusive or flips masked by the app's own code</span>"
            + "<span style=\"background:#fce8e6;border-color:#ee675c\">a case failed or a flip went unnoticed</span>"
            + "<span style=\"background:#f1f3f4;border-color:#dadce0\">no cases</span></p>"
    }

    /// The rule behind a cell as readable lines: USING / WITH CHECK as text, the named
    /// definitions they use, revocations, the decision, flips not caught.
    static func ruleLines(_ c: RLSCellSummary, definitions: [String: Expr], docs: [String: String]) -> [(label: String, text: String)] {
        var out: [(String, String)] = []
        if let u = c.cell.using { out.append(("USING", RLSRuleText.describe(u))) }
        if let ch = c.cell.check, c.cell.command == .insert || c.cell.using != ch { out.append(("WITH CHECK", RLSRuleText.describe(ch))) }
        var refs: [String] = []
        func walk(_ e: Expr) {
            switch e {
            case .ref(let n): if !refs.contains(n) { refs.append(n); if let d = definitions[n] { walk(d) } }
            case .exists(_, let w), .not(let w): walk(w)
            case .any(let l), .all(let l): l.forEach(walk)
            default: break
            }
        }
        [c.cell.using, c.cell.check].compactMap { $0 }.forEach(walk)
        for n in refs {
            guard let d = definitions[n] else { continue }
            let doc = docs[n].flatMap { $0 == n ? nil : " — \($0)" } ?? ""
            out.append(("where \(n)", RLSRuleText.describe(d) + doc))
        }
        if !c.cell.revokedFor.isEmpty { out.append(("revoked for", c.cell.revokedFor.joined(separator: ", "))) }
        if let d = c.cell.decision { out.append(("decision", d)) }
        if c.inconclusive > 0 {
            out.append(("partly checked", "\(c.inconclusive) of \(c.cases) cases inconclusive (the app's own code refused them before RLS decided)"))
        }
        if c.flipsMasked > 0 { out.append(("partly checked", "\(c.flipsMasked) of \(c.flips) flips masked by the app's own code")) }
        if !c.uncaughtFlips.isEmpty { out.append(("flips not caught", c.uncaughtFlips.joined(separator: ", "))) }
        return out
    }

    /// The HTML page of one app.
    package static func html(_ r: RLSReport, title: String) -> String {
        var out =
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>\(html(title)) — RLS matrix</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n"
        out += "<h1>\(html(title)) — RLS matrix</h1>\n<p class=\"summary\">\(html(summary(r)))</p>\n\(legend())\n"
        out += "<table class=\"matrix\">\n<colgroup><col class=\"name\">" + commands.map { _ in "<col>" }.joined() + "</colgroup>\n"
        out += "<tr><th></th>" + commands.map { "<th>\($0.rawValue)</th>" }.joined() + "</tr>\n"
        let cells = r.cells
        let definitions = r.expansion.policies.definitions, docs = r.expansion.policies.definitionDocs
        for table in tables(r) {
            out += "<tr><th class=\"table\">\(html(table))</th>"
            for cmd in commands {
                guard let c = cells.first(where: { $0.cell.table == table && $0.cell.command == cmd }) else { out += "<td></td>"; continue }
                out += "<td class=\"\(c.status.rawValue)\"><div class=\"doc\">\(html(c.cell.doc))</div><div class=\"counts\">\(html(cellLine(c)))</div>"
                let rule = ruleLines(c, definitions: definitions, docs: docs)
                out +=
                    "<details><summary>rule</summary>" + rule.map { "<div class=\"rule\"><b>\(html($0.label))</b> \(html($0.text))</div>" }.joined()
                    + "</details></td>"
            }
            out += "</tr>\n"
        }
        out += "</table>\n"
        let f = findings(r)
        if !f.isEmpty {
            out += "<h2>Findings</h2>\n<ul class=\"findings\">\n" + f.map { "<li>\(html($0))</li>" }.joined(separator: "\n") + "\n</ul>\n"
        }
        out += "</body>\n</html>\n"
        return out
    }

    /// The index page (HTML) linking every app's page.
    package static func indexHTML(_ reports: [(title: String, report: RLSReport)]) -> String {
        var out =
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>RLS matrices</title>\n<style>\n\(style)\n</style>\n</head>\n<body>\n<h1>RLS matrices</h1>\n<table class=\"matrix\">\n"
        for (title, r) in reports {
            let status: RLSCellSummary.Status =
                r.cells.contains { $0.status == .failed }
                ? .failed
                : (r.statuses.isEmpty ? .noCases : (r.cells.contains { $0.status == .partial } ? .partial : .passed))
            out +=
                "<tr><th class=\"table\"><a href=\"\(html(r.app)).html\">\(html(title))</a></th><td class=\"\(status.rawValue)\">\(html(summary(r)))</td></tr>\n"
        }
        out += "</table>\n</body>\n</html>\n"
        return out
    }

    /// The index page (Markdown).
    package static func indexMarkdown(_ reports: [(title: String, report: RLSReport)]) -> String {
        var out = "# RLS matrices\n\n| app | result |\n|---|---|\n"
        for (title, r) in reports {
            let mark = r.cells.contains { $0.status == .failed } ? "❌" : (r.cells.contains { $0.status == .partial } ? "🟡" : "✅")
            out += "| [\(title)](\(r.app).md) | \(mark) \(mdEscape(summary(r))) |\n"
        }
        return out
    }
}
