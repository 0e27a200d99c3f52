import Foundation

/// A row of the oracle's model of the database: JSON values by column. Columns whose value the
/// database generates at load time (`gen_random_uuid()`) are not null but unknown to the oracle.
package struct RLSRow: Sendable, Equatable {
    /// Values by column name; every column of the table is present.
    package var values: [String: JSONValue]
    /// Columns the database filled with a generated value the oracle does not know.
    package var generated: Set<String>
    /// Columns the fixture (or the case) gave explicitly; the others took their defaults.
    package var given: Set<String>

    package init(values: [String: JSONValue], generated: Set<String> = [], given: Set<String>? = nil) {
        self.values = values
        self.generated = generated
        self.given = given ?? Set(values.keys)
    }

    /// A column's value (null when absent).
    package subscript(column: String) -> JSONValue { values[column] ?? .null }
}

/// The oracle's model of the data a case starts from: the fixtures as the mock loads them
/// (personas as `auth.users`, then each table's rows with the schema's defaults).
package struct RLSState: Sendable, Equatable {
    /// Rows per table, keyed by qualified name (`public.rides`, `auth.users`), in load order.
    package var tables: [String: [RLSRow]]

    /// The state the fixtures describe at time `now`.
    package init(schema: DatabaseSchema, fixtures: Fixtures, now: Date) {
        tables = [:]
        for t in schema.tables { tables[t.qualifiedName] = [] }
        let users = DatabaseSchema.authUsers
        for p in fixtures.personas {
            let raw: [String: JSONValue] = [
                "id": .string(p.id), "email": .string(p.email.lowercased()),
                "email_confirmed_at": .string(PGTime.timestamptz(now)),
                "raw_app_meta_data": ["provider": "email", "providers": ["email"]],
                "raw_user_meta_data": p.metadata
            ]
            tables[users.qualifiedName, default: []].append(RLSState.withDefaults(raw, users, now: now))
        }
        for (name, rows) in fixtures.tables {
            guard let t = schema.table(name) else { continue }
            for r in rows {
                tables[t.qualifiedName, default: []].append(RLSState.withDefaults(r.objectValue ?? [:], t, now: now))
            }
        }
    }

    /// A row as the database stores an insert of `raw` (missing columns take their defaults;
    /// `auth.uid()` defaults are NULL, as when loading as the service role).
    static func withDefaults(_ raw: [String: JSONValue], _ t: TableSchema, now: Date, uid: String? = nil) -> RLSRow {
        var values: [String: JSONValue] = [:]
        var generated: Set<String> = []
        for c in t.columns {
            if let v = raw[c.name] { values[c.name] = v; continue }
            switch c.defaultValue {
            case .value(let v)?: values[c.name] = v
            case .now?: values[c.name] = .string(PGTime.timestamptz(now))
            case .currentDate?: values[c.name] = .string(String(PGTime.timestamptz(now).prefix(10)))
            case .authUID?: values[c.name] = uid.map(JSONValue.string) ?? .null
            case .genRandomUUID?, .identity?, .serial?: values[c.name] = .null; generated.insert(c.name)
            case nil: values[c.name] = .null
            }
        }
        return RLSRow(values: values, generated: generated, given: Set(raw.keys).intersection(t.columns.map(\.name)))
    }

    /// Rows of a table (`rides` or `auth.users`).
    package func rows(_ table: TableSchema) -> [RLSRow] { tables[table.qualifiedName] ?? [] }
}

