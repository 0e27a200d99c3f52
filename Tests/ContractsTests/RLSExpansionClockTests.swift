import XCTest
import AppRegistry
import MockBinding

/// `verify`'s `postgres` kind runs the matrix expansion `verify --kind rls` made at its fixed
/// clock when `RLSExpansionClock` finds no decision of it reading the clock. These tests hold
/// that sharing to the expansion at the real clock: the same cells, cases, actors, statements and
/// expected outcomes, differing only in the clock's own values; and they show the comparison and
/// the clock test failing where they must.
final class RLSExpansionClockTests: GateTestCase {
    func testEverySharedExpansionDecidesAsTheRealClocksExpansion() throws {
        let statuses = try ContractsLocator.postgrestStatuses()
        var shared: [String] = []
        for app in allApps where RLSSuite.hasMatrix(app.name) {
            let spec = try app.spec()
            guard !RLSExpansionClock.readsClock(spec) else { continue }
            shared.append(app.name)
            let fixed = try RLSSuite.sharedExpansion(app)
            // Made from what the rls kind expanded before it was shared: the backend's spec at
            // the backend's clock.
            let (backend, now) = try RLSSuite.makeBackend(app)
            let served = backend.served.spec
            XCTAssertEqual(fixed.now, now, app.name)
            XCTAssertEqual(fixed.statuses, statuses, app.name)
            XCTAssertTrue(served.policies == spec.policies && served.schema == spec.schema && served.fixtures == spec.fixtures, app.name)
            let real = RLSExpansion.current(spec, statuses: statuses)
            XCTAssertNotEqual(real.now, fixed.now)
            XCTAssertNil(ClockValues.difference(fixed, real), app.name)
        }
        XCTAssertFalse(shared.isEmpty, "no app shares its expansion: the clock test flags every app")
        print("RLS expansions shared by verify's rls and postgres kinds: \(shared.joined(separator: ", "))")
    }

    /// TeleportMe's expansions the two tests below compare, computed once per process (the
    /// gate's warm-up, `GateWarmUp`, makes them while earlier suites run).
    struct TeleportMeExpansions: Sendable {
        /// The backend's fixed clock.
        var now: Date
        /// The shared expansion, made at `now`.
        var fixed: RLSExpansion
        /// The app's spec expanded 300 days after `now`.
        var later: RLSExpansion
        /// The spec with one table's SELECT reading the clock, the table's name and index.
        var afterJune: AppSpec, table: String, tableIndex: Int
        /// `afterJune` expanded at `now` and 300 days after.
        var afterJuneNow: RLSExpansion, afterJuneLater: RLSExpansion
    }

    static let teleportMe = Result { () throws -> TeleportMeExpansions in
        guard let app = allApps.first(where: { $0.name == "teleportme" }) else { throw TestSetupFailure(description: "no teleportme app") }
        let (_, now) = try RLSSuite.makeBackend(app)
        let later = now.addingTimeInterval(86_400 * 300)
        let fixed = try RLSSuite.sharedExpansion(app)
        let base = try app.spec()
        guard let table = base.policies.tables.first(where: { $0.cell(.select).using != nil && base.schema.table($0.table)?.isView == false }),
            let ti = base.policies.tables.firstIndex(where: { $0.table == table.table })
        else { throw TestSetupFailure(description: "teleportme has no table with a SELECT policy") }
        var afterJune = base
        afterJune.policies.tables[ti].cells[.select]?.using = .compare(.gt, .now, .value("2026-06-01T00:00:00+00:00"))
        let statuses = try ContractsLocator.postgrestStatuses()
        return TeleportMeExpansions(
            now: now, fixed: fixed, later: RLSExpansion(spec: base, now: later, statuses: fixed.statuses),
            afterJune: afterJune, table: table.table, tableIndex: ti,
            afterJuneNow: RLSExpansion(spec: afterJune, now: now, statuses: statuses),
            afterJuneLater: RLSExpansion(spec: afterJune, now: later, statuses: statuses))
    }

    /// Mutants of the shared expansion: a case dropped, an expected outcome changed, a statement's
    /// value changed. The comparison names each.
    func testAnExpansionThatDiffersIsCaught() throws {
        let made = try Self.teleportMe.get()
        let (fixed, real) = (made.fixed, made.later)
        XCTAssertNil(ClockValues.difference(fixed, real))

        var dropped = fixed
        dropped.cases.removeLast()
        XCTAssertNotNil(ClockValues.difference(dropped, real), "a lost case")

        var changed = fixed
        let i = try XCTUnwrap(changed.cases.indices.first { changed.cases[$0].expected?.allowed == true })
        changed.cases[i].expected = .error(status: 403, code: "42501", message: nil)
        XCTAssertNotNil(ClockValues.difference(changed, real), "a changed expected outcome")

        var moved = fixed
        let j = try XCTUnwrap(
            moved.cases.indices.first {
                if case .select = moved.cases[$0].operation { return true }; return false
            })
        moved.cases[j].actor = .anon
        XCTAssertNotNil(ClockValues.difference(moved, real), "a case run as another actor")
    }

