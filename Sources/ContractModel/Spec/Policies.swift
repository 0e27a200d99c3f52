import Foundation

/// A SQL command a policy governs.
package enum PolicyCommand: String, Sendable, CaseIterable, Codable {
    case select = "SELECT", insert = "INSERT", update = "UPDATE", delete = "DELETE"

    /// The key used in policies.json.
    package var key: String { rawValue.lowercased() }
}

/// One cell of an RLS matrix: the document's words and the machine-readable rule.
package struct PolicyCell: Sendable, Equatable {
    /// The document's own words for the cell ("Own only", "Participants only", "-").
    package var doc: String
    /// Which rows are visible / targetable (SELECT, UPDATE, DELETE). Nil for INSERT.
    package var using: Expr?
    /// What a new row must satisfy (INSERT, UPDATE). For UPDATE, absent means `using`.
    package var check: Expr?
    /// Why the cell says what it says where the document is open.
    package var decision: String?
    /// Personas the case expansion should exercise as "allowed" witnesses (optional hints).
    package var notes: [String]

    /// The effective USING expression (nobody when absent).
    package var effectiveUsing: Expr { using ?? .constant(false) }
    /// The effective WITH CHECK expression (`using` for UPDATE when absent, nobody otherwise).
    package func effectiveCheck(for command: PolicyCommand) -> Expr {
        if let check { return check }
        if command == .update, let using { return using }
        return .constant(false)
    }
}

/// The RLS matrix of one table.
package struct TablePolicies: Sendable, Equatable {
    package var table: String
    /// Whether row-level security is enabled (the documents require it everywhere).
    package var rlsEnabled: Bool
    package var cells: [PolicyCommand: PolicyCell]
    /// Commands a role is not even granted (gives 42501 "permission denied for table").
    package var revoked: [String: Set<PolicyCommand>]

    /// The cell of a command (a "nobody" cell when absent).
    package func cell(_ c: PolicyCommand) -> PolicyCell {
        cells[c] ?? PolicyCell(doc: "-", using: .constant(false), check: .constant(false), decision: nil, notes: [])
    }
}

/// An app's policies.json.
package struct PolicySet: Sendable, Equatable {
    /// Named expressions (`is_admin`, `approved_user`) that cells refer to with `{"ref": name}`.
    package var definitions: [String: Expr]
    /// Document words for each definition.
    package var definitionDocs: [String: String]
    /// Per-table matrices, in file order.
    package var tables: [TablePolicies]

    /// No policies: every table without RLS.
    package static let empty = PolicySet(definitions: [:], definitionDocs: [:], tables: [])

    /// A policy set from its parts.
    package init(definitions: [String: Expr], definitionDocs: [String: String], tables: [TablePolicies]) {
        self.definitions = definitions
        self.definitionDocs = definitionDocs
        self.tables = tables
    }

    package func table(_ name: String) -> TablePolicies? { tables.first { $0.table == name } }

    /// Decodes policies.json, checking every table and column reference against the schema.
    package static func decode(_ root: SpecNode, schema: DatabaseSchema) throws -> PolicySet {
        try root.decode(PolicySet.self, values: [schemaValue: schema])
    }

    /// Where the decoder's values hold the `DatabaseSchema` the policies refer to.
    static let schemaValue = "policies.schema"
    /// Where the decoder's values hold the named definitions, for `ref` in cells.
    static let definitionsValue = "policies.definitions"

    package static func validate(_ e: Expr, table: TableSchema, schema: DatabaseSchema, defs: [String: Expr], node: SpecNode, outer: TableSchema? = nil) throws
    {
        func checkOperand(_ op: Expr.Operand, _ t: TableSchema) throws {
            switch op {
            case .column(let c) where t.columnIndex(c) == nil: throw node.fail("unknown column '\(c)' of table '\(t.name)'")
            case .outer(let c):
                guard let o = outer else { throw node.fail("'outer' used outside 'exists'") }
                if o.columnIndex(c) == nil { throw node.fail("unknown column '\(c)' of table '\(o.name)'") }
            default: break
            }
        }
        switch e {
        case .compare(_, let a, let b): try checkOperand(a, table); try checkOperand(b, table)
        case .inList(let a, _), .isNull(let a, _): try checkOperand(a, table)
        case .exists(let t, let w):
            guard let inner = schema.table(t) else { throw node.fail("'exists' names unknown table '\(t)'") }
            try validate(w, table: inner, schema: schema, defs: defs, node: node, outer: table)
        case .any(let es), .all(let es): for x in es { try validate(x, table: table, schema: schema, defs: defs, node: node, outer: outer) }
        case .not(let x): try validate(x, table: table, schema: schema, defs: defs, node: node, outer: outer)
        case .ref(let r): if defs[r] == nil { throw node.fail("unknown definition '\(r)'") }
        default: break
        }
    }
}

