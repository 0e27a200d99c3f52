import Foundation

/// What a GET needs before it touches rows, by table and exact query items: the parsed query, the
/// select plan bound to the table, and the top-level filters. Building them is a pure function of
/// the table's schema (fixed for a backend) and the items, so a hit answers exactly what building
/// afresh would. Only plans without embedded resources are kept: an embed's plan carries state
/// set per request (`Embed.nullFilter`), and those requests are dominated by their embeds' reads
/// anyway. Failures are not kept. Bounded: emptied when full.
final class ReadPlanCache: Sendable {
    /// A table and a query string's identity.
    struct Key: Hashable, Sendable {
        let table: String
        let query: ParsedQueryCache.Key
    }

    /// A ready read: the query as parsed (before any `Range` header), its plan, its filters and
    /// its `Content-Location` (a function of the table and the query string alone). A class, so
    /// a hit hands out one reference instead of copying every field of the plan.
    final class Entry: @unchecked Sendable {
        // Unchecked: `SelectPlan` holds classes only for embeds, which are never kept here, and
        // nothing mutates an entry after it is stored.
        let query: ParsedQuery
        let plan: SelectPlan
        let filters: [RowFilter]
        let location: String
        /// The identity under which `RowTextCache` keeps the rows this plan printed.
        let printing = RowTextCache.Plan()

        init(query: ParsedQuery, plan: SelectPlan, filters: [RowFilter], location: String) {
            self.query = query
            self.plan = plan
            self.filters = filters
            self.location = location
        }
    }

    /// Entries kept before the cache is emptied.
    let capacity: Int
    private let entries = Guarded([Key: Entry]())

    /// A cache holding at most `capacity` plans.
    init(capacity: Int = 2_048) { self.capacity = capacity }

    /// The entry stored for `key`, if any.
    func entry(_ key: Key) -> Entry? { entries.withLock { $0[key] } }

    /// Keeps a plan when it may be shared (no embeds); otherwise does nothing.
    func store(_ key: Key, query: ParsedQuery, plan: SelectPlan, filters: [RowFilter], location: String) {
        guard plan.embeds.isEmpty else { return }
        entries.withLock {
            if $0.count >= capacity { $0.removeAll(keepingCapacity: true) }
            $0[key] = Entry(query: query, plan: plan, filters: filters, location: location)
        }
    }
}
