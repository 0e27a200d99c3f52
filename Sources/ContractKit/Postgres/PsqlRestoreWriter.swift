import Foundation

/// `LiveDatabaseWriter` over a `psql` session to the backend's database (`--restore-database`).
package final class PsqlRestoreWriter: LiveDatabaseWriter, @unchecked Sendable {
    let session: PsqlSession

    /// A writer over a session (kept open for the run).
    package init(session: PsqlSession) { self.session = session }

    /// A writer connected by a libpq URL; `installation` finds psql (default: the first found).
    package convenience init(url: String, installation: PostgresInstallation? = nil) throws {
        let inst = try installation ?? PostgresInstallation.find()
        self.init(session: try PsqlSession(installation: inst, connectionString: url, name: DatabaseVerify.redacted(url)))
        _ = try session.query("select 1") // a wrong URL or password fails here, before the run
    }

    /// One transaction: triggers off (`set local session_replication_role = replica`, which
    /// also skips foreign-key checks, so the order of tables does not matter), every statement,
    /// commit; any error rolls it all back and is thrown.
    package func apply(_ restores: [LiveTableRestore]) throws {
        let statements = restores.flatMap(LiveRestoreSQL.statements)
        if statements.isEmpty { return }
        _ = try session.query("begin")
        do {
            _ = try session.query("set local session_replication_role = replica")
            for s in statements { _ = try session.query(s) }
            _ = try session.query("commit")
        } catch {
            _ = try? session.query("rollback")
            throw LiveBackendError("restoring through the database with triggers off: \(error)")
        }
    }
}
