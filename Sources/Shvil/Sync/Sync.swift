import Foundation
import MockSupabase
import MockBinding

/// A change made on the device.
public enum SyncOperation: String, Codable, Sendable, CaseIterable {
    /// A new row (values hold the whole row).
    case insert
    /// Changed columns (values hold only them).
    case update
    /// A removed row.
    case delete
}

/// One queued change: what happened to which row, when (the device's clock) and where.
public struct SyncChange: Codable, Equatable, Sendable {
    /// The change's own id.
    public var id: String
    /// The table (`adventures`).
    public var table: String
    /// The row's primary key.
    public var rowID: String
    /// What happened.
    public var operation: SyncOperation
    /// Column values (insert: the row; update: the changed columns; delete: empty).
    public var values: [String: JSONValue]
    /// The edit time, written to the row's timestamp column.
    public var timestamp: Date
    /// The device that made it.
    public var deviceID: String

    public init(id: String, table: String, rowID: String, operation: SyncOperation, values: [String: JSONValue] = [:], timestamp: Date, deviceID: String) {
        self.id = id; self.table = table; self.rowID = rowID; self.operation = operation
        self.values = values; self.timestamp = timestamp; self.deviceID = deviceID
    }
}

/// How a queued change meets the server's copy of its row.
public enum SyncDecision: Equatable, Sendable, CustomStringConvertible {
    /// Send it.
    case apply
    /// Do not send it.
    case skip(SkipReason)

    /// Why a change is not sent.
    public enum SkipReason: String, Sendable {
        /// The server's row is newer.
        case serverNewer
        /// Same timestamp: the server wins (sync.json `tie`).
        case tie
        /// The row was deleted on the server (no tombstones: deletion wins over an update).
        case deletedOnServer
        /// A delete of a row the server no longer has.
        case alreadyDeleted
    }

    public var description: String {
        switch self {
        case .apply: return "apply"
        case .skip(let r): return "skip(\(r.rawValue))"
        }
    }
}

package enum SyncError: Error, CustomStringConvertible, Equatable, Sendable {
    /// A change to a row after its deletion (other than re-inserting it).
    case changeAfterDelete(table: String, rowID: String, operation: SyncOperation)
    /// A table sync.json does not list.
    case unsyncedTable(String)

    package var description: String {
        switch self {
        case .changeAfterDelete(let t, let id, let op): return "\(op.rawValue) of \(t) \(id) after its delete (sync.json coalesce)"
        case .unsyncedTable(let t): return "table '\(t)' is not synced (sync.json tables)"
        }
    }
}

/// Contracts/shvil/sync.json.
package struct SyncRules: Sendable, Equatable {
    /// What to do with a change, by operation and by whether the server has the row.
    package enum Resolution: String, Sendable, CaseIterable {
        /// Send it.
        case apply
        /// Discard it.
        case drop
        /// Last write wins by timestamp.
        case compare
    }
    /// Who wins equal timestamps.
    package enum Tie: String, Sendable, CaseIterable {
        /// The server's row stays.
        case server
        /// The queued change is sent.
        case local
    }

    package var tables: [String]
    /// The timestamp column (`updated_at`).
    package var timestampColumn: String
    /// Equal timestamps.
    package var tie: Tie
    /// `[operation][present]`.
    package var resolution: [SyncOperation: [Bool: Resolution]]
    /// `"first+second"` to the coalesced operation (nil: the pair cancels out).
    package var coalesce: [String: SyncOperation?]
    /// What the server does with a timestamp later than its clock (`clampToServerNow`).
    package var futurePolicy: String
    /// The triggers that apply it, one per synced table.
    package var clampTriggers: [String]

    /// Loads sync.json.
    package static func load(folder: URL = ContractsLocator.app(ShvilApp.name)) throws -> SyncRules {
        try SpecNode.decode(SyncRules.self, from: folder.appendingPathComponent("sync.json"), displayName: "Contracts/shvil/sync.json")
    }
}

/// "a, b or c" of an enum's spellings.
private func spoken<E: CaseIterable & RawRepresentable>(_: E.Type) -> String where E.RawValue == String {
    let all = E.allCases.map(\.rawValue)
    return all.count < 2 ? all.joined() : all.dropLast().joined(separator: ", ") + " or " + all.last!
}

/// A value of a sync.json enum; an unknown one is named with "expected …" and every spelling.
private struct Spelled<E: CaseIterable & RawRepresentable>: Decodable where E.RawValue == String {
    var value: E
    init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let v = E(rawValue: s) else { throw decoder.fail("expected \(spoken(E.self))") }
        value = v
    }
}

