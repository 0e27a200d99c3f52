import Foundation
import XCTest
@testable import MockSupabase

/// Reads outside a statement run on the last committed snapshot, so a writer holding the database
/// never delays a reader (PostgreSQL's READ COMMITTED: a statement sees what was committed when
/// it began), while reads inside a statement (triggers) see the statement's own changes.
///
/// No timing is asserted: a reader that waited for the writer would deadlock the handshake below
/// and fail at the semaphore's bound instead.
final class SnapshotReadTests: XCTestCase {
    let schemaJSON = #"""
        {"tables": [
          {"name": "notes", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "body", "type": "text"}]},
          {"name": "audit", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "seen", "type": "integer"}]}]}
        """#

    func makeDatabase() throws -> Database {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(schemaJSON), file: "inline"))
        let db = Database(schema: schema, policies: .empty, clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
        try db.seed("notes", rows: [["id": 1, "body": "committed"]])
        return db
    }

    /// A reader on another thread is answered while a statement holds the database, and sees the
    /// state committed before that statement, not its uncommitted row.
    func testAReaderIsAnsweredWhileAWriterHoldsTheDatabase() throws {
        let db = try makeDatabase()
        let writerInside = DispatchSemaphore(value: 0), readerDone = DispatchSemaphore(value: 0)
        let seen = Guarded<[Int64]>([])
        let writer = Thread {
            _ = try? db.atomically {
                try db.insert("notes", [["id": 2, "body": "uncommitted"]])
                writerInside.signal()
                // Holds the database until the reader has its answer (bounded: a reader that
                // waits for this lock times out here and the test fails below).
                _ = readerDone.wait(timeout: .now() + 20)
            }
        }
        writer.start()
        XCTAssertEqual(writerInside.wait(timeout: .now() + 20), .success)
        let reader = Thread {
            let ids = (try? db.rows("notes").compactMap { $0["id"]?.intValue }) ?? []
            seen.withLock { $0 = ids }
            readerDone.signal()
        }
        reader.start()
        // The writer gives up waiting after 20 s; a reader blocked behind it would finish only then.
        let deadline = Date().addingTimeInterval(15)
        while seen.withLock({ $0.isEmpty }) && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(seen.withLock { $0 }, [1], "the reader must be answered during the write, from the committed state")
        // After the commit every reader sees the new row.
        while db.count("notes") < 2 && Date() < deadline { usleep(1_000) }
        XCTAssertEqual(try db.rows("notes").compactMap { $0["id"]?.intValue }.sorted(), [1, 2])
    }

    /// A trigger reading the table it fires on sees the row its statement just wrote (the live
    /// state, not the snapshot published before the statement).
    func testAReadInsideAStatementSeesItsOwnChanges() throws {
        let db = try makeDatabase()
        db.registerTrigger("count_notes", on: "notes", timing: .after, events: [.insert]) { ctx in
            let n = try ctx.database.rows("notes").count
            try ctx.database.insert("audit", [["id": .int(Int64(n)), "seen": .int(Int64(n))]])
        }
        try db.insert("notes", [["id": 2, "body": "second"]])
        XCTAssertEqual(try db.rows("audit").compactMap { $0["seen"]?.intValue }, [2], "the trigger saw both notes")
    }

    /// `reading` gives one view for several reads: rows committed after it began are not seen
    /// through it, while the database itself sees them at once.
    func testReadingKeepsOneViewAcrossReads() throws {
        let db = try makeDatabase()
        try db.reading { view in
            XCTAssertTrue(view.isSnapshot)
            XCTAssertEqual(try view.rows("notes").count, 1)
            try db.insert("notes", [["id": 2, "body": "later"]])
            XCTAssertEqual(try view.rows("notes").count, 1, "the view keeps the state it began with")
            XCTAssertEqual(try db.rows("notes").count, 2, "a fresh read sees the commit")
        }
    }

    /// A rolled-back statement publishes nothing: readers keep seeing the committed rows.
    func testARolledBackStatementIsNeverSeen() throws {
        let db = try makeDatabase()
        XCTAssertThrowsError(
            try db.atomically {
                try db.insert("notes", [["id": 2, "body": "doomed"]])
                try db.insert("notes", [["id": 1, "body": "duplicate key"]])
            })
        XCTAssertEqual(try db.rows("notes").compactMap { $0["id"]?.intValue }, [1])
    }

    /// An unordered page stops scanning once full, and still returns PostgreSQL's rows: the first
    /// `limit` visible rows after `offset` in table order.
    func testAnUnorderedPageIsTheFirstVisibleRows() throws {
        let db = try makeDatabase()
        let more: [[String: JSONValue]] = (2...9).map { n in ["id": .int(Int64(n)), "body": .string(n % 2 == 0 ? "even" : "odd")] }
        try db.insert("notes", more)
        let page = try db.select(from: "notes", as: .serviceRole, where: .eq("body", "even"), limit: 2, offset: 1)
        XCTAssertEqual(page.objects.compactMap { $0["id"]?.intValue }, [4, 6])
        XCTAssertEqual(try db.select(from: "notes", as: .serviceRole, limit: 0).rows.count, 0)
        let counted = try db.select(from: "notes", as: .serviceRole, where: .eq("body", "even"), limit: 1, count: true)
        XCTAssertEqual(counted.total, 4, "a counted read still counts every visible row")
    }
}