extension PolicySet: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, definitions, tables }

    /// policies.json: named definitions, then one matrix per table of the schema (every public
    /// table listed).
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let schema = decoder.contractState?.values[Self.schemaValue] as? DatabaseSchema ?? DatabaseSchema(enums: [:], tables: [])
        let definitions = try c.decodeIfPresent([String: Definition].self, forKey: .definitions) ?? [:]
        let defs = definitions.mapValues(\.expr)
        decoder.contractState?.values[Self.definitionsValue] = defs
        let tables = try c.decode([TablePolicies].self, forKey: .tables)
        // A public table with no entry would run with no row-level security and no message;
        // the matrix must say what it means (`"rls": false` for a table RLS leaves open).
        let listed = Set(tables.map(\.table))
        if let missing = schema.tables.first(where: { $0.schema == "public" && !$0.isView && !listed.contains($0.name) }) {
            throw c.fail(.tables, "table '\(missing.name)' of schema.json has no entry (add one, or write \"rls\": false to leave it open on purpose)")
        }
        let docs = Dictionary(uniqueKeysWithValues: definitions.map { ($0.key, $0.value.doc ?? $0.key) })
        self.init(definitions: defs, definitionDocs: docs, tables: tables)
    }

    /// An entry of `definitions`: `{"expr", "doc", "sql", "decision"}`.
    private struct Definition: Decodable {
        var expr: Expr
        var doc: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case expr, doc, sql, decision }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            expr = try c.decode(Expr.self, forKey: .expr)
            doc = try c.decodeIfPresent(String.self, forKey: .doc)
        }
    }
}

extension TablePolicies: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case table, rls, select, insert, update, delete, revoke, decision, doc }

    /// One entry of policies.json's `tables`: a cell per command, expressions checked against
    /// the table's columns and the definitions.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let schema = decoder.contractState?.values[PolicySet.schemaValue] as? DatabaseSchema ?? DatabaseSchema(enums: [:], tables: [])
        let defs = decoder.contractState?.values[PolicySet.definitionsValue] as? [String: Expr] ?? [:]
        table = try c.decode(String.self, forKey: .table)
        guard let ts = schema.table(table) else { throw c.fail(.table, "unknown table '\(table)'") }
        cells = [:]
        for cmd in PolicyCommand.allCases {
            guard let cell = try c.decodeIfPresent(Cell.self, forKey: CodingKeys(rawValue: cmd.key)!) else { continue }
            var using: Expr?
            var check: Expr?
            if let u = cell.using {
                if cmd == .insert { throw u.fail("INSERT has no USING expression; use 'check'") }
                using = try u.decode(Expr.self)
                try PolicySet.validate(using!, table: ts, schema: schema, defs: defs, node: u)
            }
            if let k = cell.check {
                if cmd == .select || cmd == .delete { throw k.fail("\(cmd.rawValue) has no WITH CHECK expression; use 'using'") }
                check = try k.decode(Expr.self)
                try PolicySet.validate(check!, table: ts, schema: schema, defs: defs, node: k)
            }
            let at = CodingKeys(rawValue: cmd.key)!
            if cmd != .insert && using == nil { throw c.fail(at, "\(cmd.rawValue) needs 'using' (write \"nobody\" for a '-' cell)") }
            if cmd == .insert && check == nil { throw c.fail(at, "INSERT needs 'check' (write \"nobody\" for a '-' cell)") }
            cells[cmd] = PolicyCell(doc: cell.doc, using: using, check: check, decision: cell.decision, notes: cell.notes)
        }
        revoked = [:]
        for (role, names) in try c.decodeIfPresent([String: [String]].self, forKey: .revoke) ?? [:] {
            revoked[role] = Set(
                try names.enumerated().map { i, name in
                    guard let command = PolicyCommand(rawValue: name.uppercased()) else {
                        throw c.fail([CodingKeys.revoke, AnyKey(role), AnyKey(intValue: i)!], "unknown command")
                    }
                    return command
                })
        }
        rlsEnabled = try c.decodeIfPresent(Bool.self, forKey: .rls) ?? true
    }

    /// One command's cell as written: `using` and `check` kept as nodes, checked per command.
    private struct Cell: Decodable {
        var doc: String
        var using: SpecNode?
        var check: SpecNode?
        var decision: String?
        var notes: [String]
        enum CodingKeys: String, CodingKey, CaseIterable { case doc, using, check, decision, notes }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            doc = try c.decode(String.self, forKey: .doc)
            using = try c.decodeIfPresent(SpecNode.self, forKey: .using)
            check = try c.decodeIfPresent(SpecNode.self, forKey: .check)
            decision = try c.decodeIfPresent(String.self, forKey: .decision)
            notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        }
    }
}

/// A named user of an app's fixtures: an `auth.users` row plus a label for reports.
package struct Persona: Sendable, Equatable {
    /// Short name ("alice").
    package var name: String
    /// The user's id.
    package var id: String
    package var email: String
    /// Password for `grant_type=password`.
    package var password: String
    /// What the persona stands for ("admin", "pending", "tier 2, north").
    package var label: String
    /// `raw_user_meta_data`.
    package var metadata: JSONValue

    /// A persona from its parts.
    package init(name: String, id: String, email: String, password: String, label: String, metadata: JSONValue) {
        self.name = name
        self.id = id
        self.email = email
        self.password = password
        self.label = label
        self.metadata = metadata
    }
}