extension SyncRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case app, source, decisions, futureTimestamps, tie, resolution, coalesce, tables, timestampColumn
    }
    private struct Future: Decodable, ContractChecked {
        var policy: String, triggers: [String]
        func validate(_ decoder: Decoder) throws {
            guard policy == "clampToServerNow" else { throw decoder.fail("policy", "only 'clampToServerNow' is defined") }
        }
    }
    private struct Outcomes: Decodable {
        var absent: Spelled<Resolution>, present: Spelled<Resolution>
    }
    /// A coalesced operation, or `none` (the pair cancels out).
    private struct Coalesced: Decodable {
        var value: SyncOperation?
        init(from decoder: Decoder) throws {
            let s = try decoder.singleValueContainer().decode(String.self)
            if s == "none" { value = nil; return }
            guard let op = SyncOperation(rawValue: s) else { throw decoder.fail("expected an operation or none") }
            value = op
        }
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let future = try c.decode(Future.self, forKey: .futureTimestamps)
        (futurePolicy, clampTriggers) = (future.policy, future.triggers)
        tie = try c.decode(Spelled<Tie>.self, forKey: .tie).value
        resolution = [:]
        for (k, o) in try c.decode([String: SpecNode].self, forKey: .resolution).sorted(by: { $0.key < $1.key }) {
            guard let op = SyncOperation(rawValue: k) else { throw o.fail("unknown operation '\(k)'") }
            let r = try o.decode(Outcomes.self)
            resolution[op] = [false: r.absent.value, true: r.present.value]
        }
        for op in SyncOperation.allCases where resolution[op] == nil { throw c.fail(.resolution, "missing operation '\(op.rawValue)'") }
        coalesce = [:]
        for (k, n) in try c.decode([String: SpecNode].self, forKey: .coalesce).sorted(by: { $0.key < $1.key }) {
            let parts = k.split(separator: "+").map(String.init)
            guard parts.count == 2, parts.allSatisfy({ SyncOperation(rawValue: $0) != nil }) else { throw n.fail("key must be operation+operation") }
            coalesce[k] = .some(try n.decode(Coalesced.self).value)
        }
        tables = try c.decode([String].self, forKey: .tables)
        timestampColumn = try c.decode(String.self, forKey: .timestampColumn)
    }
}

/// Decides whether a queued change is sent, given the server's current row (nil: absent).
public protocol ConflictResolver {
    /// The decision for `change` against `serverRow`.
    func decide(_ change: SyncChange, serverRow: [String: JSONValue]?) -> SyncDecision
}

/// Last-write-wins by timestamp, with sync.json's resolution table and tie rule.
package struct LastWriteWins: ConflictResolver, Sendable {
    package var rules: SyncRules
    package init(rules: SyncRules) { self.rules = rules }

    /// Later timestamp wins; ties go to `rules.tie`; absent rows follow `rules.resolution`.
    package func decide(_ change: SyncChange, serverRow: [String: JSONValue]?) -> SyncDecision {
        let present = serverRow != nil
        switch rules.resolution[change.operation]?[present] ?? .drop {
        case .apply: return .apply
        case .drop: return .skip(change.operation == .delete ? .alreadyDeleted : .deletedOnServer)
        case .compare:
            guard let s = serverRow?[rules.timestampColumn]?.stringValue, let server = PGTime.parseTimestamp(s, assumeUTC: true) else { return .apply }
            let local = PGTime.micros(change.timestamp)
            if local > server { return .apply }
            if local < server { return .skip(.serverNewer) }
            return rules.tie == .local ? .apply : .skip(.tie)
        }
    }
}

/// The on-device queue of changes made offline, coalesced per row (Codable, to persist it).
package struct SyncQueue: Codable, Equatable, Sendable {
    /// Pending changes, oldest first.
    package private(set) var changes: [SyncChange] = []

    package init() {}

    /// Adds a change, merging it with a pending change to the same row as sync.json's
    /// `coalesce` table says.
    package mutating func enqueue(_ change: SyncChange, rules: SyncRules) throws {
        guard rules.tables.contains(change.table) else { throw SyncError.unsyncedTable(change.table) }
        guard let i = changes.firstIndex(where: { $0.table == change.table && $0.rowID == change.rowID }) else {
            changes.append(change)
            return
        }
        let old = changes[i]
        let key = "\(old.operation.rawValue)+\(change.operation.rawValue)"
        guard let result = rules.coalesce[key] else {
            throw SyncError.changeAfterDelete(table: change.table, rowID: change.rowID, operation: change.operation)
        }
        guard let op = result else { changes.remove(at: i); return }
        var merged = old
        merged.operation = op
        merged.values = op == .delete ? [:] : (old.operation == .delete ? change.values : old.values.merging(change.values) { _, new in new })
        merged.timestamp = max(old.timestamp, change.timestamp)
        merged.deviceID = change.deviceID
        changes[i] = merged
    }

    /// Removes the first `n` changes (sent or settled).
    mutating func removeFirst(_ n: Int) { changes.removeFirst(n) }
}

