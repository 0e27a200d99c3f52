import Foundation

/// One cell of a bucket's policy matrix on `storage.objects`: the words it stands for and the
/// rule, in the expression language of policies.json.
package struct StoragePolicyCell: Sendable, Equatable {
    /// The document's words, if given.
    package var doc: String
    /// Which existing objects the role reaches (SELECT, UPDATE, DELETE).
    package var using: Expr?
    /// What a new or changed object must satisfy (INSERT, UPDATE; UPDATE's defaults to `using`).
    package var check: Expr?
    /// Why the cell says what it says.
    package var decision: String?
}

/// A bucket of storage.json.
package struct BucketConfig: Sendable, Equatable {
    /// Bucket id (also its name).
    package var id: String
    /// Display name (the id unless given).
    package var name: String
    /// Whether `/object/public/<bucket>/…` serves its objects without authorization.
    package var isPublic: Bool
    /// Largest object in bytes; nil for the global limit only.
    package var fileSizeLimit: Int?
    /// Accepted MIME types (`image/png`, `image/*`); nil or empty accepts any.
    package var allowedMimeTypes: [String]?
    /// Policy cells on `storage.objects` rows of this bucket; a missing command is "nobody".
    package var policies: [PolicyCommand: StoragePolicyCell]
    /// Who may see the bucket itself through `/bucket` (default nobody: Supabase enables RLS on
    /// `storage.buckets` without a policy, so only the service role lists buckets).
    package var bucketSelect: Expr

    /// A bucket from its parts (for buckets created at run time through Storage's API).
    package init(
        id: String, name: String, isPublic: Bool, fileSizeLimit: Int?, allowedMimeTypes: [String]?,
        policies: [PolicyCommand: StoragePolicyCell], bucketSelect: Expr
    ) {
        self.id = id
        self.name = name
        self.isPublic = isPublic
        self.fileSizeLimit = fileSizeLimit
        self.allowedMimeTypes = allowedMimeTypes
        self.policies = policies
        self.bucketSelect = bucketSelect
    }

    /// The cell of a command, nil when the bucket grants it to nobody.
    package func cell(_ command: PolicyCommand) -> StoragePolicyCell? { policies[command] }
}

