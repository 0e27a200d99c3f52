extension PlannedCount {
    /// The planner's estimate for a read whose only conditions are `rel=is.null` or
    /// `rel=not.is.null` on to-one embeds (RelatedQueriesSpec's `count=planned`): PostgREST
    /// filters on the lateral subquery's whole row (`"projects_clients_1" IS NOT NULL`), a
    /// variable ANALYZE keeps no statistics for, so selfuncs.c `nulltestsel` guesses
    /// `DEFAULT_UNK_SEL` (0.005) for IS NULL and `DEFAULT_NOT_UNK_SEL` (0.995) for IS NOT NULL;
    /// the to-one lateral join keeps the parent's row estimate. The product over the filters,
    /// times the table's rows, rounded half to even and at least 1 (`clamp_row_est`). Nil for
    /// anything else (a to-many embed's null filter, `!inner`, a logic tree naming embeds, a
    /// filter on a column): the caller keeps the exact count.
    static func estimate(tableRows: Int, nullFilteredEmbedsOf plan: SelectPlan) -> Int? {
        guard plan.deferred.trees.isEmpty else { return nil }
        var selectivity = 1.0
        var any = false
        for (_, e) in plan.embeds {
            if e.inner || e.plan.hasInnerFilter { return nil }
            guard let wantsNull = e.nullFilter else { continue }
            if e.toMany { return nil }
            selectivity *= wantsNull ? 0.005 : 0.995
            any = true
        }
        guard any else { return nil }
        return max(1, Int((Double(tableRows) * selectivity).rounded(.toNearestOrEven)))
    }
}