/// The server side of a flush: PostgREST over any transport, or a database in tests.
public protocol SyncServer {
    /// The row, or nil when absent (as the caller sees it under RLS).
    func fetch(table: String, id: String) throws -> [String: JSONValue]?
    func insert(table: String, values: [String: JSONValue]) throws
    /// UPDATE by primary key.
    func update(table: String, id: String, values: [String: JSONValue]) throws
    /// DELETE by primary key.
    func delete(table: String, id: String) throws
}

/// A transport failure during a flush: the flush stops and keeps the change.
package struct SyncTransportError: Error, CustomStringConvertible, Sendable {
    /// What failed.
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { "transport failure: \(reason)" }
}

/// What a flush did.
package struct SyncReport: Equatable, Sendable {
    /// Changes sent, by change id.
    package var applied: [String] = []
    /// Changes not sent, with the reason.
    package var skipped: [String: SyncDecision.SkipReason] = [:]
    /// Changes the server refused (removed from the queue, kept here with the error).
    package var rejected: [String: String] = [:]
    /// The transport failure that stopped the flush, if any (the change stays queued).
    package var stoppedBy: String?
}

/// Sends a queue to a server, one change at a time in order, deciding each with a resolver.
package struct SyncEngine {
    package var rules: SyncRules
    package var resolver: any ConflictResolver

    /// An engine with the shipped last-write-wins resolver.
    package init(rules: SyncRules, resolver: (any ConflictResolver)? = nil) {
        self.rules = rules
        self.resolver = resolver ?? LastWriteWins(rules: rules)
    }

    /// Flushes `queue` to `server`. Settled changes (sent, skipped, refused) leave the queue; a
    /// `SyncTransportError` stops the flush and leaves the rest queued, nothing lost.
    package func flush(_ queue: inout SyncQueue, to server: some SyncServer) -> SyncReport {
        var report = SyncReport()
        var settled = 0
        defer { queue.removeFirst(settled) }
        for change in queue.changes {
            do {
                let row = try server.fetch(table: change.table, id: change.rowID)
                switch resolver.decide(change, serverRow: row) {
                case .skip(let reason): report.skipped[change.id] = reason
                case .apply:
                    var values = change.values
                    values[rules.timestampColumn] = .string(PGTime.timestamptz(change.timestamp))
                    switch change.operation {
                    case .delete: try server.delete(table: change.table, id: change.rowID)
                    case .insert where row == nil:
                        values["id"] = .string(change.rowID)
                        try server.insert(table: change.table, values: values)
                    case .insert, .update:
                        values["id"] = nil
                        try server.update(table: change.table, id: change.rowID, values: values)
                    }
                    report.applied.append(change.id)
                }
                settled += 1
            } catch let e as SyncTransportError {
                report.stoppedBy = e.description
                return report
            } catch {
                report.rejected[change.id] = "\(error)"
                settled += 1
            }
        }
        return report
    }
}

/// The conformance suite of a conflict resolver: cases built from sync.json (every operation ×
/// absent / server older / equal / server newer); an empty result means it conforms.
public enum ShvilSyncConformance {
    /// Violations of sync.json by `resolver`.
    package static func violations(of resolver: some ConflictResolver, rules: SyncRules) -> [String] {
        let base = Date(timeIntervalSince1970: 1_767_225_600.5) // 2026-01-01T00:00:00.5Z: sub-second, so truncation shows
        let stamp = { (d: Date) -> JSONValue in .string(PGTime.timestamptz(d)) }
        var out: [String] = []
        for op in SyncOperation.allCases {
            let change = SyncChange(
                id: "c", table: rules.tables.first ?? "t", rowID: "r", operation: op, values: op == .delete ? [:] : ["title": "local"],
                timestamp: base, deviceID: "device-a")
            let cases: [(String, [String: JSONValue]?, Bool?)] = [
                ("row absent", nil, nil),
                ("server older by 1µs", ["id": "r", rules.timestampColumn: stamp(base.addingTimeInterval(-0.000001))], true),
                ("equal timestamps", ["id": "r", rules.timestampColumn: stamp(base)], rules.tie == .local),
                ("server newer by 1µs", ["id": "r", rules.timestampColumn: stamp(base.addingTimeInterval(0.000001))], false)
            ]
            for (label, row, compareResult) in cases {
                let res = rules.resolution[op]?[row != nil] ?? .drop
                let expectApply: Bool
                switch res {
                case .apply: expectApply = true
                case .drop: expectApply = false
                case .compare: expectApply = compareResult ?? true
                }
                let got = resolver.decide(change, serverRow: row)
                if (got == .apply) != expectApply {
                    out.append(
                        "\(op.rawValue), \(label): \(got), expected \(expectApply ? "apply" : "skip") (sync.json \(op.rawValue).\(row == nil ? "absent" : "present") = \(res.rawValue)\(label == "equal timestamps" ? ", tie = \(rules.tie.rawValue)" : ""))"
                    )
                }
            }
        }
        return out
    }
}
