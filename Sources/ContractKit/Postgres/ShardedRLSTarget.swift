import Foundation

/// Several targets over the same state (copies of one seeded database, each with its own psql
/// session) sharing a run's cases: each shard takes a contiguous slice and runs it through its
/// own pipeline while the others run theirs, so the server works on two cases at once instead of
/// waiting on one session's round trips. Every case still starts from the fixture state (each
/// is rolled back) on a database of its own shard, so the outcomes, in case order, are those of
/// one target running them all.
package struct ShardedRLSTarget: RLSTarget {
    /// The targets, each holding the same data; the first runs single cases.
    package let shards: [any RLSTarget]

    /// Shards over `shards` (at least one).
    package init(_ shards: [any RLSTarget]) {
        precondition(!shards.isEmpty, "a sharded target needs a target")
        self.shards = shards
    }

    package func execute(_ rlsCase: RLSCase) throws -> RLSOutcome {
        try shards[0].execute(rlsCase)
    }

    package func executeAll(_ cases: [RLSCase]) -> [Result<RLSOutcome, any Error>] {
        let n = min(shards.count, cases.count)
        if n < 2 { return shards[0].executeAll(cases) }
        let size = (cases.count + n - 1) / n
        let slices = stride(from: 0, to: cases.count, by: size).map { Array(cases[$0..<min($0 + size, cases.count)]) }
        let shards = self.shards
        // The body never throws: a shard's failure is in its cases' results.
        let parts =
            (try? Concurrently<[Result<RLSOutcome, any Error>]>.map(Array(slices.indices), width: slices.count) { i in
                shards[i].executeAll(slices[i])
            }) ?? []
        return parts.flatMap { $0 }
    }
}
