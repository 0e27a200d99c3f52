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
    /// Table name.
    package var table: String
    /// Whether row-level security is enabled (the documents require it everywhere).
    package var rlsEnabled: Bool
    /// Cells by command.
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

    /// The matrix of a table.
    package func table(_ name: String) -> TablePolicies? { tables.first { $0.table == name } }

    /// Decodes policies.json, checking every table and column reference against the schema.
    package static func decode(_ root: SpecNode, schema: DatabaseSchema) throws -> PolicySet {
        try root.object { o in
            _ = o.optional("app")
            _ = o.optional("source")
            _ = o.optional("decisions")
            var defs: [String: Expr] = [:]
            var docs: [String: String] = [:]
            if let d = o.optional("definitions") {
                for (k, v) in try d.map() {
                    try v.object { dobj in
                        defs[k] = try Expr.decode(try dobj.required("expr"))
                        docs[k] = try dobj.optional("doc")?.string() ?? k
                        _ = dobj.optional("sql")
                        _ = dobj.optional("decision")
                    }
                }
            }
            var tables: [TablePolicies] = []
            for t in try o.required("tables").array() {
                let tp = try t.object { to -> TablePolicies in
                    let nameNode = try to.required("table")
                    let name = try nameNode.string()
                    guard let ts = schema.table(name) else { throw nameNode.fail("unknown table '\(name)'") }
                    var cells: [PolicyCommand: PolicyCell] = [:]
                    for cmd in PolicyCommand.allCases {
                        guard let cn = to.optional(cmd.key) else { continue }
                        cells[cmd] = try cn.object { co in
                            let doc = try co.required("doc").string()
                            var using: Expr?
                            var check: Expr?
                            if let u = co.optional("using") {
                                if cmd == .insert { throw u.fail("INSERT has no USING expression; use 'check'") }
                                using = try Expr.decode(u)
                                try validate(using!, table: ts, schema: schema, defs: defs, node: u)
                            }
                            if let c = co.optional("check") {
                                if cmd == .select || cmd == .delete { throw c.fail("\(cmd.rawValue) has no WITH CHECK expression; use 'using'") }
                                check = try Expr.decode(c)
                                try validate(check!, table: ts, schema: schema, defs: defs, node: c)
                            }
                            if cmd != .insert && using == nil { throw co.this.fail("\(cmd.rawValue) needs 'using' (write \"nobody\" for a '-' cell)") }
                            if cmd == .insert && check == nil { throw co.this.fail("INSERT needs 'check' (write \"nobody\" for a '-' cell)") }
                            return PolicyCell(
                                doc: doc, using: using, check: check,
                                decision: try co.optional("decision")?.string(),
                                notes: try co.optional("notes")?.strings() ?? [])
                        }
                    }
                    var revoked: [String: Set<PolicyCommand>] = [:]
                    if let r = to.optional("revoke") {
                        for (role, cmds) in try r.map() {
                            revoked[role] = Set(
                                try cmds.array().map { n in
                                    guard let c = PolicyCommand(rawValue: try n.string().uppercased()) else { throw n.fail("unknown command") }
                                    return c
                                })
                        }
                    }
                    _ = to.optional("decision")
                    _ = to.optional("doc")
                    return TablePolicies(table: name, rlsEnabled: try to.optional("rls")?.bool() ?? true, cells: cells, revoked: revoked)
                }
                tables.append(tp)
            }
            // A public table with no entry would run with no row-level security and no message;
            // the matrix must say what it means (`"rls": false` for a table RLS leaves open).
            let listed = Set(tables.map(\.table))
            if let missing = schema.tables.first(where: { $0.schema == "public" && !$0.isView && !listed.contains($0.name) }) {
                throw (try o.required("tables")).fail(
                    "table '\(missing.name)' of schema.json has no entry (add one, or write \"rls\": false to leave it open on purpose)")
            }
            return PolicySet(definitions: defs, definitionDocs: docs, tables: tables)
        }
    }

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

/// A named user of an app's fixtures: an `auth.users` row plus a label for reports.
package struct Persona: Sendable, Equatable {
    /// Short name ("alice").
    package var name: String
    /// The user's id.
    package var id: String
    /// Email address.
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

    /// No fixtures.
    package static let empty = Fixtures(personas: [], tables: [])

    package static func == (a: Fixtures, b: Fixtures) -> Bool {
        a.personas == b.personas && a.tables.map(\.table) == b.tables.map(\.table) && a.tables.map(\.rows) == b.tables.map(\.rows)
    }

    /// The persona of a name.
    package func persona(_ name: String) -> Persona? { personas.first { $0.name == name } }

    /// Rows of a table.
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

    /// Loads `folder/schema.json`, `policies.json`, `fixtures.json` and `storage.json`.
    package static func load(folder: URL) throws -> AppSpec {
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
            buckets = try st.object { o in
                _ = o.optional("app"); _ = o.optional("source"); _ = o.optional("decisions")
                return try o.required("buckets").array().map(\.value)
            }
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
