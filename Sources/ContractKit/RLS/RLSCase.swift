import Foundation

/// Who a case acts as: a fixture persona, the anonymous role or the service role.
package struct RLSActor: Sendable, Hashable, CustomStringConvertible {
    /// What kind of caller this is.
    package enum Kind: Sendable, Hashable {
        /// The anon key, no user (`auth.uid()` is NULL).
        case anon
        /// The service-role key (bypasses RLS).
        case serviceRole
        /// A signed-in fixture persona.
        case persona(id: String, email: String)
    }

    /// `anon`, `service_role` or the persona's name (`dave`).
    package var name: String
    package var kind: Kind
    /// The persona's label from fixtures.json ("admin", "pending"); empty for the roles.
    package var label: String

    /// The anonymous caller.
    package static let anon = RLSActor(name: "anon", kind: .anon, label: "")
    package static let serviceRole = RLSActor(name: "service_role", kind: .serviceRole, label: "")
    package static func persona(_ p: Persona) -> RLSActor {
        RLSActor(name: p.name, kind: .persona(id: p.id, email: p.email), label: p.label)
    }

    /// PostgreSQL's role for the request: `anon`, `authenticated` or `service_role`.
    package var role: String {
        switch kind {
        case .anon: return "anon"
        case .serviceRole: return "service_role"
        case .persona: return "authenticated"
        }
    }

    /// The user id (`auth.uid()`), nil for the roles.
    package var userID: String? {
        if case .persona(let id, _) = kind { return id }
        return nil
    }

    /// The JWT claims a policy can read (`request.jwt.claims`), as GoTrue issues them for this
    /// caller: `role`, and for a persona `sub`, `email`, `aud`, `aal`, `is_anonymous`.
    /// Time- and session-dependent claims (`iat`, `exp`, `session_id`) are left out: a policy that
    /// reads them cannot be expanded into fixed cases.
    package var claims: [String: JSONValue] {
        switch kind {
        case .anon: return ["role": "anon"]
        case .serviceRole: return ["role": "service_role"]
        case .persona(let id, let email):
            return [
                "role": "authenticated", "sub": .string(id), "email": .string(email),
                "aud": "authenticated", "aal": "aal1", "is_anonymous": false
            ]
        }
    }

    /// `dave`.
    package var description: String { name }
}

/// The statement a case runs, in a form every target can render (PostgREST request, SQL). An
/// empty key selects every row of the table.
package enum RLSOperation: Sendable, Equatable {
    /// Read the rows `key` identifies.
    case select(key: [String: JSONValue])
    /// Insert one row (only the columns given; the rest take their defaults). With
    /// `returning`, PostgREST is asked for `return=representation` (RETURNING *).
    case insert(row: [String: JSONValue], returning: Bool)
    /// Update the rows `key` identifies with `set`; with `returning`, RETURNING the changed rows
    /// (which makes PostgreSQL apply the SELECT policies to them).
    case update(key: [String: JSONValue], set: [String: JSONValue], returning: Bool = true)
    /// Delete the rows `key` identifies; with `returning`, RETURNING the deleted rows.
    case delete(key: [String: JSONValue], returning: Bool = true)

    package var command: PolicyCommand {
        switch self {
        case .select: return .select
        case .insert: return .insert
        case .update: return .update
        case .delete: return .delete
        }
    }

    /// The key filter (empty for an insert: it targets no existing row).
    package var key: [String: JSONValue] {
        switch self {
        case .select(let k), .update(let k, _, _), .delete(let k, _): return k
        case .insert: return [:]
        }
    }

    /// Whether the statement answers with rows (a read, or a write with RETURNING).
    package var returnsRows: Bool {
        switch self {
        case .select: return true
        case .insert(_, let r), .update(_, _, let r), .delete(_, let r): return r
        }
    }
}

/// A statement run as the service role before the case, in the same isolated state: deleting
/// the actor's existing row of a one-row-per-user table to make room for an allowed INSERT, or
/// inserting a witness row the fixtures lack.
package struct RLSSetupStep: Sendable, Equatable {
    package var table: String
    /// For a delete: the key values of the row (exactly one row must go).
    package var deleteKey: [String: JSONValue]?
    /// For an insert: the row (201 expected; a refusal by the app's own code makes the case
    /// inconclusive).
    package var insertRow: [String: JSONValue]?

    /// Deletes the row with these key values.
    package static func delete(_ table: String, key: [String: JSONValue]) -> RLSSetupStep {
        RLSSetupStep(table: table, deleteKey: key, insertRow: nil)
    }

    package static func insert(_ table: String, row: [String: JSONValue]) -> RLSSetupStep {
        RLSSetupStep(table: table, deleteKey: nil, insertRow: row)
    }

    package var operation: RLSOperation {
        if let row = insertRow { return .insert(row: row, returning: false) }
        return .delete(key: deleteKey ?? [:])
    }
}

