import Foundation

/// One cell of a matrix replaced by a wrong version: the mutant a correct suite must reject.
public struct RLSFlip: Sendable {
    /// The table of the flipped cell.
    public var table: String
    /// The command of the flipped cell.
    public var command: PolicyCommand
    /// How it was flipped: `negated`, `public`, `nobody`, `owner user_id dropped`,
    /// `USING dropped`, `WITH CHECK dropped`.
    public var kind: String
    /// The whole matrix with this one cell flipped.
    public var policies: PolicySet
    /// Whether the flip cannot change any outcome under PostgreSQL's rules (an UPDATE or DELETE
    /// reaches only rows the SELECT policy shows, so dropping a USING the SELECT policy already
    /// implies changes nothing; a WITH CHECK behind `USING (false)` is never evaluated).
    public var equivalent: Bool

    /// `rides · UPDATE · negated`.
    public var name: String { "\(table) · \(command.rawValue) · \(kind)" }

    /// Every flip of every cell of a matrix, one cell at a time. Flips that leave a cell as it
    /// was, or equal an earlier flip of the same cell, are left out; flips that cannot change
    /// any outcome are marked `equivalent` (and left out unless `includeEquivalent`).
    public static func all(_ policies: PolicySet, includeEquivalent: Bool = false) -> [RLSFlip] {
        var out: [RLSFlip] = []
        for (ti, tp) in policies.tables.enumerated() {
            let select = tp.rlsEnabled ? tp.cell(.select).effectiveUsing : .constant(true)
            for cmd in PolicyCommand.allCases {
                let cell = tp.cell(cmd)
                var seen: [PolicyCell] = [normalized(cell, cmd)]
                let meaning = effect(cell, cmd, select: select)
                for (kind, flipped) in mutants(cell, cmd) {
                    let n = normalized(flipped, cmd)
                    if seen.contains(n) { continue }
                    seen.append(n)
                    let equivalent = tp.rlsEnabled && effect(flipped, cmd, select: cmd == .select ? flipped.effectiveUsing : select) == meaning
                    if equivalent && !includeEquivalent { continue }
                    var p = policies
                    p.tables[ti].cells[cmd] = flipped
                    out.append(RLSFlip(table: tp.table, command: cmd, kind: kind, policies: p, equivalent: equivalent))
                }
            }
        }
        return out
    }

    /// What a cell decides once PostgreSQL's combination with the SELECT policy is applied:
    /// the rows reached (USING ∧ SELECT) and, for UPDATE, what the new row must pass
    /// (WITH CHECK ∧ SELECT, irrelevant when no row is reached).
    static func effect(_ c: PolicyCell, _ cmd: PolicyCommand, select: Expr) -> [Expr] {
        switch cmd {
        case .select: return [simplify(c.effectiveUsing)]
        case .insert: return [simplify(c.effectiveCheck(for: .insert))]
        case .delete: return [simplify(.all([c.effectiveUsing, select]))]
        case .update:
            let reach = simplify(.all([c.effectiveUsing, select]))
            if reach == .constant(false) { return [reach] }
            return [reach, simplify(.all([c.effectiveCheck(for: .update), select]))]
        }
    }

    /// Constant folding and flattening of `all`/`any` (duplicates removed), `not` of constants
    /// and double negation: enough to recognise the equivalent flips above.
    static func simplify(_ e: Expr) -> Expr {
        switch e {
        case .all(let xs), .any(let xs):
            let isAll: Bool = { if case .all = e { return true }; return false }()
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
            if parts.isEmpty { return .constant(isAll) }
            if parts.count == 1 { return parts[0] }
            return isAll ? .all(parts) : .any(parts)
        case .not(let x):
            let y = simplify(x)
            if case .constant(let b) = y { return .constant(!b) }
            if case .not(let z) = y { return z }
            return .not(y)
        default: return e
        }
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
                    if case .column(let c) = (b == .claim("sub") ? a : b) { dropped = c }
                    else if case .outer(let c) = (b == .claim("sub") ? a : b) { dropped = c }
                    else { dropped = "auth.uid" }
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

/// Whether a flip was noticed, and by which case.
public struct RLSFlipResult: Sendable {
    /// The flip.
    public var flip: RLSFlip
    /// The first case that failed under the flipped matrix (`name · message`), nil when none did.
    public var caughtBy: String?
    /// How many cases ran before it was caught (or in all).
    public var casesRun: Int

    /// Whether some case failed.
    public var caught: Bool { caughtBy != nil }
}
