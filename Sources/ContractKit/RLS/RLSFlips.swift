import Foundation

/// One cell of a matrix replaced by a wrong version: the mutant a correct suite must reject.
package struct RLSFlip: Sendable {
    /// The table of the flipped cell.
    package var table: String
    /// The command of the flipped cell.
    package var command: PolicyCommand
    /// How it was flipped: `negated`, `public`, `nobody`, `owner user_id dropped`,
    /// `USING dropped`, `WITH CHECK dropped`.
    package var kind: String
    /// The whole matrix with this one cell flipped.
    package var policies: PolicySet
    /// Whether the flip cannot change any outcome under PostgreSQL's rules (a table with RLS off
    /// ignores its cells; an UPDATE or DELETE
    /// reaches only rows the SELECT policy shows, so dropping a USING the SELECT policy already
    /// implies changes nothing; a WITH CHECK behind `USING (false)` is never evaluated).
    package var equivalent: Bool

    /// `rides · UPDATE · negated`.
    package var name: String { "\(table) · \(command.rawValue) · \(kind)" }

    /// Every flip of every cell of a matrix, one cell at a time. Flips that leave a cell as it
    /// was, or equal an earlier flip of the same cell, are left out; flips that cannot change
    /// any outcome are marked `equivalent` (and left out unless `includeEquivalent`).
    /// With a `schema`, a lookup of the parent row a NOT NULL foreign key points to counts as
    /// always true (the key guarantees the row), which recognises more equivalent flips.
    package static func all(_ policies: PolicySet, schema: DatabaseSchema? = nil, includeEquivalent: Bool = false) -> [RLSFlip] {
        var out: [RLSFlip] = []
        for (ti, tp) in policies.tables.enumerated() {
            let ctx = Simplifier(table: tp.table, schema: schema, definitions: policies.definitions)
            let select = tp.rlsEnabled ? tp.cell(.select).effectiveUsing : .constant(true)
            for cmd in PolicyCommand.allCases {
                let cell = tp.cell(cmd)
                var seen: [PolicyCell] = [normalized(cell, cmd)]
                let meaning = ctx.effect(cell, cmd, select: select)
                for (kind, flipped) in mutants(cell, cmd) {
                    let n = normalized(flipped, cmd)
                    if seen.contains(n) { continue }
                    seen.append(n)
                    let equivalent = !tp.rlsEnabled || ctx.effect(flipped, cmd, select: cmd == .select ? flipped.effectiveUsing : select) == meaning
                    if equivalent && !includeEquivalent { continue }
                    var p = policies
                    p.tables[ti].cells[cmd] = flipped
                    out.append(RLSFlip(table: tp.table, command: cmd, kind: kind, policies: p, equivalent: equivalent))
                }
            }
        }
        return out
    }

    /// A cell with its defaults spelled out, to compare cells by meaning.
    static func normalized(_ c: PolicyCell, _ cmd: PolicyCommand) -> PolicyCell {
        var n = c
        n.doc = ""
        n.decision = nil
        n.notes = []
        switch cmd {
        case .select, .delete: n.using = c.effectiveUsing; n.check = nil
        case .insert: n.using = nil; n.check = c.effectiveCheck(for: .insert)
        case .update: n.using = c.effectiveUsing; n.check = c.effectiveCheck(for: .update)
        }
        return n
    }

    /// The negation of an expression (constants flipped, double negation removed).
    static func negate(_ e: Expr) -> Expr {
        switch e {
        case .constant(let b): return .constant(!b)
        case .not(let x): return x
        default: return .not(e)
        }
    }

    /// The expression with its `n`-th owner test (`column = auth.uid()`) replaced by true, and
    /// the column it tested; nil when there is no `n`-th.
    static func dropOwner(_ e: Expr, _ n: Int) -> (Expr, String)? {
        var index = 0
        var dropped: String?
        func go(_ e: Expr) -> Expr {
            switch e {
            case .compare(.eq, let a, let b) where b == .claim("sub") || a == .claim("sub"):
                defer { index += 1 }
                if index == n {
                    if case .column(let c) = (b == .claim("sub") ? a : b) {
                        dropped = c
                    } else if case .outer(let c) = (b == .claim("sub") ? a : b) {
                        dropped = c
                    } else {
                        dropped = "auth.uid"
                    }
                    return .constant(true)
                }
                return e
            case .any(let xs): return .any(xs.map(go))
            case .all(let xs): return .all(xs.map(go))
            case .not(let x): return .not(go(x))
            case .exists(let t, let w): return .exists(table: t, where: go(w))
            default: return e
            }
        }
        let r = go(e)
        return dropped.map { (r, $0) }
    }

    static func mutants(_ cell: PolicyCell, _ cmd: PolicyCommand) -> [(String, PolicyCell)] {
        var out: [(String, PolicyCell)] = []
        func with(using: Expr?, check: Expr?) -> PolicyCell {
            var c = cell
            c.using = using
            c.check = check
            return c
        }
        switch cmd {
        case .select, .delete:
            let u = cell.effectiveUsing
            out.append(("negated", with(using: negate(u), check: nil)))
            out.append(("public", with(using: .constant(true), check: nil)))
            out.append(("nobody", with(using: .constant(false), check: nil)))
            var n = 0
            while let (e, col) = dropOwner(u, n) { out.append(("owner \(col) dropped", with(using: e, check: nil))); n += 1 }
        case .insert:
            let c = cell.effectiveCheck(for: .insert)
            out.append(("negated", with(using: nil, check: negate(c))))
            out.append(("public", with(using: nil, check: .constant(true))))
            out.append(("nobody", with(using: nil, check: .constant(false))))
            var n = 0
            while let (e, col) = dropOwner(c, n) { out.append(("owner \(col) dropped", with(using: nil, check: e))); n += 1 }
        case .update:
            let u = cell.effectiveUsing, c = cell.effectiveCheck(for: .update)
            out.append(("negated", with(using: negate(u), check: negate(c))))
            out.append(("public", with(using: .constant(true), check: .constant(true))))
            out.append(("nobody", with(using: .constant(false), check: .constant(false))))
            out.append(("USING dropped", with(using: .constant(true), check: c)))
            out.append(("WITH CHECK dropped", with(using: u, check: .constant(true))))
            var n = 0
            while let (e, col) = dropOwner(u, n) { out.append(("owner \(col) dropped from USING", with(using: e, check: c))); n += 1 }
            n = 0
            while let (e, col) = dropOwner(c, n) { out.append(("owner \(col) dropped from WITH CHECK", with(using: u, check: e))); n += 1 }
        }
        return out
    }
}