/// The storage.json model: buckets, their limits and their policies. Every policy expression is
/// evaluated against a virtual `storage.objects` row (see `StorageConfiguration.objectColumns`).
package enum StorageConfiguration {
    /// The columns of the virtual `storage.objects` row a policy can read.
    ///
    /// `bucket_id`, `name`, `owner`, `owner_id`, `id`, `version`, `created_at`, `updated_at`,
    /// `last_accessed_at`, `metadata`, `user_metadata` and `path_tokens` are Supabase's columns;
    /// the others stand for Supabase's helper functions: `folder` = `(storage.foldername(name))[1]`
    /// (NULL at the bucket root), `folders` = `storage.foldername(name)`, `filename` =
    /// `storage.filename(name)`, `extension` = `storage.extension(name)`, and `size` and
    /// `mimetype` = `metadata->>'size'` and `metadata->>'mimetype'` (of the upload being checked,
    /// for INSERT and UPDATE).
    package static let objectColumns: [ColumnSchema] = [
        ColumnSchema(name: "id", type: .uuid, nullable: false),
        ColumnSchema(name: "bucket_id", type: .text, nullable: true),
        ColumnSchema(name: "name", type: .text, nullable: true),
        ColumnSchema(name: "owner", type: .uuid, nullable: true),
        ColumnSchema(name: "owner_id", type: .text, nullable: true),
        ColumnSchema(name: "version", type: .text, nullable: true),
        ColumnSchema(name: "path_tokens", type: .array(.text), nullable: true),
        ColumnSchema(name: "folder", type: .text, nullable: true),
        ColumnSchema(name: "folders", type: .array(.text), nullable: true),
        ColumnSchema(name: "filename", type: .text, nullable: true),
        ColumnSchema(name: "extension", type: .text, nullable: true),
        ColumnSchema(name: "size", type: .bigint, nullable: true),
        ColumnSchema(name: "mimetype", type: .text, nullable: true),
        ColumnSchema(name: "metadata", type: .jsonb, nullable: true),
        ColumnSchema(name: "user_metadata", type: .jsonb, nullable: true),
        ColumnSchema(name: "created_at", type: .timestamptz, nullable: true),
        ColumnSchema(name: "updated_at", type: .timestamptz, nullable: true),
        ColumnSchema(name: "last_accessed_at", type: .timestamptz, nullable: true)
    ]

    /// The columns of the virtual `storage.buckets` row `bucketSelect` reads.
    package static let bucketColumns: [ColumnSchema] = [
        ColumnSchema(name: "id", type: .text, nullable: false),
        ColumnSchema(name: "name", type: .text, nullable: false),
        ColumnSchema(name: "owner", type: .uuid, nullable: true),
        ColumnSchema(name: "public", type: .boolean, nullable: true),
        ColumnSchema(name: "file_size_limit", type: .bigint, nullable: true),
        ColumnSchema(name: "allowed_mime_types", type: .array(.text), nullable: true),
        ColumnSchema(name: "created_at", type: .timestamptz, nullable: true),
        ColumnSchema(name: "updated_at", type: .timestamptz, nullable: true)
    ]

    static func table(_ name: String, _ columns: [ColumnSchema]) -> TableSchema {
        TableSchema(name: name, schema: "storage", columns: columns, primaryKey: ["id"], uniques: [], foreignKeys: [], checks: [], isView: false, decisions: [])
    }

    /// `storage.objects` as policies see it.
    package static let objectsTable = table("objects", objectColumns)
    /// `storage.buckets` as `bucketSelect` sees it.
    package static let bucketsTable = table("buckets", bucketColumns)

    /// Decodes the `buckets` array of storage.json. Unknown keys, bad limits, unknown MIME
    /// patterns and references to unknown columns of the virtual rows are errors naming the file
    /// and JSON path. With a schema, tables named by `exists` and `ref` definitions are checked too.
    package static func decode(_ node: SpecNode, schema: DatabaseSchema? = nil, definitions: [String: Expr]? = nil) throws -> [BucketConfig] {
        try node.decode([BucketConfig].self, values: [BucketContext.key: BucketContext(schema: schema, definitions: definitions)])
    }

    /// A cell is a bare expression (SELECT, DELETE: `using`; INSERT: `check`; UPDATE: both) or an
    /// object `{doc, using, check, decision}` in the style of policies.json.
    static func decodeCell(_ n: SpecNode, _ cmd: PolicyCommand, schema: DatabaseSchema?, definitions: [String: Expr]?) throws -> StoragePolicyCell {
        var cell: StoragePolicyCell
        if case .object(let o) = n.value, o.keys.contains(where: { ["doc", "using", "check", "decision"].contains($0) }) {
            let entry = try n.decode(CellEntry.self)
            cell = StoragePolicyCell(doc: entry.doc, using: nil, check: nil, decision: entry.decision)
            if let u = entry.using {
                if cmd == .insert { throw u.fail("INSERT has no USING expression; use 'check'") }
                cell.using = try u.decode(Expr.self)
                try validate(cell.using!, table: objectsTable, node: u, schema: schema, definitions: definitions)
            }
            if let k = entry.check {
                if cmd == .select || cmd == .delete { throw k.fail("\(cmd.rawValue) has no WITH CHECK expression; use 'using'") }
                cell.check = try k.decode(Expr.self)
                try validate(cell.check!, table: objectsTable, node: k, schema: schema, definitions: definitions)
            }
            if cmd != .insert && cell.using == nil { throw n.fail("\(cmd.rawValue) needs 'using'") }
            if cmd == .insert && cell.check == nil { throw n.fail("INSERT needs 'check'") }
        } else {
            let e = try n.decode(Expr.self)
            try validate(e, table: objectsTable, node: n, schema: schema, definitions: definitions)
            cell = StoragePolicyCell(doc: "", using: cmd == .insert ? nil : e, check: cmd == .select || cmd == .delete ? nil : e, decision: nil)
        }
        return cell
    }

    /// A cell written as an object: `using` and `check` kept as nodes, checked per command.
    private struct CellEntry: Decodable {
        var doc: String
        var decision: String?
        var using: SpecNode?
        var check: SpecNode?
        enum CodingKeys: String, CodingKey, CaseIterable { case doc, decision, using, check }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            doc = try c.decodeIfPresent(String.self, forKey: .doc) ?? ""
            decision = try c.decodeIfPresent(String.self, forKey: .decision)
            using = try c.decodeIfPresent(SpecNode.self, forKey: .using)
            check = try c.decodeIfPresent(SpecNode.self, forKey: .check)
        }
    }

    static func validate(_ e: Expr, table: TableSchema, node: SpecNode, schema: DatabaseSchema?, definitions: [String: Expr]?) throws {
        if let schema {
            try PolicySet.validate(e, table: table, schema: schema, defs: definitions ?? [:], node: node)
            return
        }
        // Without the app's schema: the virtual row's columns only (inside `exists` the inner
        // table is unknown here; it is checked when the backend first serves storage).
        func operand(_ o: Expr.Operand, inner: Bool) throws {
            if case .column(let c) = o, !inner, table.columnIndex(c) == nil {
                throw node.fail("unknown column '\(c)' of \(table.qualifiedName) (known: \(table.columns.map(\.name).joined(separator: ", ")))")
            }
            if case .outer(let c) = o, table.columnIndex(c) == nil {
                throw node.fail("unknown column '\(c)' of \(table.qualifiedName)")
            }
        }
        func walk(_ e: Expr, inner: Bool) throws {
            switch e {
            case .compare(_, let a, let b): try operand(a, inner: inner); try operand(b, inner: inner)
            case .inList(let a, _), .isNull(let a, _): try operand(a, inner: inner)
            case .exists(_, let w): try walk(w, inner: true)
            case .any(let es), .all(let es): for x in es { try walk(x, inner: inner) }
            case .not(let x): try walk(x, inner: inner)
            default: break
            }
        }
        try walk(e, inner: false)
    }
}

