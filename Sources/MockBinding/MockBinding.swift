// The one place that knows both the rule runners (ContractKit) and the mock (MockSupabase):
// the mock as a backend under test, apps as backends of the mock, its engine as a target.
// Code that needs both imports this module and sees both.
@_exported import ContractKit
import Foundation
@_exported import MockSupabase

/// The mock's keys and its personas' tokens sign what the wire senders send.
extension MockSupabase: WireCredentials {}

extension MockSupabase: BackendUnderTest {
    /// The mock's contracts, database, outbox and engine, as the rule runners reach them.
    public var served: ServedContract {
        let database = self.database
        return ServedContract(
            spec: configuration.spec,
            rows: { table, equal in try database.rows(table, where: equal.map { .eq($0.column, $0.value) }) },
            replaceRows: { table, equal, rows in
                try database.delete(table, where: .eq(equal.column, equal.value))
                try database.insert(table, rows)
            },
            lastOTP: { [self] in lastOTP(for: $0) }, lastEmailToken: { [self] in lastEmail(to: $0)?.tokenHash },
            undoing: { body in try database.undoing(body) }, installPolicies: { database.policies = $0 },
            engine: { EngineTarget(database: database) })
    }
}
