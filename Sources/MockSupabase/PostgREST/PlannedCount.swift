import Foundation

/// `Prefer: count=planned`: PostgREST reports the planner's row estimate for the read (MainTx.hs
/// takes the "Plan Rows" of an EXPLAIN), not a count. The model here is a plain table analyzed
/// after its rows were written:
/// - no filter: the table's row count (`reltuples`);
/// - one range comparison (`gt`, `gte`, `lt`, `lte`) on a numeric column whose non-null values
///   are all distinct and at most 101 (so ANALYZE keeps no most-common values and every value is
///   a histogram bound): PostgreSQL's selfuncs.c `ineq_histogram_selectivity` — the fraction of
///   bounds at or below the constant, interpolated inside its bin, widened in the first bin and
///   lessened for `<`/`>=` by the equality fraction `1/ndistinct`, kept a hundredth of a bin away
///   from 0 and 1 unless an index gave the end bin's actual extreme —
///   times the non-null fraction, rounded half to even and at least 1 (`clamp_row_est`).
/// Anything else has no model: the caller keeps the exact count.
enum PlannedCount {
    /// The estimate for `filters` (top-level conjuncts) over `rows` of `table`, or nil.
    static func estimate(rows: [[SQLValue]], filters: [RowFilter], table: TableSchema) -> Int? {
        if filters.isEmpty { return rows.count }
        guard filters.count == 1, case .condition(let column, let op, .text(let text), false) = filters[0],
            [.gt, .gte, .lt, .lte].contains(op), let index = table.columnIndex(column), let constant = Double(text),
            Self.isNumeric(table.columns[index].type)
        else { return nil }
        let values = rows.compactMap { number($0[index]) }
        let hist = values.sorted()
        guard hist.count >= 2, hist.count <= 101, Set(hist).count == hist.count else { return nil }
        let nullFraction = Double(rows.count - values.count) / Double(rows.count)
        let isGreater = op == .gt || op == .gte
        let orEqual = op == .gte || op == .lte
        // Binary search with the operator itself, negated for `>`/`>=`.
        func holds(_ v: Double) -> Bool {
            switch op {
            case .gt: return v > constant
            case .gte: return v >= constant
            case .lt: return v < constant
            default: return v <= constant
            }
        }
        var lo = 0, hi = hist.count
        while lo < hi {
            let probe = (lo + hi) / 2
            if holds(hist[probe]) != isGreater { lo = probe + 1 } else { hi = probe }
        }
        var fraction: Double
        // In an end bin PostgreSQL reads the column's actual extremes through an index
        // (`get_actual_variable_range`) and then trusts the estimate (`have_end`).
        let indexed = table.primaryKey == [column] || table.uniques.contains { $0.columns == [column] }
        var haveEnd = false
        if lo <= 0 {
            fraction = 0
        } else if lo >= hist.count {
            fraction = 1
        } else {
            let low = hist[lo - 1], high = hist[lo]
            var bin = high > low ? (constant - low) / (high - low) : 0.5
            bin = min(max(bin, 0), 1)
            let equal = hist.count > 1 ? 1 / Double(hist.count) : 0
            fraction = (Double(lo - 1) + bin) / Double(hist.count - 1)
            if lo == 1 { fraction += equal * (1 - bin) }
            if isGreater == orEqual { fraction -= equal }
            haveEnd = indexed && (lo == 1 || lo == hist.count - 1)
        }
        var selectivity = isGreater ? 1 - fraction : fraction
        if !haveEnd {
            let cutoff = 0.01 / Double(hist.count - 1)
            selectivity = min(max(selectivity, cutoff), 1 - cutoff)
        } else {
            selectivity = min(max(selectivity, 0), 1)
        }
        let estimate = (Double(rows.count) * (1 - nullFraction) * selectivity).rounded(.toNearestOrEven)
        return max(1, Int(estimate))
    }

    static func isNumeric(_ type: SQLType) -> Bool {
        switch type {
        case .smallint, .integer, .bigint, .real, .double, .numeric: return true
        default: return false
        }
    }

    static func number(_ v: SQLValue) -> Double? {
        switch v {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .numeric(let n): return n.doubleValue
        default: return nil
        }
    }
}