/// Recognises flips that cannot change any outcome: constant folding, flattening, duplicates
/// and absorption in `all`/`any` (members in a canonical order), double negation, comparisons on
/// a column the same conjunction requires to be NULL (never true), lookups of the parent a NOT NULL
/// foreign key guarantees, and PostgreSQL's combination of a cell with the SELECT policy.
struct Simplifier {
    let table: String
    let schema: DatabaseSchema?
    let definitions: [String: Expr]

    /// What a cell decides: the rows reached (USING ∧ SELECT for UPDATE and DELETE) and, for
    /// UPDATE, what the new row must pass (WITH CHECK ∧ SELECT; irrelevant when nothing is
    /// reached; a row-independent part the reach already requires is dropped).
    func effect(_ c: PolicyCell, _ cmd: PolicyCommand, select: Expr) -> [Expr] {
        switch cmd {
        case .select: return [simplify(c.effectiveUsing)]
        case .insert: return [simplify(c.effectiveCheck(for: .insert))]
        case .delete: return [simplify(.all([c.effectiveUsing, select]))]
        case .update:
            let reach = simplify(.all([c.effectiveUsing, select]))
            if reach == .constant(false) { return [reach] }
            let reachParts = conjuncts(reach)
            let newRow = conjuncts(simplify(.all([c.effectiveCheck(for: .update), select])))
                .filter { !(reachParts.contains($0) && !readsRow($0)) }
            return [reach, simplify(.all(newRow))]
        }
    }

    func conjuncts(_ e: Expr) -> [Expr] {
        if case .all(let xs) = e { return xs }
        return [e]
    }

    /// Whether an expression reads the row under test (a `column` at the top or an `outer`
    /// one level down), following definitions.
    func readsRow(_ e: Expr) -> Bool {
        !ExprWalker(definitions: definitions).refs(e, table: table).all.filter { $0.scope == 0 }.isEmpty
    }

    func key(_ e: Expr) -> String { e.json.serialized() }

    func simplify(_ e: Expr) -> Expr {
        switch e {
        case .all(let xs), .any(let xs):
            let isAll: Bool = {
                if case .all = e { return true }; return false
            }()
            var parts: [Expr] = []
            for x in xs.map(simplify) {
                let flat: [Expr]
                switch x {
                case .all(let zs) where isAll: flat = zs
                case .any(let zs) where !isAll: flat = zs
                default: flat = [x]
                }
                for z in flat {
                    if z == .constant(isAll) { continue }
                    if z == .constant(!isAll) { return .constant(!isAll) }
                    if !parts.contains(z) { parts.append(z) }
                }
            }
            if isAll {
                // A comparison on a column the conjunction requires to be NULL is never true.
                let nullCols = parts.compactMap { p -> String? in
                    if case .isNull(.column(let c), negated: false) = p { return c }
                    return nil
                }
                if !nullCols.isEmpty {
                    let replaced = parts.map { p -> Expr in
                        if case .isNull = p { return p }
                        return falsifyComparisons(p, on: Set(nullCols))
                    }
                    if replaced != parts { return simplify(.all(replaced)) }
                }
            }
            // Absorption: a ∧ (a ∨ b) = a, a ∨ (a ∧ b) = a.
            parts = parts.filter { p in
                switch p {
                case .any(let zs) where isAll: return !zs.contains { parts.contains($0) }
                case .all(let zs) where !isAll: return !zs.contains { parts.contains($0) }
                default: return true
                }
            }
            parts.sort { key($0) < key($1) }
            if parts.isEmpty { return .constant(isAll) }
            if parts.count == 1 { return parts[0] }
            return isAll ? .all(parts) : .any(parts)
        case .not(let x):
            let y = simplify(x)
            if case .constant(let b) = y { return .constant(!b) }
            if case .not(let z) = y { return z }
            return .not(y)
        case .exists(let t, let w):
            let inner = simplify(w)
            if let guaranteed = parentGuaranteed(t, inner) { return guaranteed }
            return .exists(table: t, where: inner)
        default: return e
        }
    }