/// An independent oracle for RLS: evaluates the expression language of policies.json over the
/// oracle's model of the fixture rows, under SQL three-valued logic, the way PostgreSQL evaluates
/// the policies the SQL migrations create. It shares no code with the mock's evaluator
/// (`Database.allows`); only text parsers for dates and times come from the mock's core.
package struct RLSOracle: Sendable {
    package let schema: DatabaseSchema
    /// Named definitions of policies.json.
    package let definitions: [String: Expr]
    /// The data lookups (`exists`) read.
    package var state: RLSState
    /// The statement time (`now`).
    package let now: Date

    /// A bound operand: a value with the SQL type it carries, or a generated value the oracle
    /// cannot see (not null, compares unknown).
    enum Bound {
        case value(JSONValue, SQLType?)
        case opaque
    }

    struct Scope {
        let table: TableSchema
        let row: RLSRow
        let outerTable: TableSchema?
        let outerRow: RLSRow?
    }

    // MARK: Evaluation

    /// The expression's value for `row` of `table` as `actor`: true, false or nil (unknown).
    package func evaluate(_ e: Expr, table: TableSchema, row: RLSRow, actor: RLSActor) -> Bool? {
        eval(e, Scope(table: table, row: row, outerTable: nil, outerRow: nil), actor, depth: 0)
    }

    /// Whether a policy lets the row through (unknown counts as no).
    package func passes(_ e: Expr, table: TableSchema, row: RLSRow, actor: RLSActor) -> Bool {
        evaluate(e, table: table, row: row, actor: actor) == true
    }

    /// Whether the table's CHECK constraints accept the row (unknown passes, as in SQL).
    package func satisfiesChecks(table: TableSchema, row: RLSRow) -> Bool {
        let scope = Scope(table: table, row: row, outerTable: nil, outerRow: nil)
        for c in table.columns { if let ch = c.check, eval(ch, scope, .serviceRole, depth: 0) == false { return false } }
        for ch in table.checks where eval(ch.expr, scope, .serviceRole, depth: 0) == false { return false }
        return true
    }

    func eval(_ e: Expr, _ s: Scope, _ actor: RLSActor, depth: Int) -> Bool? {
        if depth > 64 { return nil }
        switch e {
        case .constant(let b): return b
        case .role(let r): return actor.role == r
        case .ref(let name):
            guard let d = definitions[name] else { return nil }
            return eval(d, s, actor, depth: depth + 1)
        case .not(let x): return eval(x, s, actor, depth: depth + 1).map { !$0 }
        case .any(let xs): return Kleene.any(xs.count) { eval(xs[$0], s, actor, depth: depth + 1) }
        case .all(let xs): return Kleene.all(xs.count) { eval(xs[$0], s, actor, depth: depth + 1) }
        case .isNull(let a, let negated):
            switch bind(a, s, actor) {
            case .opaque: return negated
            case .value(let v, _): return v.isNull != negated
            }
        case .inList(let a, let list):
            guard case .value(let v, let type) = bind(a, s, actor) else { return nil }
            if v.isNull { return nil }
            var unknown = false
            for item in list {
                if item.isNull { unknown = true; continue }
                switch RLSOracle.compare(v, item, type: type) {
                case 0?: return true
                case nil: unknown = true
                default: break
                }
            }
            return unknown ? nil : false
        case .compare(let op, let a, let b):
            guard case .value(let x, let tx) = bind(a, s, actor), case .value(let y, let ty) = bind(b, s, actor) else { return nil }
            if x.isNull || y.isNull { return nil }
            guard let c = RLSOracle.compare(x, y, type: tx ?? ty) else { return nil }
            return op.holds(c)
        case .exists(let name, let whereExpr):
            guard let inner = schema.table(name) else { return nil }
            for r in state.rows(inner) {
                let scope = Scope(table: inner, row: r, outerTable: s.table, outerRow: s.row)
                if eval(whereExpr, scope, actor, depth: depth + 1) == true { return true }
            }
            return false
        }
    }

    func bind(_ a: Expr.Operand, _ s: Scope, _ actor: RLSActor) -> Bound {
        switch a {
        case .column(let c):
            if s.row.generated.contains(c) { return .opaque }
            return .value(s.row[c], s.table.columns.first { $0.name == c }?.type)
        case .outer(let c):
            guard let t = s.outerTable, let r = s.outerRow else { return .value(.null, nil) }
            if r.generated.contains(c) { return .opaque }
            return .value(r[c], t.columns.first { $0.name == c }?.type)
        case .claim(let name):
            if name == "role" { return .value(.string(actor.role), .text) }
            return .value(actor.claims[name] ?? .null, nil)
        case .now: return .value(.string(PGTime.timestamptz(now)), .timestamptz)
        case .value(let v): return .value(v, nil)
        }
    }

    // MARK: Typed comparison

    /// A value reduced to something comparable under a column type.
    enum Key: Equatable {
        case number(Double)
        case text([UInt8])
        case bool(Bool)
        case label(Int)
        case micros(Int64)
        case json(JSONValue)
        case array([Key?])
    }

    static func key(_ v: JSONValue, _ type: SQLType?) -> Key? {
        if v.isNull { return nil }
        switch type {
        case .uuid?:
            guard let s = v.stringValue else { return nil }
            if let ascii = asciiUUIDKey(s) { return ascii }
            let hex = s.lowercased().filter { $0 != "-" && $0 != "{" && $0 != "}" }
            guard hex.count == 32, hex.allSatisfy({ $0.isHexDigit }) else { return nil }
            return .text(Array(hex.utf8))
        case .text?:
            switch v {
            case .string(let s): return .text(Array(s.utf8))
            case .int, .double, .number, .bool: return .text(Array(RLSCase.filterText(v).utf8))
            default: return .text(Array(v.serialized().utf8))
            }
        case .enumeration(_, let labels)?:
            guard let s = v.stringValue, let i = labels.firstIndex(of: s) else { return nil }
            return .label(i)
        case .smallint?, .integer?, .bigint?, .real?, .double?, .numeric?:
            if let d = v.doubleValue { return .number(d) }
            if let s = v.stringValue, let d = Double(s) { return .number(d) }
            return nil
        case .boolean?:
            if let b = v.boolValue { return .bool(b) }
            switch v.stringValue?.lowercased() {
            case "t"?, "true"?: return .bool(true)
            case "f"?, "false"?: return .bool(false)
            default: return nil
            }
        case .timestamptz?, .timestamp?, .date?:
            guard let s = v.stringValue, let us = PGTime.parseTimestamp(s, assumeUTC: true) else { return nil }
            return .micros(us)
        case .time?:
            guard let s = v.stringValue, let us = PGTime.parseTime(s) else { return nil }
            return .micros(us)
        case .jsonb?, .json?: return .json(v)
        case .timetz?, .bytea?, .interval?, .tsvector?, .range?, .money?:
            // Compared by their canonical text, as the mock stores them after input.
            guard let s = v.stringValue else { return nil }
            return .text(Array(s.utf8))
        case .array(let elem)?:
            guard let items = v.arrayValue else { return nil }
            return .array(items.map { key($0, elem) })
        case nil:
            switch v {
            case .string(let s): return .text(Array(s.utf8))
            case .int, .double, .number: return .number(v.doubleValue!)
            case .bool(let b): return .bool(b)
            default: return .json(v)
            }
        }
    }

    /// The uuid key of an all-ASCII string, byte by byte (the same key as the Character-based
    /// path, which a debug build runs many times slower): `-`, `{`, `}` dropped, `A-F` lowered;
    /// `.some(nil)` when another byte or a count other than 32 hex digits makes it no uuid. Nil
    /// (not decided) when the string has a non-ASCII byte.
    static func asciiUUIDKey(_ s: String) -> Key?? {
        var hex: [UInt8] = []
        hex.reserveCapacity(32)
        for u in s.utf8 {
            switch u {
            case 0x2D, 0x7B, 0x7D: continue
            case 0x30...0x39, 0x61...0x66: hex.append(u)
            case 0x41...0x46: hex.append(u + 32)
            case 0x80...: return .none
            default: return .some(nil)
            }
        }
        return .some(hex.count == 32 ? .text(hex) : nil)
    }

    /// `asciiUUIDKey` as two 64-bit halves: the 32 hex digits' nibbles in order, so comparing
    /// the halves orders uuids as their keys' bytes do (`0`-`9` before `a`-`f`). Nil (not decided)
    /// for a non-ASCII byte; `.some(nil)` for no uuid.
    static func asciiUUIDBits(_ s: String) -> (UInt64, UInt64)?? {
        // The string's own bytes when it has them in one piece (a native string always does):
        // a pointer walk, where the generic `utf8` iterator costs a metadata lookup per byte in
        // a debug build, and the oracle calls this for every uuid it compares.
        if let bits = s.utf8.withContiguousStorageIfAvailable({ asciiUUIDBits(bytes: $0) }) { return bits }
        return Array(s.utf8).withUnsafeBufferPointer { asciiUUIDBits(bytes: $0) }
    }

    /// `asciiUUIDBits` of a string's UTF-8 bytes.
    private static func asciiUUIDBits(bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)?? {
        var hi: UInt64 = 0, lo: UInt64 = 0, n = 0
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i < end {
            let u = bytes[i]
            i += 1
            let nibble: UInt8
            switch u {
            case 0x2D, 0x7B, 0x7D: continue
            case 0x30...0x39: nibble = u &- 0x30
            case 0x61...0x66: nibble = u &- 0x61 &+ 10
            case 0x41...0x46: nibble = u &- 0x41 &+ 10
            case 0x80...: return .none
            default: return .some(nil)
            }
            if n < 16 { hi = hi << 4 | UInt64(nibble) } else if n < 32 { lo = lo << 4 | UInt64(nibble) }
            n += 1
        }
        return .some(n == 32 ? (hi, lo) : nil)
    }

    /// Compares two non-null values as PostgreSQL compares them in a column of `type`
    /// (uuid case-insensitively, text bytewise as under the C collation, enums by label order,
    /// times by instant, numbers numerically). Nil when not comparable.
    package static func compare(_ a: JSONValue, _ b: JSONValue, type: SQLType?) -> Int? {
        // Two uuids, the oracle's commonest comparison (`user_id = auth.uid()`), without building
        // their keys: the same answer as comparing `asciiUUIDKey`s.
        if case .uuid? = type, case .string(let p) = a, case .string(let q) = b, let x = asciiUUIDBits(p), let y = asciiUUIDBits(q) {
            guard let x, let y else { return nil }
            return x == y ? 0 : (x < y ? -1 : 1)
        }
        guard let x = key(a, type), let y = key(b, type) else { return nil }
        return compareKeys(x, y)
    }

    static func compareKeys(_ x: Key, _ y: Key) -> Int? {
        func sign<T: Comparable>(_ p: T, _ q: T) -> Int { p == q ? 0 : (p < q ? -1 : 1) }
        switch (x, y) {
        case (.number(let p), .number(let q)): return sign(p, q)
        case (.text(let p), .text(let q)):
            if p == q { return 0 }
            return p.lexicographicallyPrecedes(q) ? -1 : 1
        case (.bool(let p), .bool(let q)): return p == q ? 0 : (p ? 1 : -1)
        case (.label(let p), .label(let q)): return sign(p, q)
        case (.micros(let p), .micros(let q)): return sign(p, q)
        case (.json(let p), .json(let q)): return jsonEqual(p, q) ? 0 : 1
        case (.array(let p), .array(let q)):
            for (i, j) in zip(p, q) {
                guard let i, let j, let c = compareKeys(i, j) else { return nil }
                if c != 0 { return c }
            }
            return sign(p.count, q.count)
        default: return nil
        }
    }

    /// Deep JSON equality with numbers compared by value (`7` equals `7.0`).
    package static func jsonEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int, .int), (.int, .double), (.double, .int), (.double, .double), (.number, .int), (.number, .double), (.number, .number),
            (.int, .number), (.double, .number):
            return a.doubleValue == b.doubleValue
        case (.array(let p), .array(let q)): return p.count == q.count && zip(p, q).allSatisfy { jsonEqual($0, $1) }
        case (.object(let p), .object(let q)):
            return p.count == q.count && p.allSatisfy { k, v in q[k].map { jsonEqual(v, $0) } ?? false }
        default: return a == b
        }
    }

    /// Whether two values are the same value of a column type (NULL equals NULL here: this
    /// compares returned rows with expected ones, not SQL predicates).
    package static func sameValue(_ a: JSONValue, _ b: JSONValue, type: SQLType?) -> Bool {
        if a.isNull || b.isNull { return a.isNull && b.isNull }
        if let c = compare(a, b, type: type) { return c == 0 }
        return jsonEqual(a, b)
    }

    // MARK: Atoms (for choosing witness rows)

    /// The truth values of every atomic test of an expression (definitions expanded), in a fixed
    /// order: two rows with equal vectors are indistinguishable by the expression.
    func atoms(_ e: Expr, table: TableSchema, row: RLSRow, actor: RLSActor) -> [Bool?] {
        var out: [Bool?] = []
        collect(e, Scope(table: table, row: row, outerTable: nil, outerRow: nil), actor, depth: 0, into: &out)
        return out
    }

    private func collect(_ e: Expr, _ s: Scope, _ actor: RLSActor, depth: Int, into out: inout [Bool?]) {
        if depth > 64 { return }
        switch e {
        case .ref(let n): if let d = definitions[n] { collect(d, s, actor, depth: depth + 1, into: &out) }
        case .not(let x): collect(x, s, actor, depth: depth + 1, into: &out)
        case .any(let xs), .all(let xs): for x in xs { collect(x, s, actor, depth: depth + 1, into: &out) }
        default: out.append(eval(e, s, actor, depth: depth))
        }
    }
}