/// Seed data: personas and rows in insertion order.
package struct Fixtures: Sendable, Equatable {
    /// Users of the app.
    package var personas: [Persona]
    /// Rows per table in insertion order.
    package var tables: [(table: String, rows: [JSONValue])]

    /// Fixtures from personas and rows per table in insertion order.
    package init(personas: [Persona], tables: [(table: String, rows: [JSONValue])]) {
        self.personas = personas
        self.tables = tables
    }

    package static let empty = Fixtures(personas: [], tables: [])

    package static func == (a: Fixtures, b: Fixtures) -> Bool {
        a.personas == b.personas && a.tables.map(\.table) == b.tables.map(\.table) && a.tables.map(\.rows) == b.tables.map(\.rows)
    }

    package func persona(_ name: String) -> Persona? { personas.first { $0.name == name } }

    package func rows(_ table: String) -> [JSONValue] { tables.filter { $0.table == table }.flatMap(\.rows) }
}

/// Everything the mock needs to serve one app, read from `Contracts/<app>/`.
package struct AppSpec: Sendable {
    /// Folder name (`teleportme`).
    package var app: String
    /// The folder it was read from.
    package var folder: URL
    /// schema.json.
    package var schema: DatabaseSchema
    /// policies.json (required: an entry for every public table of schema.json).
    package var policies: PolicySet
    /// fixtures.json (empty when absent).
    package var fixtures: Fixtures
    /// storage.json's buckets (empty when absent).
    package var buckets: [JSONValue]
    /// auth.json (GoTrue's defaults when absent).
    package var auth: AuthSettings

    /// An app from its parts.
    package init(
        app: String, folder: URL, schema: DatabaseSchema, policies: PolicySet, fixtures: Fixtures, buckets: [JSONValue] = [],
        auth: AuthSettings = AuthSettings()
    ) {
        self.auth = auth
        self.app = app
        self.folder = folder
        self.schema = schema
        self.policies = policies
        self.fixtures = fixtures
        self.buckets = buckets
    }

    /// Loads `folder/schema.json`, `policies.json`, `fixtures.json` and `storage.json` (once per
    /// folder while `LoadedSpecs` are bound).
    package static func load(folder: URL) throws -> AppSpec {
        try LoadedSpecs.value("spec", folder: folder) { try decode(folder: folder) }
    }

    /// Reads and decodes the files `load` names.
    private static func decode(folder: URL) throws -> AppSpec {
        let app = folder.lastPathComponent
        let fm = FileManager.default
        func node(_ name: String) throws -> SpecNode? {
            let url = folder.appendingPathComponent(name)
            guard fm.fileExists(atPath: url.path) else { return nil }
            return try SpecNode.load(url, displayName: "Contracts/\(app)/\(name)")
        }
        guard let s = try node("schema.json") else {
            throw SpecError(file: "Contracts/\(app)/schema.json", path: "$", message: "missing file")
        }
        let schema = try DatabaseSchema.decode(s)
        // Without policies.json every row would be open to every caller: a missing file is an error.
        guard let p = try node("policies.json") else {
            throw SpecError(
                file: "Contracts/\(app)/policies.json", path: "$",
                message: "missing file (every app needs its row-level security matrix; see Contracts/FORMAT.md)")
        }
        let policies = try PolicySet.decode(p, schema: schema)
        let fixtures = try node("fixtures.json").map { try Fixtures.decode($0, folder: folder, schema: schema) } ?? .empty
        var buckets: [JSONValue] = []
        if let st = try node("storage.json") {
            buckets = try st.decode(StorageFile.self).buckets
        }
        let auth = try node("auth.json").map(AuthSettings.decode) ?? AuthSettings()
        let spec = AppSpec(app: app, folder: folder, schema: schema, policies: policies, fixtures: fixtures, buckets: buckets, auth: auth)
        // A broken bucket (a bad limit, an unknown column in a policy) names its file and path here.
        _ = try spec.bucketConfigs()
        return spec
    }

    /// The buckets of storage.json through the one decoder of that file (`StorageConfiguration`):
    /// limits with units (`"2MB"`) as numbers, policies validated against this app's schema and
    /// policy definitions.
    package func bucketConfigs() throws -> [BucketConfig] {
        try StorageConfiguration.decode(
            SpecNode(value: .array(buckets), file: "Contracts/\(app)/storage.json", path: "$.buckets"),
            schema: schema, definitions: policies.definitions)
    }
}

/// storage.json's outline: `buckets` (decoded by `StorageConfiguration` once the schema and the
/// policy definitions are known), plus the file's `app`, `source` and `decisions` notes.
private struct StorageFile: Decodable {
    var buckets: [JSONValue]
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, buckets }
    init(from decoder: Decoder) throws {
        buckets = try decoder.container(keyedBy: CodingKeys.self).decode([JSONValue].self, forKey: .buckets)
    }
}
