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

/// The mock's database engine without PostgREST, as a target of RLS cases (the matrix's and
/// the differential's): each becomes `Database` calls under the actor's role and claims, inside a statement
/// that is undone afterwards. Faster than the wire and independent of the REST layer, so a
/// disagreement can be placed in the engine or in PostgREST.
package final class EngineTarget: EngineTargeting, @unchecked Sendable {
    /// The database under test.
    package let database: Database

    /// A target for a database (usually `backend.database`, seeded with the app's fixtures).
    package init(database: Database) { self.database = database }

    func objects(_ table: String, _ rows: [[SQLValue]]) -> [[String: JSONValue]] {
        guard let t = database.schema.table(table) else { return [] }
        return rows.map { r in Dictionary(uniqueKeysWithValues: zip(t.columns, r).map { ($0.name, $1.json(as: $0.type)) }) }
    }

    package func install(_ policies: PolicySet) throws { database.policies = policies }

    func filter(_ key: [String: JSONValue]) -> RowFilter? {
        key.isEmpty ? nil : .and(key.sorted { $0.key < $1.key }.map { .eq($0.key, RLSCase.filterText($0.value)) })
    }

    /// Runs the case's setup and statement as database calls in one undone statement (a plain
    /// read changes nothing and runs on the latest snapshot, with nothing to undo); errors get
    /// the mock's own PostgREST statuses (this target is the implementation under test).
    package func execute(_ rlsCase: RLSCase) throws -> RLSOutcome {
        if case .select = rlsCase.operation, rlsCase.setup.isEmpty { return try run(rlsCase) }
        return try database.undoing { try run(rlsCase) }
    }

    private func run(_ rlsCase: RLSCase) throws -> RLSOutcome {
        let a = AuthContext(role: rlsCase.actor.role, claims: rlsCase.actor.claims)
        let table = rlsCase.table
        func written(_ status: Int, _ rows: [[SQLValue]], _ returning: Bool) -> RLSOutcome {
            RLSOutcome(status: status, rows: returning ? objects(table, rows) : nil, count: rows.count)
        }
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
                return RLSOutcome(status: 200, rows: try database.select(from: table, as: a, where: filter(key)).objects)
            case .insert(let row, let returning):
                return written(201, try database.insert(into: table, rows: [row], as: a, returning: returning), returning)
            case .update(let key, let set, let returning):
                return written(200, try database.update(table, set: set, as: a, where: filter(key), returning: returning), returning)
            case .delete(let key, let returning):
                return written(200, try database.delete(from: table, as: a, where: filter(key)), returning)
            }
        } catch let e as PostgresError {
            return RLSOutcome(
                status: postgrestStatus(for: e.code, anonymous: a.role == "anon", message: e.message),
                code: e.code, message: e.message, details: e.details, hint: e.hint)
        }
    }
}