/// What PostgREST answers for a case, as the oracle computes it.
package enum RLSExpected: Sendable, Equatable {
    /// A success with a JSON array body: exactly these rows, each matched on the given columns
    /// (key columns and any column the case wrote).
    case rows(status: Int, rows: [[String: JSONValue]])
    /// A success without a body (`return=minimal`).
    case empty(status: Int)
    /// An error body `{code, message, details, hint}`; `message` nil means any message
    /// (constraint errors whose wording depends on the constraint met first).
    case error(status: Int, code: String, message: String?)

    package var status: Int {
        switch self {
        case .rows(let s, _), .empty(let s), .error(let s, _, _): return s
        }
    }

    /// Whether the statement is expected to reach (read, write) a row.
    package var allowed: Bool {
        switch self {
        case .rows(_, let rows): return !rows.isEmpty
        case .empty: return true
        case .error: return false
        }
    }
}

/// What a target observed: the wire outcome of one case.
package struct RLSOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status PostgREST gives (a SQL target maps SQLSTATE with PostgREST's table,
    /// `PostgRESTStatusTable`).
    package var status: Int
    /// The rows returned, when the body is a JSON array (SELECT, RETURNING); nil otherwise.
    package var rows: [[String: JSONValue]]?
    /// The SQLSTATE or PGRST code of an error body.
    package var code: String?
    package var message: String?
    package var details: String?
    package var hint: String?
    /// Rows read, written or removed, where the target knows it (SQL and engine targets; the
    /// wire does not tell it for `return=minimal`).
    package var count: Int?

    /// An outcome from its parts.
    package init(
        status: Int, rows: [[String: JSONValue]]? = nil, count: Int? = nil, code: String? = nil, message: String? = nil,
        details: String? = nil, hint: String? = nil
    ) {
        self.status = status
        self.rows = rows
        self.count = count ?? rows?.count
        self.code = code
        self.message = message
        self.details = details
        self.hint = hint
    }

    /// The outcome of a PostgREST response: a JSON array body gives rows, an object with a `code`
    /// gives an error.
    package init(response: HTTPResponse) {
        self.init(status: response.status)
        guard !response.body.isEmpty, let json = response.jsonBody else { return }
        switch json {
        case .array(let items): rows = items.map { $0.objectValue ?? [:] }
        case .object(let o):
            code = o["code"]?.stringValue
            message = o["message"]?.stringValue
            details = o["details"]?.stringValue
            hint = o["hint"]?.stringValue
        default: break
        }
    }

    /// `403 42501 new row violates …` / `200, 1 row`.
    package var description: String {
        if let code { return "\(status) \(code)" + (message.map { ": \($0)" } ?? "") }
        if let rows { return "\(status), \(rows.count) row\(rows.count == 1 ? "" : "s")" }
        return "\(status)"
    }
}

