import Foundation

/// `CREATE DOMAIN name AS base [NOT NULL] [CONSTRAINT c CHECK (…)]`: a base type whose values
/// must pass checks. A column of the domain stores base values; the checks run when a value is
/// read into the domain (PostgreSQL casts the request body's value to the column type), before
/// triggers and table constraints.
package struct DomainDefinition: Sendable, Equatable {
    /// The domain's name (what `format_type` prints for its columns).
    package var name: String
    package var base: SQLType
    /// `varchar(n)`/`char(n)` limits of the base, if any.
    package var limit: Int?
    package var padded: Bool
    /// `NOT NULL` on the domain.
    package var notNull: Bool
    /// Checks in order: constraint name and expression (`{"column": "value"}` is the value).
    package var checks: [(name: String, expr: Expr)]
    /// `DEFAULT` on the domain: what a column of it without its own default takes.
    package var defaultValue: ColumnDefault? = nil

    package static func == (a: DomainDefinition, b: DomainDefinition) -> Bool {
        a.name == b.name && a.base == b.base && a.limit == b.limit && a.padded == b.padded && a.notNull == b.notNull && a.defaultValue == b.defaultValue
            && a.checks.map(\.name) == b.checks.map(\.name) && a.checks.map(\.expr) == b.checks.map(\.expr)
    }

    /// Applies the domain to a base value: 23502 `domain d does not allow null values`, 23514
    /// `value for domain d violates check constraint "c"` (domains.c `domain_check_input`); a
    /// check that is unknown (NULL) passes, as in SQL.
    package func check(_ v: SQLValue) throws {
        if v.isNull {
            if notNull { throw PostgresError("23502", "domain \(name) does not allow null values") }
        }
        for c in checks where DomainDefinition.eval(c.expr, v, base) == false {
            throw PostgresError("23514", "value for domain \(name) violates check constraint \"\(c.name)\"")
        }
    }

    /// Evaluates a check over the one value (`VALUE` in SQL); nil is unknown.
    static func eval(_ e: Expr, _ v: SQLValue, _ type: SQLType) -> Bool? {
        func operand(_ o: Expr.Operand) -> SQLValue? {
            switch o {
            case .column: return v
            case .value(let j): return try? SQLValue.coerce(json: j, to: type)
            default: return nil
            }
        }
        switch e {
        case .constant(let b): return b
        case .compare(let op, let a, let b):
            guard let x = operand(a), let y = operand(b) else { return nil }
            if x.isNull || y.isNull { return nil }
            guard let c = SQLValue.compare(x, y, type: type) else { return nil }
            return op.holds(c)
        case .inList(let a, let list):
            guard let x = operand(a), !x.isNull else { return nil }
            var sawNull = false
            for j in list {
                guard let y = try? SQLValue.coerce(json: j, to: type) else { continue }
                if y.isNull { sawNull = true; continue }
                if SQLValue.compare(x, y, type: type) == 0 { return true }
            }
            return sawNull ? nil : false
        case .isNull(let a, let negated):
            guard let x = operand(a) else { return nil }
            return x.isNull != negated
        case .all(let es): return Kleene.all(es.count) { eval(es[$0], v, type) }
        case .any(let es): return Kleene.any(es.count) { eval(es[$0], v, type) }
        case .not(let x): return eval(x, v, type).map { !$0 }
        default: return nil
        }
    }
}

extension DomainDefinition: Decodable {
    /// Where the decoder's values hold schema.json's enums (`[String: [String]]`), for types.
    package static let enumsValue = "schema.enums"

    enum CodingKeys: String, CodingKey, CaseIterable { case name, type, notNull, check, constraint, checkSQL, decision, doc, checks, `default` }

    /// One `domains` entry: `{"name", "type", "notNull", "check", "checkSQL", "constraint"}` or
    /// `"checks": [{"name", "expr", "sql"}]`.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let enums = decoder.contractState?.values[Self.enumsValue] as? [String: [String]] ?? [:]
        name = try c.decode(String.self, forKey: .name)
        let typeName = try c.decode(String.self, forKey: .type)
        var baseName = typeName
        limit = nil
        padded = false
        let lower = typeName.lowercased().replacingOccurrences(of: " ", with: "")
        for (prefix, p) in [("charactervarying(", false), ("varchar(", false), ("character(", true), ("char(", true)]
        where lower.hasPrefix(prefix) && lower.hasSuffix(")") {
            guard let n = Int(lower.dropFirst(prefix.count).dropLast()), n > 0 else { throw c.fail(.type, "bad length in '\(typeName)'") }
            limit = n; padded = p; baseName = "text"
            break
        }
        guard let base = SQLType.parse(baseName, enums: enums) else { throw c.fail(.type, "unknown type '\(typeName)'") }
        self.base = base
        checks = []
        if let check = try c.decodeIfPresent(Expr.self, forKey: .check) {
            checks.append((try c.decodeIfPresent(String.self, forKey: .constraint) ?? "\(name)_check", check))
        }
        checks += try (c.decodeIfPresent([Check].self, forKey: .checks) ?? []).map { ($0.name, $0.expr) }
        notNull = try c.decodeIfPresent(Bool.self, forKey: .notNull) ?? false
        if let d = try c.decodeIfPresent(TableSchema.DefaultEntry.self, forKey: .default) {
            if case .value(let v) = d.value {
                do { _ = try SQLValue.coerce(json: v, to: base) } catch { throw c.fail(.default, "default does not fit '\(typeName)'") }
            }
            defaultValue = d.value
        }
    }

    /// `{"name", "expr", "sql"}` of `checks`.
    private struct Check: Decodable {
        var name: String
        var expr: Expr
        enum CodingKeys: String, CodingKey, CaseIterable { case name, expr, sql }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            expr = try c.decode(Expr.self, forKey: .expr)
        }
    }
}
