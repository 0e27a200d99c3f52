import Foundation

/// What a fixture load took and gave while it was recorded (`Database.recordingSeed`).
final class SeedRecorder {
    /// Values drawn from the id generator or a sequence: a load that drew any gives other rows
    /// when run again, so it is not kept.
    var draws = 0
    /// The committed row changes, one batch per statement, as the change listeners got them.
    var batches: [[RowChange]] = []
    /// Each sequence the load set past the largest value it loaded (`setval`), in order.
    var sequenceTops: [(key: String, top: Int64)] = []
}

/// A fixture load as it ended: every table's rows and the sequences it set, and the changes it
/// committed. Loading the same fixtures into the same schema again gives exactly this when the
/// load drew no generated value (ids, sequences) and the clock reads the same (`now()`
/// defaults, `email_confirmed_at`, commit times), so `Database.replaySeed` puts it back
/// instead of inserting every row again.
package struct SeedRecording: @unchecked Sendable {
    // Unchecked: the tables are private clones nothing writes to; `replaySeed` copies them.
    /// The clock's reading during the load.
    package let now: Date
    let tables: [String: DatabaseEngine.Table]
    let sequenceTops: [(key: String, top: Int64)]
    let batches: [[RowChange]]
}

/// Fixture loads kept for reuse by backends built from equal schemas and fixtures (the gate
/// and `contracts verify` boot many backends of each app), found through `LoadedSpecs` so that
/// nothing is shared unless a caller bound one. An entry is used only for an equal schema,
/// equal fixtures and the same clock reading, so a spec changed in memory never gets another's
/// rows.
package final class SeedRecordings: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(schema: DatabaseSchema, fixtures: Fixtures, recording: SeedRecording)] = []

    package init() {}

    /// The recording of `fixtures` loaded into `schema` at `now`, if one was kept.
    package func recording(schema: DatabaseSchema, fixtures: Fixtures, now: Date) -> SeedRecording? {
        lock.withLock { entries.first { $0.recording.now == now && $0.schema == schema && $0.fixtures == fixtures }?.recording }
    }

    /// Keeps a recording (the first one kept for equal inputs wins).
    package func keep(_ recording: SeedRecording, schema: DatabaseSchema, fixtures: Fixtures) {
        lock.withLock {
            guard !entries.contains(where: { $0.recording.now == recording.now && $0.schema == schema && $0.fixtures == fixtures }) else { return }
            entries.append((schema, fixtures, recording))
        }
    }

    /// The recordings of a contracts folder while `LoadedSpecs` are bound, else nil.
    package static func bound(folder: URL) -> SeedRecordings? {
        guard LoadedSpecs.current != nil else { return nil }
        return LoadedSpecs.value("seed-recordings", folder: folder) { SeedRecordings() }
    }
}