/// One concrete RLS case: an actor runs one statement on one table (after service-role setup
/// steps), from the fixture state, with its effects undone afterwards. A case of an RLS matrix
/// cell carries the outcome PostgREST gives when the database enforces the cell (computed by
/// `RLSOracle`, not by the mock); a differential case carries none and is judged by comparing
/// two targets (`RLSDifferential`).
package struct RLSCase: Sendable, Equatable {
    /// The app (`naarscars`).
    package var app: String
    package var table: String
    package var actor: RLSActor
    /// How the actor relates to the row (`claimer`, `owner`), or the variant (`another user's row`).
    package var role: String?
    /// The statement.
    package var operation: RLSOperation
    /// Service-role statements run first (in the same isolated state).
    package var setup: [RLSSetupStep]
    /// The outcome the matrix requires; nil for a differential case.
    package var expected: RLSExpected?
    /// A short description of the row and the change (`row id=…, PATCH {"notes":…}`).
    package var detail: String
    /// Which cells' expressions the expectation depends on (its own and, for UPDATE, DELETE and
    /// INSERT … RETURNING, the table's SELECT cell), so a flipped cell re-runs only these.
    package var dependsOn: Set<PolicyCommand>

    /// The statement's command (the cell's).
    package var command: PolicyCommand { operation.command }

    /// `rides · UPDATE · as dave (claimer)`.
    package var name: String {
        let who = role ?? (actor.label.isEmpty ? nil : actor.label)
        return "\(table) · \(command.rawValue) · as \(actor.name)" + (who.map { " (\($0))" } ?? "")
    }

    /// Compares an observed outcome with the expectation; nil when they agree, else the reason
    /// (`expected allowed, got 0 rows`).
    package func mismatch(_ outcome: RLSOutcome) -> String? {
        guard let expected else { return nil }
        switch expected {
        case .rows(let status, let rows):
            if let code = outcome.code, outcome.status >= 400 {
                return (rows.isEmpty ? "expected 0 rows" : "expected allowed") + ", got \(outcome.status) \(code)" + (outcome.message.map { ": \($0)" } ?? "")
            }
            guard let got = outcome.rows else {
                return "expected \(status) with \(rows.count) row\(rows.count == 1 ? "" : "s"), got \(outcome.status) without rows"
            }
            if got.count != rows.count {
                if rows.isEmpty { return "expected denied (0 rows), got \(got.count) row\(got.count == 1 ? "" : "s")" }
                return "expected allowed, got \(got.count) row\(got.count == 1 ? "" : "s")"
            }
            for (e, g) in zip(rows, got) {
                for (column, value) in e.sorted(by: { $0.key < $1.key }) {
                    let type = columnTypes[column]
                    guard let actual = g[column] else { return "returned row lacks column \(column)" }
                    if !RLSOracle.sameValue(value, actual, type: type) {
                        return "returned row has \(column) = \(actual.serialized()), expected \(value.serialized())"
                    }
                }
            }
            if outcome.status != status { return "expected status \(status), got \(outcome.status)" }
            return nil
        case .empty(let status):
            if outcome.status == status && outcome.code == nil { return nil }
            return "expected allowed (\(status)), got \(outcome)"
        case .error(let status, let code, let message):
            if outcome.status == status && outcome.code == code && (message == nil || outcome.message == message) { return nil }
            let want = "\(status) \(code)" + (message.map { " (\($0))" } ?? "")
            if outcome.code == nil {
                if let n = outcome.rows?.count { return "expected denied with \(want), got \(outcome.status) with \(n) row\(n == 1 ? "" : "s")" }
                return "expected denied with \(want), got \(outcome.status)"
            }
            return "expected \(want), got \(outcome)"
        }
    }

    /// Column types used to compare returned values (filled by the expansion).
    package var columnTypes: [String: SQLType] = [:]
    /// Whether the app's own code (triggers, constraints) runs for this statement: an INSERT
    /// that gets past the grant, an UPDATE or DELETE that reaches its row. A refusal by that
    /// code (an error other than RLS's) makes the case inconclusive, not failed: the app may
    /// guard the same row for its own reasons.
    package var appCodeRuns: Bool = false
}

extension RLSCase {
    /// The PostgREST request for an operation.
    package static func request(for op: RLSOperation, table: String) -> (
        method: String, path: String, query: [(name: String, value: String)], headers: [(String, String)], body: JSONValue?
    ) {
        // A read, or a write with RETURNING, asks for every column; filters are the key's.
        let select: [(name: String, value: String)] = op.returnsRows ? [("select", "*")] : []
        let query = select + op.key.sorted { $0.key < $1.key }.map { (name: $0.key, value: "eq." + filterText($0.value)) }
        let json = ("Content-Type", "application/json"), prefer = ("Prefer", op.returnsRows ? "return=representation" : "return=minimal")
        let path = "/rest/v1/\(table)"
        switch op {
        case .select: return ("GET", path, query, [], nil)
        case .insert(let row, _): return ("POST", path, query, [json, prefer], .object(row))
        case .update(_, let set, _): return ("PATCH", path, query, [json, prefer], .object(set))
        case .delete: return ("DELETE", path, query, [prefer], nil)
        }
    }

    /// A JSON scalar as the text of a PostgREST filter value (and as PostgreSQL prints it): a
    /// string's own text, anything else its compact JSON.
    package static func filterText(_ v: JSONValue) -> String { v.stringValue ?? v.serialized() }
}

extension RLSActor {
    /// A signed-in user who is no persona of the fixtures (a function check's `{"id", "email"}`).
    package static func user(id: String, email: String?) -> RLSActor {
        RLSActor(name: id, kind: .persona(id: id, email: email ?? ""), label: "")
    }

    /// The role and the plain claims function checks act with (`AuthContext.user`: `sub`,
    /// `role`, `aud`, `email` when known), where `claims` is the full set GoTrue issues that RLS
    /// cases (the matrix's and the differential's) run with.
    package var auth: AuthContext {
        switch kind {
        case .anon: return .anon
        case .serviceRole: return .serviceRole
        case .persona(let id, let email): return .user(id, email: email.isEmpty ? nil : email)
        }
    }

    /// The actor on the wire: its credentials are attached by the sender.
    package var wire: WireActor {
        switch kind {
        case .anon: return .anon
        case .serviceRole: return .serviceRole
        case .persona: return .persona(name)
        }
    }
}

extension RLSCase {
    /// The PostgREST request of an operation as an actor (`request(for:table:)`), as every RLS
    /// target over HTTP sends it.
    package static func wireRequest(for op: RLSOperation, table: String, as actor: WireActor) -> WireRequest {
        let r = request(for: op, table: table)
        return WireRequest(
            method: r.method, path: r.path, query: .items(r.query), headers: HTTPHeaders(r.headers),
            body: r.body.map { $0.data() } ?? Data(), actor: actor)
    }
}
