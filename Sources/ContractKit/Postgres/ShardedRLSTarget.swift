import Foundation

/// Several targets over the same state (copies of one seeded database, each with its own psql
/// session) sharing a run's cases: the cases are cut into slices, and each shard, once open,
/// takes the next slice not yet taken and runs it through its own pipeline while the others run
/// theirs, so the server works on two cases at once instead of waiting on one session's round
/// trips. A shard that takes long to open (a database still being copied) simply takes fewer
/// slices. Every case still starts from the fixture state (each is rolled back) on a database of
/// its own shard, so the outcomes, in case order, are those of one target running them all.
package final class ShardedRLSTarget: RLSTarget, @unchecked Sendable {
    private let opens: [() throws -> any RLSTarget]
    private let slice: Int

    /// Shards opened on first use by `opens` (at least one; the first runs single cases);
    /// `slice` cases are taken at a time.
    package init(_ opens: [() throws -> any RLSTarget], slice: Int = PostgresTarget.pipelineChunk) {
        precondition(!opens.isEmpty, "a sharded target needs a target")
        self.opens = opens
        self.slice = max(1, slice)
    }

    package func execute(_ rlsCase: RLSCase) throws -> RLSOutcome {
        try opens[0]().execute(rlsCase)
    }

    package func executeAll(_ cases: [RLSCase]) -> [Result<RLSOutcome, any Error>] {
        let starts = Array(stride(from: 0, to: cases.count, by: slice))
        if opens.count < 2 || starts.count < 2 {
            do { return try opens[0]().executeAll(cases) } catch { return cases.map { _ in .failure(error) } }
        }
        let state = SliceState(starts.count)
        let (opens, slice) = (self.opens, self.slice)
        // The body never throws: a shard that does not open leaves its slices to the others.
        _ = try? Concurrently<Void>.map(Array(opens.indices), width: opens.count) { i in
            let target: any RLSTarget
            do { target = try opens[i]() } catch {
                state.lock.withLock { state.openFailure = state.openFailure ?? error }
                return
            }
            while true {
                let n: Int = state.lock.withLock {
                    defer { state.next += 1 }; return state.next
                }
                guard n < starts.count else { return }
                let part = target.executeAll(Array(cases[starts[n]..<min(starts[n] + slice, cases.count)]))
                state.lock.withLock { state.parts[n] = part }
            }
        }
        var out: [Result<RLSOutcome, any Error>] = []
        out.reserveCapacity(cases.count)
        for (n, s) in starts.enumerated() {
            let count = min(s + slice, cases.count) - s
            out += state.parts[n] ?? Array(repeating: .failure(state.openFailure ?? RLSTargetError("no shard opened")), count: count)
        }
        return out
    }

    /// The slices taken so far and their outcomes.
    private final class SliceState: @unchecked Sendable {
        let lock = NSLock()
        var next = 0
        var parts: [[Result<RLSOutcome, any Error>]?]
        var openFailure: (any Error)?
        init(_ n: Int) { parts = Array(repeating: nil, count: n) }
    }
}
