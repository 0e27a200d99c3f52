import Foundation

/// Undoes a case's changes: thrown out of `Database.atomically` after the case ran.
private struct Undo: Error {}

extension Database {
    /// Runs `body` as one statement of the database and undoes every change it made.
    func undoing<T>(_ body: () throws -> T) throws -> T {
        var result: Result<T, any Error>?
        do {
            _ = try atomically { () throws -> Int in
                result = Result { try body() }
                throw Undo()
            }
        } catch is Undo {}
        return try result!.get()
    }
}

/// The mock's database engine without PostgREST, as a target of RLS cases and of differential
/// cases: each becomes `Database` calls under the actor's role and claims, inside a statement
/// that is undone afterwards. Faster than the wire and independent of the REST layer, so a
/// disagreement can be placed in the engine or in PostgREST.
package final class EngineTarget: EngineTargeting, @unchecked Sendable {
    /// The database under test.
    package let database: Database
    /// `mock` (the differential reports' name of this side).
    package let name = "mock"

    /// A target for a database (usually `backend.database`, seeded with the app's fixtures).
    package init(database: Database) { self.database = database }

    func objects(_ table: String, _ rows: [[SQLValue]]) -> [[String: JSONValue]] {
        guard let t = database.schema.table(table) else { return [] }
        return rows.map { r in Dictionary(uniqueKeysWithValues: zip(t.columns, r).map { ($0.name, $1.json(as: $0.type)) }) }
    }

    /// Installs a matrix in the database.
    package func install(_ policies: PolicySet) throws { database.policies = policies }

    // MARK: RLS cases

    func filter(_ key: [String: JSONValue]) -> RowFilter {
        .and(key.sorted { $0.key < $1.key }.map { .eq($0.key, RLSCase.filterText($0.value)) })
    }

    /// Runs the case's setup and statement as database calls in one undone statement; errors
    /// get the mock's own PostgREST statuses (this target is the implementation under test).
    package func execute(_ rlsCase: RLSCase) throws -> RLSOutcome {
        try database.undoing {
            let a = AuthContext(role: rlsCase.actor.role, claims: rlsCase.actor.claims)
            do {
                for step in rlsCase.setup {
                    if let row = step.insertRow {
                        _ = try database.insert(into: step.table, rows: [row], as: .serviceRole)
                        continue
                    }
                    let n = try database.delete(step.table, where: filter(step.deleteKey ?? [:]), as: .serviceRole).count
                    guard n == 1 else { throw RLSTargetError("setup of '\(rlsCase.name)': deleting \(step.table) \(step.deleteKey ?? [:]) removed \(n) rows") }
                }
                switch rlsCase.operation {
                case .select(let key):
                    return RLSOutcome(status: 200, rows: try database.select(from: rlsCase.table, as: a, where: filter(key)).objects)
                case .insert(let row, let returning):
                    let written = try database.insert(into: rlsCase.table, rows: [row], as: a, returning: returning)
                    return RLSOutcome(status: 201, rows: returning ? objects(rlsCase.table, written) : nil)
                case .update(let key, let set):
                    let rows = try database.update(rlsCase.table, set: set, as: a, where: filter(key), returning: true)
                    return RLSOutcome(status: 200, rows: objects(rlsCase.table, rows))
                case .delete(let key):
                    return RLSOutcome(status: 200, rows: objects(rlsCase.table, try database.delete(from: rlsCase.table, as: a, where: filter(key))))
                }
            } catch let e as PostgresError {
                return RLSOutcome(
                    status: postgrestStatus(for: e.code, anonymous: a.role == "anon", message: e.message),
                    code: e.code, message: e.message, details: e.details, hint: e.hint)
            }
        }
    }

    // MARK: Differential cases

    static func differentialFilter(_ key: [String: JSONValue]) -> RowFilter? {
        key.isEmpty ? nil : .and(key.sorted { $0.key < $1.key }.map { .condition(column: $0.key, op: .eq, value: .text($0.value.plainText), negated: false) })
    }

    /// Runs the case inside a statement of the database that is undone afterwards.
    package func run(_ c: DifferentialCase) throws -> DifferentialOutcome {
        let db = database
        guard db.schema.table(c.table) != nil else { throw PostgresError("42P01", "relation \"\(c.table)\" does not exist") }
        let f = EngineTarget.differentialFilter(c.key)
        func select() throws -> DifferentialOutcome {
            let rs = try db.select(from: c.table, as: c.actor.auth, where: f)
            return .ok(count: rs.rows.count, rows: rs.objects.map(JSONValue.object))
        }
        func outcome(_ body: () throws -> DifferentialOutcome) throws -> DifferentialOutcome {
            do { return try body() } catch let e as PostgresError { return .failed(e) }
        }
        // A read changes nothing: it reads the latest snapshot, with no statement to undo.
        if case .select = c.operation { return try outcome(select) }
        return try db.undoing {
            try outcome {
                switch c.operation {
                case .select: return try select()
                case .insert(let row, let replace):
                    if replace, let f { _ = try db.delete(from: c.table, as: .serviceRole, where: f) }
                    let w = try db.insert(into: c.table, rows: [row], as: c.actor.auth, returning: c.returning)
                    return .ok(count: w.count, rows: c.returning ? objects(c.table, w).map(JSONValue.object) : nil)
                case .update(let set):
                    let w = try db.update(c.table, set: set, as: c.actor.auth, where: f, returning: c.returning)
                    return .ok(count: w.count, rows: c.returning ? objects(c.table, w).map(JSONValue.object) : nil)
                case .delete:
                    let w = try db.delete(from: c.table, as: c.actor.auth, where: f)
                    return .ok(count: w.count, rows: c.returning ? objects(c.table, w).map(JSONValue.object) : nil)
                }
            }
        }
    }
}
