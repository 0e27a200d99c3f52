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
    /// The cells the load filled with the clock's reading, in the order written.
    var clockCells: [SeedClockCell] = []
    /// How many times the load read the clock for a default (`now()`, `CURRENT_DATE`) or an
    /// expression: when these are more than the default cells of `clockCells`, the reading
    /// reached something else (a view's default, a policy's `now()`).
    var clockReads = 0
    /// Whether a cell of `clockCells` feeds anything but itself (a key, a check, a domain, a
    /// generated column of its table): then the load gives what it gave only at its reading.
    var clockBound = false

    /// Notes a cell filled with the clock's reading (row `row` of `t`), and whether the table
    /// lets it move without moving anything else.
    func noteClockCell(_ t: TableSchema, row: Int, column: Int, kind: SeedClockCell.Kind) {
        clockCells.append(SeedClockCell(table: t.qualifiedName, row: row, column: column, kind: kind))
        let name = t.columns[column].name
        let keyed = t.primaryKey.contains(name) || t.uniques.contains { $0.columns.contains(name) } || t.foreignKeys.contains { $0.columns.contains(name) }
        let checked = !t.checks.isEmpty || t.columns.contains { $0.check != nil || $0.generated != nil } || t.columns[column].domain != nil
        if keyed || checked { clockBound = true }
    }
}

/// A cell a fixture load filled with the clock's reading: a `now()` or `CURRENT_DATE` default,
/// or a value the loader gave as the reading (`Database.seed`'s `clockColumns`: GoTrue's
/// `email_confirmed_at` of a persona). A replay at another reading writes that reading there,
/// as loading the rows again then would.
struct SeedClockCell {
    enum Kind {
        /// `now()`: the reading as a timestamp.
        case now
        /// `CURRENT_DATE`: the reading's date.
        case currentDate
        /// The reading as `PGTime.timestamptz` text, cast to the column's type.
        case timestamptzText

        /// The kind of a default that reads the clock (nil: any other default).
        init?(_ d: ColumnDefault?) {
            switch d {
            case .now?: self = .now
            case .currentDate?: self = .currentDate
            default: return nil
            }
        }
    }
    /// The table's key in the engine (`public.notes`).
    let table: String
    let row: Int
    let column: Int
    let kind: Kind

    /// The value a load at `now` writes in this cell of a column.
    func value(at now: Date, _ c: ColumnSchema) throws -> SQLValue {
        switch kind {
        case .now: return .timestamp(PGTime.micros(now))
        case .currentDate: return .date(Int32(PGTime.micros(now) / PGTime.usPerDay))
        case .timestamptzText: return try c.fitLength(SQLValue.coerce(json: .string(PGTime.timestamptz(now)), to: c.type))
        }
    }
}

/// A fixture load as it ended: every table's rows and the sequences it set, and the changes it
/// committed. Loading the same fixtures into the same schema again gives exactly this when the
/// load drew no generated value (ids, sequences), so `Database.replaySeed` puts it back instead
/// of inserting every row again. Where the load read the clock, a replay at another reading
/// writes that reading in the cells it filled (`clockCells`: `now()` defaults, a persona's
/// `email_confirmed_at`) and stamps the changes with it, as loading again would; a load whose
/// reading reached anything else (`shiftable` false) is replayed only at its own reading.
package struct SeedRecording: @unchecked Sendable {
    // Unchecked: the tables are private clones nothing writes to; `replaySeed` copies them.
    /// The clock's reading when the load began.
    package let now: Date
    /// Whether the clock's reading reached only `clockCells`, so the load can be replayed at
    /// any reading (false: only at `now`, and only when the clock did not move during the load).
    package let shiftable: Bool
    let tables: [String: DatabaseEngine.Table]
    let sequenceTops: [(key: String, top: Int64)]
    let batches: [[RowChange]]
    let clockCells: [SeedClockCell]

    /// Whether a load at the clock reading `at` gives what this recording holds (with the
    /// reading written into `clockCells`).
    package func replays(at reading: Date) -> Bool { shiftable || reading == now }
}

/// Fixture loads kept for reuse by backends built from equal schemas and fixtures (the gate
/// and `contracts verify` boot many backends of each app), found through `LoadedSpecs` so that
/// nothing is shared unless a caller bound one. An entry is used only for an equal schema and
/// equal fixtures, at a clock reading it replays at (`SeedRecording.replays`), so a spec changed
/// in memory never gets another's rows.
package final class SeedRecordings: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(schema: DatabaseSchema, fixtures: Fixtures, recording: SeedRecording)] = []

    package init() {}

    /// A recording of `fixtures` loaded into `schema` that replays at `now`, if one was kept.
    package func recording(schema: DatabaseSchema, fixtures: Fixtures, now: Date) -> SeedRecording? {
        lock.withLock { entries.first { $0.recording.replays(at: now) && $0.schema == schema && $0.fixtures == fixtures }?.recording }
    }

    /// Keeps a recording (the first one kept for equal inputs that replays at its reading wins).
    package func keep(_ recording: SeedRecording, schema: DatabaseSchema, fixtures: Fixtures) {
        lock.withLock {
            guard !entries.contains(where: { $0.recording.replays(at: recording.now) && $0.schema == schema && $0.fixtures == fixtures }) else { return }
            entries.append((schema, fixtures, recording))
        }
    }

    /// The recordings of a contracts folder while `LoadedSpecs` are bound, else nil.
    package static func bound(folder: URL) -> SeedRecordings? {
        guard LoadedSpecs.current != nil else { return nil }
        return LoadedSpecs.value("seed-recordings", folder: folder) { SeedRecordings() }
    }
}