    /// A policy with `now`, or one reading a column the clock fills, makes the expansion read the
    /// clock; and there, the two clocks' expansions really decide differently, so sharing would
    /// be wrong.
    func testAPolicyReadingTheClockIsNotShared() throws {
        let app: any AppModule.Type = try XCTUnwrap(allApps.first { $0.name == "teleportme" })
        let base = try app.spec()
        XCTAssertFalse(RLSExpansionClock.readsClock(base))
        let made = try Self.teleportMe.get()
        let ti = made.tableIndex

        XCTAssertTrue(RLSExpansionClock.readsClock(made.afterJune), "a now operand")
        XCTAssertNotNil(ClockValues.difference(made.afterJuneNow, made.afterJuneLater), "the clock decides \(made.table)'s SELECT")

        let t = try XCTUnwrap(base.schema.table(made.table))
        if let stamped = t.columns.first(where: { $0.defaultValue == .now }) {
            var readsStamp = base
            readsStamp.policies.tables[ti].cells[.select]?.using = .isNull(.column(stamped.name), negated: true)
            XCTAssertTrue(RLSExpansionClock.readsClock(readsStamp), "a policy reading \(stamped.name), which now() fills")
        }
        var viaDefinition = base
        viaDefinition.policies.definitions["after_june"] = .compare(.gt, .now, .value("2026-06-01T00:00:00+00:00"))
        viaDefinition.policies.tables[ti].cells[.select]?.using = .ref("after_june")
        XCTAssertTrue(RLSExpansionClock.readsClock(viaDefinition), "a now operand in a named definition")
    }
}

/// Compares two expansions of one app made at two clocks, value by value: equal, or the first
/// expansion's clock value (`now()` or `CURRENT_DATE` as it writes them) where the second has its
/// own. (A fixture's value equal to a clock value stays compared as itself.)
enum ClockValues {
    /// The first difference, nil when the two decide alike.
    static func difference(_ a: RLSExpansion, _ b: RLSExpansion) -> String? {
        if a.cells != b.cells { return "cells differ" }
        if a.cases.count != b.cases.count { return "\(a.cases.count) cases against \(b.cases.count)" }
        let clocks = Clocks(a.now, b.now)
        for (x, y) in zip(a.cases, b.cases) where !clocks.same(x, y) { return "\(x.name): \(x) against \(y)" }
        if a.notes.count != b.notes.count || zip(a.notes, b.notes).contains(where: { !clocks.same($0, $1) }) { return "notes differ" }
        return nil
    }

    /// The clock values of two expansions.
    struct Clocks {
        let pairs: [(String, String)]

        init(_ a: Date, _ b: Date) {
            let x = PGTime.timestamptz(a), y = PGTime.timestamptz(b)
            pairs = [(x, y), (String(x.prefix(10)), String(y.prefix(10)))]
        }

        func same(_ x: JSONValue, _ y: JSONValue) -> Bool {
            x == y || pairs.contains { x == .string($0.0) && y == .string($0.1) }
        }

        func same(_ x: [String: JSONValue], _ y: [String: JSONValue]) -> Bool {
            x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
        }

        func same(_ x: [String: JSONValue]?, _ y: [String: JSONValue]?) -> Bool {
            switch (x, y) {
            case (nil, nil): return true
            case (let x?, let y?): return same(x, y)
            default: return false
            }
        }

        /// Texts equal, or equal once the first's clock values are written as the second's.
        func same(_ x: String, _ y: String) -> Bool {
            x == y || pairs.reduce(x) { $0.replacingOccurrences(of: $1.0, with: $1.1) } == y
        }

        func same(_ x: RLSOperation, _ y: RLSOperation) -> Bool {
            switch (x, y) {
            case (.select(let a), .select(let b)): return same(a, b)
            case (.insert(let a, let r), .insert(let b, let s)): return r == s && same(a, b)
            case (.update(let a, let c, let r), .update(let b, let d, let s)): return r == s && same(a, b) && same(c, d)
            case (.delete(let a, let r), .delete(let b, let s)): return r == s && same(a, b)
            default: return false
            }
        }

        func same(_ x: RLSExpected?, _ y: RLSExpected?) -> Bool {
            if case .rows(let s, let a)? = x, case .rows(let t, let b)? = y {
                return s == t && a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
            }
            return x == y
        }

        func same(_ x: RLSCase, _ y: RLSCase) -> Bool {
            guard x.setup.count == y.setup.count,
                zip(x.setup, y.setup).allSatisfy({ $0.table == $1.table && same($0.deleteKey, $1.deleteKey) && same($0.insertRow, $1.insertRow) })
            else { return false }
            var (p, q) = (x, y)
            (p.setup, q.setup) = ([], [])
            (p.operation, q.operation) = (.select(key: [:]), .select(key: [:]))
            (p.expected, q.expected) = (nil, nil)
            (p.detail, q.detail) = ("", "")
            return p == q && same(x.operation, y.operation) && same(x.expected, y.expected) && same(x.detail, y.detail)
        }
    }
}