/// What a bucket's policies are checked against (none: the virtual rows' columns only).
struct BucketContext {
    static let key = "storage.context"
    static let ids = "storage.ids"
    var schema: DatabaseSchema?
    var definitions: [String: Expr]?
}

/// A MIME type or pattern of `allowedMimeTypes` (`image/png`, `image/*`).
struct MimePattern: Decodable {
    var value: String
    init(from decoder: Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
        let parts = value.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0] != "*" else {
            throw decoder.fail("invalid MIME type '\(value)' (type/subtype or type/*)")
        }
    }
}

extension BucketConfig: Decodable {
    enum CodingKeys: String, CodingKey { case doc, decision, decisions, source, id, fileSizeLimit, allowedMimeTypes, policies, bucketSelect, name, `public` }
    /// The cells of `policies`, by command (`select`, `insert`, `update`, `delete`).
    enum CellKey: String, CodingKey, CaseIterable {
        case select, insert, update, delete
        var command: PolicyCommand { PolicyCommand(rawValue: rawValue.uppercased())! }
    }

    /// A bucket of storage.json: unknown keys, bad limits, unknown MIME patterns and references to
    /// unknown columns of the virtual rows are errors naming the file and JSON path.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        for k in [CodingKeys.doc, .decision, .decisions, .source] { _ = try c.decodeIfPresent(JSONValue.self, forKey: k) }
        let context = decoder.contractState?.values[BucketContext.key] as? BucketContext
        let id = try c.decode(String.self, forKey: .id)
        guard !id.isEmpty, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw c.fail(.id, "invalid bucket id '\(id)' (letters, digits, '-', '_', '.')")
        }
        var seen = decoder.contractState?.values[BucketContext.ids] as? Set<String> ?? []
        guard seen.insert(id).inserted else { throw c.fail(.id, "duplicate bucket id '\(id)'") }
        decoder.contractState?.values[BucketContext.ids] = seen
        let limit = try c.decodeIfPresent(ByteSize.self, forKey: .fileSizeLimit)?.bytes
        let mimes = try c.decodeIfPresent([MimePattern].self, forKey: .allowedMimeTypes)?.map(\.value)
        var cells: [PolicyCommand: StoragePolicyCell] = [:]
        if try !c.decodeNil(forKey: .policies) {
            let pc = try c.nestedContainer(keyedBy: CellKey.self, forKey: .policies)
            for key in CellKey.allCases {
                guard let node = try pc.decodeIfPresent(SpecNode.self, forKey: key) else { continue }
                cells[key.command] = try StorageConfiguration.decodeCell(node, key.command, schema: context?.schema, definitions: context?.definitions)
            }
        }
        var bucketSelect: Expr = .constant(false)
        if let bs = try c.decodeIfPresent(SpecNode.self, forKey: .bucketSelect) {
            bucketSelect = try bs.decode(Expr.self)
            try StorageConfiguration.validate(
                bucketSelect, table: StorageConfiguration.bucketsTable, node: bs,
                schema: context?.schema, definitions: context?.definitions)
        }
        self.init(
            id: id, name: try c.decodeIfPresent(String.self, forKey: .name) ?? id, isPublic: try c.decodeIfPresent(Bool.self, forKey: .public) ?? false,
            fileSizeLimit: limit, allowedMimeTypes: mimes, policies: cells, bucketSelect: bucketSelect)
    }
}
