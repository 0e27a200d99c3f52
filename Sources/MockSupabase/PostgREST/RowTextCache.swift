import Foundation

/// Printed rows of plain-column reads, kept while the row is unchanged: a repeated GET of an
/// unchanged table prints none of its rows again.
///
/// A row's identity is its storage: the address of the `[SQLValue]` buffer it shares with the
/// table. The cache keeps that buffer alive (so its address cannot be reused by another row) and
/// a kept buffer is never written in place (a change to the row copies it first, giving a new
/// address), so a hit is the same values the text was printed from. The plan a text was printed
/// by is kept too (its `Plan` token, alive while cached, for the same reason). The text is a pure
/// function of the values and the plan's plain columns, except for the session time zone
/// (`Prefer: timezone`), so only reads in the default zone use the cache. Bounded: emptied when full.
final class RowTextCache: Sendable {
    /// The identity of one read plan's printing (`ReadPlanCache.Entry.printing`).
    final class Plan: Sendable {}

    private struct Key: Hashable {
        let plan: ObjectIdentifier
        let row: UnsafeRawPointer
    }

    private struct Kept: @unchecked Sendable {
        // Unchecked: the pointer in the key is never dereferenced; `row` holds what it names.
        let plan: Plan
        let row: [SQLValue]
        let text: String
    }

    /// Rows kept before the cache is emptied.
    let capacity: Int
    private let kept = Guarded([Key: Kept]())

    init(capacity: Int = 16_384) { self.capacity = capacity }

    /// The texts of `rows` as `print` writes them, each printed only when not kept for `plan`.
    func texts(_ rows: [[SQLValue]], plan: Plan, print: ([SQLValue]) -> String) -> [String] {
        let id = ObjectIdentifier(plan)
        let keys = rows.map { row in row.withUnsafeBufferPointer { $0.baseAddress.map { Key(plan: id, row: UnsafeRawPointer($0)) } } }
        var out = [String?](repeating: nil, count: rows.count)
        var missing = 0
        kept.withLock { kept in
            for (n, key) in keys.enumerated() {
                if let key, let k = kept[key] { out[n] = k.text } else { missing += 1 }
            }
        }
        if missing == 0 { return out.map { $0! } }
        var fresh: [(Key, Kept)] = []
        for n in rows.indices where out[n] == nil {
            let text = print(rows[n])
            out[n] = text
            if let key = keys[n] { fresh.append((key, Kept(plan: plan, row: rows[n], text: text))) }
        }
        if !fresh.isEmpty, fresh.count <= capacity {
            kept.withLock { kept in
                if kept.count + fresh.count > capacity { kept.removeAll(keepingCapacity: true) }
                for (key, k) in fresh { kept[key] = k }
            }
        }
        return out.map { $0! }
    }
}