    /// Replaces comparisons of `columns` (outside any negation or lookup) by false.
    func falsifyComparisons(_ e: Expr, on columns: Set<String>) -> Expr {
        switch e {
        case .compare(_, .column(let c), _), .compare(_, _, .column(let c)), .inList(.column(let c), _):
            return columns.contains(c) ? .constant(false) : e
        case .any(let xs): return .any(xs.map { falsifyComparisons($0, on: columns) })
        case .all(let xs): return .all(xs.map { falsifyComparisons($0, on: columns) })
        default: return e
        }
    }

    /// `exists(parent where parent.key = outer.fk)` for a foreign key of the row's table: true
    /// when the key columns are NOT NULL (the row's parent always exists), else nil.
    func parentGuaranteed(_ parentName: String, _ w: Expr) -> Expr? {
        guard let schema, let t = schema.table(table), let parent = schema.table(parentName) else { return nil }
        var pairs: [(String, String)] = []
        for p in conjuncts(w) {
            switch p {
            case .compare(.eq, .column(let k), .outer(let f)), .compare(.eq, .outer(let f), .column(let k)): pairs.append((f, k))
            default: return nil
            }
        }
        guard !pairs.isEmpty else { return nil }
        for fk in t.foreignKeys where schema.table(fk.refTable)?.qualifiedName == parent.qualifiedName {
            let wanted = Set(zip(fk.columns, fk.refColumns).map { "\($0)=\($1)" })
            guard Set(pairs.map { "\($0.0)=\($0.1)" }) == wanted else { continue }
            let nullable = fk.columns.filter { c in t.columns.first { $0.name == c }?.nullable != false }
            if nullable.isEmpty { return .constant(true) }
            return simplify(.all(nullable.map { .isNull(.column($0), negated: true) }))
        }
        return nil
    }
}

/// What the flip test concluded about one flip.
package enum RLSFlipVerdict: Sendable, Equatable {
    /// A case whose outcome the flip changes failed: the suite rejects the flipped matrix.
    case caught(by: String)
    /// The flip changes the expected outcome of some cases, but the app's own code (triggers,
    /// constraints) refused every one of those statements, so no request can show it.
    case masked(String)
    /// No case's expected outcome changes under the flip: the fixtures lack a witness row (a
    /// persona and a row for which the flipped rule decides differently).
    case noWitness
    /// Cases whose outcome should change kept their original outcome: the target does not
    /// enforce the flipped matrix.
    case notEnforced(String)

    /// Caught or masked: not a failure of the suite.
    package var acceptable: Bool {
        switch self {
        case .caught, .masked: return true
        case .noWitness, .notEnforced: return false
        }
    }
}

/// Whether a flip was noticed, and by which case.
package struct RLSFlipResult: Sendable {
    package var flip: RLSFlip
    package var verdict: RLSFlipVerdict
    /// Cases whose expected outcome the flip changes (the ones that must notice it).
    package var witnesses: Int
    /// How many of them ran before the verdict.
    package var casesRun: Int
    /// Cases where the target under the flipped matrix differed from the oracle's expectation
    /// for that matrix (a disagreement between target and oracle beyond the flip itself).
    package var disagreements: [String]

    /// Whether some case failed.
    package var caught: Bool { if case .caught = verdict { return true }; return false }

    /// One line for reports: `rides · UPDATE · negated: caught by …`.
    package var summary: String {
        switch verdict {
        case .caught(let by): return "\(flip.name): caught by \(by)"
        case .masked(let why): return "\(flip.name): masked by the app's own code (\(why))"
        case .noWitness: return "\(flip.name): not caught: the fixtures lack a witness row (no persona and row for which the flipped rule decides differently)"
        case .notEnforced(let which): return "\(flip.name): not caught: the target kept the original outcome of \(which)"
        }
    }
}
