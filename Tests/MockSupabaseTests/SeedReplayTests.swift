import XCTest
@testable import MockSupabase

/// A fixture load replayed (`SeedRecording`: `reset`, and backends built while `LoadedSpecs` are
/// bound) leaves exactly what loading the rows again leaves: the same rows, the sequences set
/// past the same values, the same changes to the change feed. A load that draws generated ids is
/// never replayed; at another clock reading, a load is replayed with that reading in the cells it
/// filled with the clock, unless its reading reached something else (a check, a key).
final class SeedReplayTests: XCTestCase {
    static let schemaJSON = #"""
        {"tables": [
          {"name": "notes", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "body", "type": "text", "nullable": false},
            {"name": "created_at", "type": "timestamptz", "nullable": false, "default": {"fn": "now()"}}]},
          {"name": "tokens", "columns": [
            {"name": "id", "type": "uuid", "primaryKey": true, "default": {"fn": "gen_random_uuid()"}},
            {"name": "label", "type": "text"}]}]}
        """#

    func spec(tokens: [JSONValue]) throws -> AppSpec {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(Self.schemaJSON), file: "inline"))
        let alice = Persona(
            name: "alice", id: "00000000-0000-4000-8000-00000000a11c", email: "alice@example.com", password: "pw-alice", label: "", metadata: [:])
        return AppSpec(
            app: "seedreplay", folder: URL(fileURLWithPath: "/nonexistent/seedreplay"), schema: schema,
            policies: PolicySet(definitions: [:], definitionDocs: [:], tables: []),
            fixtures: Fixtures(personas: [alice], tables: [("notes", [["id": 4, "body": "a"], ["id": 7, "body": "b"]]), ("tokens", tokens)]))
    }

    /// Everything a load leaves behind: each table's rows as the service role reads them, the
    /// next value of the `notes` sequence, and the changes the feed got since `feed` was empty.
    func state(_ b: MockSupabase, _ feed: Guarded<[String]>) throws -> [String] {
        var out = try ["auth.users", "notes", "tokens"].map { t in "\(t): \(try b.database.rows(t, order: []).map { JSONValue.object($0).serialized() })" }
        out.append("feed: \(feed.withLock { $0 })")
        let next = try b.database.insert("notes", [["body": "next"]])
        out.append("next note: \(next.first?["id"].map { "\($0)" } ?? "none")")
        return out
    }

    func listen(_ b: MockSupabase) -> Guarded<[String]> {
        let feed = Guarded<[String]>([])
        b.database.addChangeListener { batch in
            let line = batch.map { "\($0.event.rawValue) \($0.table.name) \($0.new.map { JSONValue.object($0).serialized() } ?? "")" }.joined(separator: "; ")
            feed.withLock { $0.append(line) }
        }
        return feed
    }

    func testAResetReplaysTheLoadAndLeavesWhatLoadingAgainLeaves() throws {
        let spec = try spec(tokens: [["id": "11111111-1111-4111-8111-111111111111", "label": "t"]])
        let replayed = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 1)))
        XCTAssertNotNil(replayed.seedRecording.withLock { $0 }, "a load that draws nothing is kept")
        let clock = ManualClock()
        let loaded = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 1)))
        let feedA = listen(replayed), feedB = listen(loaded)
        _ = try replayed.database.insert("notes", [["body": "gone after reset"]])
        _ = try loaded.database.insert("notes", [["body": "gone after reset"]])
        try replayed.reset()
        // The other backend's reset loads row by row: its recording is dropped first.
        loaded.seedRecording.withLock { $0 = nil }
        feedB.withLock { $0 = [] }
        try loaded.reset()
        feedA.withLock { $0.removeFirst() } // the insert before the reset
        let a = try state(replayed, feedA), b = try state(loaded, feedB)
        XCTAssertEqual(a, b)
        XCTAssertTrue(a.contains("next note: 9"), "\(a)") // past 7 and the 8 the inserts used
        XCTAssertTrue(a.last(where: { $0.hasPrefix("feed") })?.contains("INSERT notes") == true)
        // The comparison sees a difference (a replay that dropped a row would fail it).
        _ = try replayed.database.delete("notes", where: nil)
        XCTAssertNotEqual(try state(replayed, feedA), try state(loaded, feedB))
    }

    func testBackendsShareALoadOnlyForEqualFixturesAndTheSameClockReading() throws {
        let spec = try spec(tokens: [["id": "11111111-1111-4111-8111-111111111111", "label": "t"]])
        try LoadedSpecs.$current.withValue(LoadedSpecs()) {
            let first = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 1)))
            let kept = try XCTUnwrap(SeedRecordings.bound(folder: spec.folder))
            XCTAssertNotNil(kept.recording(schema: spec.schema, fixtures: spec.fixtures, now: ManualClock().now()))
            let second = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 1)))
            XCTAssertEqual(try state(first, Guarded([])), try state(second, Guarded([])))
            var changed = spec
            changed.fixtures.tables[0].rows.append(["id": 9, "body": "c"])
            XCTAssertNil(kept.recording(schema: changed.schema, fixtures: changed.fixtures, now: ManualClock().now()))
            let third = try MockSupabase(configuration: MockConfiguration(spec: changed, clock: ManualClock(), ids: SeededIDGenerator(seed: 1)))
            XCTAssertEqual(third.database.count("notes"), 3)
            // The load read the clock only for `created_at` defaults and the persona's
            // `email_confirmed_at`: shared at any reading (`testAReplayAtAnotherReading…`).
            XCTAssertNotNil(kept.recording(schema: spec.schema, fixtures: spec.fixtures, now: Date(timeIntervalSince1970: 0)))
            // A load whose reading reaches a check is shared only at its own reading.
            var checked = spec
            checked.fixtures.tables[0].rows.append(["id": 10, "body": "d"])
            let notes = try XCTUnwrap(checked.schema.tables.firstIndex { $0.name == "notes" })
            checked.schema.tables[notes].columns[2].check = .compare(.lte, .column("created_at"), .now)
            _ = try MockSupabase(configuration: MockConfiguration(spec: checked, clock: ManualClock(), ids: SeededIDGenerator(seed: 1)))
            let bound = try XCTUnwrap(kept.recording(schema: checked.schema, fixtures: checked.fixtures, now: ManualClock().now()))
            XCTAssertFalse(bound.shiftable)
            XCTAssertNil(kept.recording(schema: checked.schema, fixtures: checked.fixtures, now: Date(timeIntervalSince1970: 0)))
        }
    }

    /// A replay at another clock reading leaves what loading the rows at that reading leaves:
    /// the reading in every `now()` default and in the persona's `email_confirmed_at`, and the
    /// changes stamped with it. (A replay that kept the recorded reading fails the comparison.)
    func testAReplayAtAnotherReadingWritesThatReadingWhereTheLoadReadTheClock() throws {
        let spec = try spec(tokens: [["id": "11111111-1111-4111-8111-111111111111", "label": "t"]])
        func feed(_ b: MockSupabase) -> Guarded<[String]> {
            let feed = Guarded<[String]>([])
            b.database.addChangeListener { batch in
                let line = batch.map { c in
                    "\(c.event.rawValue) \(c.table.name) \(c.commitTime.timeIntervalSince1970) \(c.new.map { JSONValue.object($0).serialized() } ?? "")"
                }
                feed.withLock { $0.append(line.joined(separator: "; ")) }
            }
            return feed
        }
        let clockA = ManualClock(), clockB = ManualClock()
        let replayed = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clockA, ids: SeededIDGenerator(seed: 1)))
        let loaded = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clockB, ids: SeededIDGenerator(seed: 1)))
        let recording = try XCTUnwrap(replayed.seedRecording.withLock { $0 })
        XCTAssertTrue(recording.shiftable, "the load read the clock only for cells")
        XCTAssertEqual(recording.clockCells.count, 5) // two notes' created_at; alice's created_at, updated_at and email_confirmed_at
        let feedA = feed(replayed), feedB = feed(loaded)
        clockA.advance(by: 3_600)
        clockB.advance(by: 3_600)
        try replayed.reset()
        loaded.seedRecording.withLock { $0 = nil }
        try loaded.reset()
        let later = PGTime.micros(clockA.now())
        let notes = try replayed.database.rows("notes", order: [])
        XCTAssertEqual(notes.count, 2)
        for n in notes { XCTAssertEqual(n["created_at"]?.stringValue.flatMap { PGTime.parseTimestamp($0, assumeUTC: true) }, later, "\(n)") }
        let alice = try XCTUnwrap(try replayed.database.rows("auth.users").first)
        XCTAssertEqual(alice["email_confirmed_at"]?.stringValue.flatMap { PGTime.parseTimestamp($0, assumeUTC: true) }, later)
        XCTAssertEqual(try state(replayed, feedA), try state(loaded, feedB))
    }

    func testALoadThatDrawsAnIdIsNotKept() throws {
        let spec = try spec(tokens: [["label": "needs a generated id"]])
        let b = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 1)))
        XCTAssertNil(b.seedRecording.withLock { $0 })
        let before = try b.database.rows("tokens").first?["id"]
        try b.reset()
        XCTAssertNotEqual(try b.database.rows("tokens").first?["id"], before, "loaded again, with the generator's next id")
    }
}
