import Foundation

/// One aggregate of a `select` list (`count()`, `total:invoice_total.sum()::text`,
/// `jsonb_col->>key::integer.sum()`), computed over a group of rows as PostgreSQL computes the
/// function PostgREST writes (QueryBuilder.hs `pgFmtSelectItem`: `sum(col::cast)::cast AS alias`).
struct SelectAggregate {
    enum Source {
        /// `count()`: the group's rows.
        case rows
        case column(index: Int, type: SQLType)
        case jsonPath(index: Int, type: SQLType, path: JSONPath)
    }

    /// `count`, `sum`, `avg`, `max` or `min`.
    let function: String
    let source: Source
    let inputCast: SQLType?
    let cast: SQLType?
    /// The output key: the alias, else the function's name (PostgreSQL's column name for it).
    let out: String

    /// The aggregate's value over `rows` and its type, before the output cast.
    func value(_ rows: [[SQLValue]]) throws -> (SQLValue, SQLType) {
        var type: SQLType = .bigint
        var values: [SQLValue] = []
        switch source {
        case .rows:
            return (.int(Int64(rows.count)), .bigint)
        case .column(let i, let t):
            type = t
            values = rows.map { $0[i] }
        case .jsonPath(let i, let t, let path):
            let evaluated = rows.map { path.evaluate($0[i], type: t) }
            type = evaluated.first?.type ?? (path.steps.last?.asText ?? false ? .text : .jsonb)
            values = evaluated.map(\.value)
        }
        if let inputCast {
            values = try values.map { $0.isNull ? .null : try SQLValue.parse(text: $0.pgText(as: type), as: inputCast) }
            type = inputCast
        }
        values = values.filter { !$0.isNull }
        switch function {
        case "count":
            return (.int(Int64(values.count)), .bigint)
        case "min", "max":
            let best = values.dropFirst().reduce(values.first) { best, v in
                let c = SQLValue.compare(v, best!, type: type) ?? 0
                return (function == "min" ? c < 0 : c > 0) ? v : best
            }
            return (best ?? .null, type)
        case "sum":
            return try sum(values, type)
        default:
            return try average(values, type)
        }
    }

    /// PostgreSQL's `sum`: `bigint` for smallint/integer, `numeric` for bigint/numeric (the
    /// largest input scale), the input type for real, double precision and money; null for no rows.
    private func sum(_ values: [SQLValue], _ type: SQLType) throws -> (SQLValue, SQLType) {
        switch type {
        case .smallint, .integer, .money:
            let out: SQLType = type == .money ? .money : .bigint
            if values.isEmpty { return (.null, out) }
            var total: Int64 = 0
            for v in values {
                guard case .int(let n) = v else { continue }
                let (r, overflow) = total.addingReportingOverflow(n)
                if overflow { throw PostgresError("22003", type == .money ? "money out of range" : "bigint out of range") }
                total = r
            }
            return (.int(total), out)
        case .bigint, .numeric:
            if values.isEmpty { return (.null, .numeric(precision: nil, scale: 0)) }
            let (total, scale) = Self.decimalSum(values)
            return (.numeric(Self.numeric(total, scale: scale)), .numeric(precision: nil, scale: 0))
        case .real, .double:
            if values.isEmpty { return (.null, type) }
            return (.double(values.reduce(0) { $0 + Self.double($1) }), type)
        default:
            throw Self.noFunction("sum", type)
        }
    }

    /// PostgreSQL's `avg`: `numeric` for the integer types and numeric (the sum divided by the
    /// count at `select_div_scale`'s scale, numeric.c), double precision for real and double.
    private func average(_ values: [SQLValue], _ type: SQLType) throws -> (SQLValue, SQLType) {
        switch type {
        case .smallint, .integer, .bigint, .numeric:
            if values.isEmpty { return (.null, .numeric(precision: nil, scale: 0)) }
            let (total, scale) = Self.decimalSum(values)
            let sum = Self.numeric(total, scale: scale)
            let count = PGNumeric.parse(String(values.count))!
            let rscale = Self.divisionScale(sum, count)
            var quotient = Decimal()
            var a = total, b = Decimal(values.count)
            _ = NSDecimalDivide(&quotient, &a, &b, .plain)
            return (.numeric(Self.numeric(quotient, scale: rscale)), .numeric(precision: nil, scale: 0))
        case .real, .double:
            if values.isEmpty { return (.null, .double) }
            return (.double(values.reduce(0) { $0 + Self.double($1) } / Double(values.count)), .double)
        default:
            throw Self.noFunction("avg", type)
        }
    }

    static func noFunction(_ name: String, _ type: SQLType) -> PostgresError {
        PostgresError(
            "42883", "function \(name)(\(type)) does not exist",
            hint: "No function matches the given name and argument types. You might need to add explicit type casts.")
    }

    static func double(_ v: SQLValue) -> Double {
        switch v {
        case .int(let n): return Double(n)
        case .double(let d): return d
        case .numeric(let n): return Double(n.description) ?? .nan
        default: return 0
        }
    }

    /// The exact sum of integer and numeric values and the largest scale among them.
    static func decimalSum(_ values: [SQLValue]) -> (Decimal, Int) {
        var total = Decimal(0), scale = 0
        for v in values {
            switch v {
            case .int(let n): total += Decimal(n)
            case .numeric(let n):
                total += Decimal(string: n.description, locale: Locale(identifier: "en_US_POSIX")) ?? 0
                scale = max(scale, n.scale)
            default: break
            }
        }
        return (total, scale)
    }

    /// `d` as a numeric of `scale` fraction digits, rounded half away from zero.
    static func numeric(_ d: Decimal, scale: Int) -> PGNumeric {
        var value = d, rounded = Decimal()
        NSDecimalRound(&rounded, &value, scale, .plain)
        let text = NSDecimalNumber(decimal: rounded).stringValue
        return (PGNumeric.parse(text) ?? PGNumeric.parse("0")!).rounded(scale: scale)
    }

    /// numeric.c `select_div_scale`: at least 16 significant digits in the quotient, judged on
    /// the base-10000 digits of both operands, and no fewer than either operand's scale.
    static func divisionScale(_ a: PGNumeric, _ b: PGNumeric) -> Int {
        func lead(_ n: PGNumeric) -> (weight: Int, first: Int) {
            let integer = Array(n.integer.drop { $0 == 0 })
            if !integer.isEmpty {
                let width = (integer.count - 1) % 4 + 1
                return ((integer.count - 1) / 4, integer.prefix(width).reduce(0) { $0 * 10 + Int($1) })
            }
            var fraction = n.fraction
            while fraction.count % 4 != 0 { fraction.append(0) }
            for g in stride(from: 0, to: fraction.count, by: 4) {
                let digit = fraction[g..<g + 4].reduce(0) { $0 * 10 + Int($1) }
                if digit != 0 { return (-(g / 4) - 1, digit) }
            }
            return (0, 0)
        }
        let (w1, f1) = lead(a), (w2, f2) = lead(b)
        var qweight = w1 - w2
        if f1 <= f2 { qweight -= 1 }
        let rscale = max(16 - qweight * 4, a.scale, b.scale, 0)
        return min(rscale, 1000)
    }
}
