import Foundation

/// A `select=` list bound to a table: output fields in order, embedded resources resolved
/// through relationships as PostgREST resolves them (`Relationship.swift`), with their own
/// filters, order, limit and offset.
///
/// Printing follows PostgREST's query (src/library/PostgREST/Query/QueryBuilder.hs): the
/// top-level rows are `json_agg` of the rows (row_to_json framing, keys in select order), while a
/// to-one embed is `row_to_json(…)::jsonb` and a to-many embed `json_agg(…)::jsonb`, so embedded
/// rows print as PostgreSQL prints jsonb: `", "`/`": "` separators and keys ordered by length then
/// bytes, the last of duplicate keys kept.
struct SelectPlan {
    enum Field {
        case column(out: String, index: Int, type: SQLType, cast: SQLType?)
        case jsonPath(out: String, index: Int, type: SQLType, path: JSONPath, cast: SQLType?)
        case embed(out: String, Embed)
        /// `...rel(…)`: the related row's fields spliced in (nulls when there is none).
        case spread(Embed)
    }

    final class Embed {
        let rel: Relationship
        let inner: Bool
        /// `rel()`: used for filtering only, not printed.
        let empty: Bool
        let plan: SelectPlan
        let filter: RowFilter?
        let range: EmbedRange
        /// `rel=is.null` (true) or `rel=not.is.null` (false) on the parent.
        var nullFilter: Bool?
        /// A spread's relation name (`...rel(…)`), which its null filter names.
        var spreadName: String?

        init(rel: Relationship, inner: Bool, empty: Bool, plan: SelectPlan, filter: RowFilter?, range: EmbedRange) {
            self.rel = rel
            self.inner = inner
            self.empty = empty
            self.plan = plan
            self.filter = filter
            self.range = range
        }

        var toMany: Bool { rel.toMany }

        /// A to-one spread with aggregates in it, at any depth of to-one spreads: PostgREST
        /// hoists them into the parent's query (Plan.hs `hoistSpreadAggFunctions`), which then
        /// groups by its other fields and the spreads' other fields and computes them over the
        /// group's joined rows, not per parent row.
        var hoists: Bool { !toMany && plan.groupsRows }
    }

    /// Top-level logic trees that name an embed (`or=(clientinfo.not.is.null,contact.not.is.null)`),
    /// checked on each row once its embeds are read: PostgREST's `rel.is.null` inside `or`/`and`
    /// tests the embed's lateral join (RelatedQueriesSpec.hs "can do an or across embeds").
    final class DeferredFilters {
        var trees: [RowFilter] = []
        var compiled: CompiledFilter?
    }

    let table: TableSchema
    let fields: [Field]
    let deferred = DeferredFilters()
    /// Embeds that filters, orders or limits named by relation although they have an alias,
    /// in select order through the tree: PostgREST 16 answers them with a `Warning` header.
    var legacyTargets: [(name: String, alias: String)] = []
    /// `select=count` on a table without a `count` column: PostgreSQL reads `t.count` as
    /// `count(t)` (function-call notation), so the rows fold into one `{"count": n}` whether or
    /// not PostgREST's aggregates are on (AggregateFunctionsSpec.hs "backwards compat"). The
    /// output name.
    var countOnly: String?
    /// The list's aggregates (`db-aggregates-enabled`), each after `position` fields: the rows
    /// then fold into one per group of equal values of the other fields (PostgREST groups by
    /// every selected field that is not an aggregate, embeds included), one row in all when
    /// every field is an aggregate.
    var aggregates: [(position: Int, aggregate: SelectAggregate)] = []
    /// Whether the rows fold into groups: the list has aggregates, or a to-one spread hoists some.
    var groupsRows: Bool {
        !aggregates.isEmpty
            || fields.contains {
                if case .spread(let e) = $0 { return e.hoists }; return false
            }
    }

    /// Each field's `"name":` (with its leading comma after the first), escaped once per plan.
    let keyPrefixes: [String]

    init(table: TableSchema, fields: [Field]) {
        self.table = table
        self.fields = fields
        keyPrefixes = fields.enumerated().map { n, f in
            var k = n > 0 ? "," : ""
            switch f {
            case .column(let out, _, _, _), .jsonPath(let out, _, _, _, _), .embed(let out, _): JSONValue.writeString(out, to: &k)
            case .spread: break
            }
            return k + ":"
        }
    }

    var embeds: [(String?, Embed)] {
        fields.compactMap {
            switch $0 {
            case .embed(let out, let e): return (out, e)
            case .spread(let e): return (e.spreadName, e)
            default: return nil
            }
        }
    }

    /// Whether rendering may drop parent rows (an `!inner` embed or a null filter on one).
    var hasInnerFilter: Bool {
        !deferred.trees.isEmpty || embeds.contains { $0.1.inner || $0.1.nullFilter != nil || $0.1.plan.hasInnerFilter }
    }

    /// Parameters of embedded resources keyed by their path below this level (`tasks`, `projects.tasks`).
    struct EmbedParameters {
        var filters: [String: [RowFilter]] = [:]
        var ranges: [String: EmbedRange] = [:]
        /// `db-max-rows` on a read: every embed's limit is at most this (nil on writes'
        /// representations, which PostgREST does not cut: Plan.hs `treeRestrictRange`).
        var maxRows: Int?
        /// The aliased embeds these parameters named by relation (`tasks` for `the_tasks:tasks`).
        var legacyTargets: [(name: String, alias: String)] = []

        func below(_ path: String) -> EmbedParameters {
            var out = EmbedParameters(maxRows: maxRows)
            let prefix = path + "."
            for (k, v) in filters where k.hasPrefix(prefix) { out.filters[String(k.dropFirst(prefix.count))] = v }
            for (k, v) in ranges where k.hasPrefix(prefix) { out.ranges[String(k.dropFirst(prefix.count))] = v }
            return out
        }

        /// PostgREST's legacy target names (on by default): an aliased embed's filters, order
        /// and limits may name the relation instead of the alias (`the_tasks:tasks(…)` with
        /// `tasks.order=…`), unless another embed uses that name as its own.
        func resolvingLegacyTargets(_ items: [SelectItem]) -> EmbedParameters {
            var outNames = Set<String>()
            var aliased: [String: String] = [:]
            for item in items {
                if case .embed(let relation, let alias, _, _, _) = item {
                    outNames.insert(alias ?? relation)
                    if let alias, alias != relation { aliased[relation] = aliased[relation] == nil ? alias : "" }
                }
            }
            var out = self
            for (relation, alias) in aliased where !alias.isEmpty && !outNames.contains(relation) {
                if Set(filters.keys).union(ranges.keys).contains(where: { $0.split(separator: ".", maxSplits: 1).first.map(String.init) == relation }) {
                    out.legacyTargets.append((relation, alias))
                }
                func rekey<V>(_ d: [String: V], merge: (V, V) -> V) -> [String: V] {
                    var r: [String: V] = [:]
                    for (k, v) in d {
                        let parts = k.split(separator: ".", maxSplits: 1).map(String.init)
                        let key = parts[0] == relation ? ([alias] + parts.dropFirst()).joined(separator: ".") : k
                        r[key] = r[key].map { merge($0, v) } ?? v
                    }
                    return r
                }
                out.filters = rekey(out.filters, merge: +)
                out.ranges = rekey(out.ranges, merge: { a, _ in a })
            }
            return out
        }
    }

    static func build(
        _ items: [SelectItem], table: TableSchema, schema: DatabaseSchema,
        embeddedFilters: [String: [RowFilter]], ranges: [String: EmbedRange] = [:], maxRows: Int? = nil, allowEmbedding: Bool = true
    ) throws -> SelectPlan {
        do {
            return try build(
                items, table: table, schema: schema, params: EmbedParameters(filters: embeddedFilters, ranges: ranges, maxRows: maxRows),
                allowEmbedding: allowEmbedding)
        } catch let e as PostgresError where e.code == "42703" && allowEmbedding {
            // PostgREST resolves every relationship of the select tree while planning, before
            // PostgreSQL sees a column: an embed it cannot resolve answers PGRST200/201 even when
            // a selected column does not exist (Plan.hs `addRels` runs before the query).
            try resolveRelationships(items, parent: table, schema: schema)
            throw e
        }
    }

    /// PostgREST 16's `Warning` for legacy target names (App.hs `warningHeaders`): code 299, the
    /// agent `PostgRESTv<version>` (the newest release's, 16.1), and the deprecation with every
    /// relation-to-alias replacement. Nil when the request named every aliased embed by its alias.
    var legacyTargetWarning: String? {
        guard !legacyTargets.isEmpty else { return nil }
        let replacements = legacyTargets.map { "`\($0.name)` to `\($0.alias)`" }.joined(separator: ", ")
        return "299 PostgRESTv16.1 \"Embedded resource was referenced by relation name even though it has an alias. "
            + "This is deprecated and will stop working in a future release. Update \(replacements) in query string filters, orders or limits.\""
    }

    /// Resolves the relationships of a select tree, throwing the first that PostgREST cannot.
    static func resolveRelationships(_ items: [SelectItem], parent: TableSchema, schema: DatabaseSchema) throws {
        for item in items {
            switch item {
            case .embed(let relation, _, let hint, _, let sub), .spread(let relation, let hint, _, let sub):
                let rel = try Relationship.find(from: parent, target: relation, hint: hint, schema: schema)
                try resolveRelationships(sub, parent: rel.target, schema: schema)
            default: break
            }
        }
    }

    static func build(
        _ items: [SelectItem], table: TableSchema, schema: DatabaseSchema,
        params: EmbedParameters, allowEmbedding: Bool = true
    ) throws -> SelectPlan {
        let params = params.resolvingLegacyTargets(items)
        var fields: [Field] = []
        var names: [String] = []
        var countName: String?
        var aggregates: [(position: Int, aggregate: SelectAggregate)] = []
        for item in items {
            switch item {
            case .aggregate(let function, let column, let inputCast, let alias, let castName):
                let source: SelectAggregate.Source
                if let column {
                    if table.columnIndex(column) == nil, let (base, path) = JSONPath.split(column) {
                        guard let i = table.columnIndex(base) else { throw CompiledFilter.unknownColumn(base, table) }
                        source = .jsonPath(index: i, type: table.columns[i].type, path: try path.validated())
                    } else {
                        guard let i = table.columnIndex(column) else { throw CompiledFilter.unknownColumn(column, table) }
                        source = .column(index: i, type: table.columns[i].type)
                    }
                } else {
                    source = .rows
                }
                let aggregate = SelectAggregate(
                    function: function, source: source, inputCast: try inputCast.map(castType), cast: try castName.map(castType), out: alias ?? function)
                aggregates.append((fields.count, aggregate))
            case .star:
                for (i, c) in table.columns.enumerated() { fields.append(.column(out: c.name, index: i, type: c.type, cast: nil)) }
            case .column("count", let alias, nil) where table.columnIndex("count") == nil:
                countName = alias ?? "count"
            case .column(let name, let alias, let castName):
                let cast = try castName.map(castType)
                // A column whose own name holds an arrow (selected quoted, `":arr->ow"`) is that
                // column, not a path.
                if table.columnIndex(name) == nil, let (base, path) = JSONPath.split(name) {
                    guard let i = table.columnIndex(base) else { throw CompiledFilter.unknownColumn(base, table) }
                    fields.append(.jsonPath(out: alias ?? path.outputName(base), index: i, type: table.columns[i].type, path: try path.validated(), cast: cast))
                    continue
                }
                guard let i = table.columnIndex(name) else { throw CompiledFilter.unknownColumn(name, table) }
                fields.append(.column(out: alias ?? name, index: i, type: table.columns[i].type, cast: cast))
            case .embed(let relation, let alias, let hint, let inner, let sub):
                guard allowEmbedding else { throw noRelationship(table.name, relation, hint: hint, schema: schema) }
                let out = alias ?? relation
                let e = try embed(relation: relation, hint: hint, inner: inner, items: sub, parent: table, schema: schema, params: params, path: out)
                fields.append(.embed(out: out, e))
                names.append(out)
            case .spread(let relation, let hint, let inner, let sub):
                guard allowEmbedding else { throw noRelationship(table.name, relation, hint: hint, schema: schema) }
                let e = try embed(relation: relation, hint: hint, inner: inner, items: sub, parent: table, schema: schema, params: params, path: relation)
                if e.toMany && e.plan.groupsRows {
                    throw PostgresError(
                        "PGRST127", "Feature not implemented", details: "Aggregates are not implemented for one-to-many or many-to-many spreads.")
                }
                e.spreadName = relation
                fields.append(.spread(e))
                names.append(relation)
            }
        }
        for key in Set(params.filters.keys).union(params.ranges.keys) {
            let top = key.split(separator: ".").first.map(String.init) ?? key
            if !names.contains(top) {
                throw PostgresError(
                    "PGRST108", "'\(top)' is not an embedded resource in this request",
                    hint: "Verify that '\(top)' is included in the 'select' query parameter.")
            }
        }
        if countName != nil, let other = fields.first {
            let name: String
            switch other {
            case .column(_, let i, _, _), .jsonPath(_, let i, _, _, _): name = table.columns[i].name
            case .embed(let out, _): name = out
            case .spread(let e): name = e.spreadName ?? e.rel.target.name
            }
            throw PostgresError("42803", "column \"\(table.name).\(name)\" must appear in the GROUP BY clause or be used in an aggregate function")
        }
        var plan = SelectPlan(table: table, fields: fields)
        plan.countOnly = countName
        plan.aggregates = aggregates
        plan.legacyTargets = params.legacyTargets
        for f in fields {
            switch f {
            case .embed(_, let e), .spread(let e): plan.legacyTargets += e.plan.legacyTargets
            default: break
            }
        }
        return plan
    }

    static func castType(_ name: String) throws -> SQLType {
        switch name.lowercased() {
        case "text", "varchar", "character varying", "char", "bpchar", "name", "citext": return .text
        case "int", "int4", "integer": return .integer
        case "int2", "smallint": return .smallint
        case "int8", "bigint": return .bigint
        case "numeric", "decimal": return .numeric(precision: nil, scale: 0)
        case "interval": return .interval
        case "bytea": return .bytea
        case "time": return .time
        case "timetz": return .timetz
        case "tsvector": return .tsvector
        case "int4range", "int8range", "numrange", "daterange", "tsrange", "tstzrange": return .range(PGRangeKind(rawValue: name.lowercased())!)
        case "float", "float8", "double precision": return .double
        case "float4", "real": return .real
        case "bool", "boolean": return .boolean
        case "json": return .json
        case "jsonb": return .jsonb
        case "uuid": return .uuid
        case "date": return .date
        case "timestamptz": return .timestamptz
        case "timestamp": return .timestamp
        default: throw PostgresError("42704", "type \"\(name)\" does not exist")
        }
    }

    /// Resolves one embed and its subtree.
    static func embed(
        relation: String, hint: String?, inner: Bool, items: [SelectItem], parent: TableSchema, schema: DatabaseSchema,
        params: EmbedParameters, path: String
    ) throws -> Embed {
        let rel = try Relationship.find(from: parent, target: relation, hint: hint, schema: schema)
        let below = params.below(path)
        let sub = try build(items.isEmpty ? [] : items, table: rel.target, schema: schema, params: below)
        // Filters on this embed split into its own columns and null filters on its embeds.
        var own: [RowFilter] = []
        var nulls: [String: Bool] = [:]
        for f in params.filters[path] ?? [] {
            if case .condition(let column, .is, .isValue("null"), let negated) = f, rel.target.columnIndex(column) == nil,
                sub.embeds.contains(where: { $0.0 == column })
            {
                nulls[column] = !negated
            } else {
                own.append(f)
            }
        }
        for (name, e) in sub.embeds where name != nil { if let n = nulls[name!] { e.nullFilter = n } }
        // Plan.hs `hasOnlyNullEmbed`: an embed is empty (left out of the output, only joining)
        // when it selects no columns and every embed below it is empty too.
        let empty =
            sub.countOnly == nil && sub.aggregates.isEmpty
            && sub.fields.allSatisfy { f in
                switch f {
                case .embed(_, let e), .spread(let e): return e.empty
                default: return false
                }
            }
        let e = Embed(
            rel: rel, inner: inner, empty: empty, plan: sub, filter: own.isEmpty ? nil : .and(own),
            range: (params.ranges[path] ?? EmbedRange()).restricted(to: params.maxRows))
        return e
    }

    /// Moves top-level `rel=is.null` / `rel=not.is.null` filters onto their embeds and returns the rest.
    func takeNullFilters(_ filters: [RowFilter]) throws -> [RowFilter] {
        var rest: [RowFilter] = []
        for f in filters {
            if case .condition(let column, .is, .isValue("null"), let negated) = f, table.columnIndex(column) == nil,
                let e = embeds.first(where: { $0.0 == column })?.1
            {
                e.nullFilter = !negated
            } else if namesEmbed(f) {
                deferred.trees.append(f)
            } else {
                rest.append(f)
            }
        }
        if !deferred.trees.isEmpty {
            // The table's columns, then one per embed: non-null when the embed found rows.
            let names = embeds.compactMap(\.0)
            let columns = table.columns + names.map { ColumnSchema(name: $0, type: .boolean, nullable: true) }
            let ts = TableSchema(
                name: table.name, schema: table.schema, columns: columns, primaryKey: [], uniques: [], foreignKeys: [], checks: [], isView: true,
                decisions: [])
            var idx: [String: Int] = [:]
            for (n, c) in columns.enumerated() where idx[c.name] == nil { idx[c.name] = n }
            deferred.compiled = try CompiledFilter.compile(.and(deferred.trees), table: ts, colIndex: idx)
        }
        return rest
    }

    /// Whether a logic tree has a leaf naming an embed of this level rather than a column.
    private func namesEmbed(_ f: RowFilter) -> Bool {
        var todo = [f]
        while let g = todo.popLast() {
            switch g {
            case .condition(let column, _, _, _):
                if table.columnIndex(column) == nil, embeds.contains(where: { $0.0 == column }) { return true }
            case .and(let parts), .or(let parts): todo += parts
            case .not(let inner): todo.append(inner)
            }
        }
        return false
    }

    static func noRelationship(_ parent: String, _ child: String, hint: String?, schema: DatabaseSchema) -> PostgresError {
        Relationship.notFound(parent, child, hint: hint, schema: schema)
    }

    // MARK: Rendering

    /// Renders rows as JSON object texts (row_to_json framing), dropping rows whose `!inner`
    /// embeds or null filters exclude them. Embedded rows are read under the same role, so RLS
    /// applies to them.
    func render(_ rows: [[SQLValue]], database: Database, auth: AuthContext, snapshot: Snapshot? = nil) throws -> [String] {
        if let countOnly { return [Self.object([(countOnly, String(rows.count))], jsonb: false)] }
        if isPlain { return rows.map(plainText) }
        return try renderRows(rows, database: database, auth: auth, jsonb: false, snapshot: snapshot).map { $0.text }
    }

    /// Whether every field is a plain column (no embeds, JSON paths or casts): a row's text is
    /// then `plainText(_:)`, a function of its values alone (and the session time zone).
    var isPlain: Bool {
        countOnly == nil && aggregates.isEmpty && embeds.isEmpty
            && !fields.contains(where: {
                if case .jsonPath = $0 { return true }; if case .column(_, _, _, let c) = $0 { return c != nil }; return false
            })
    }

    /// A row's object text when `isPlain`: keys escaped once per plan, values written straight.
    func plainText(_ row: [SQLValue]) -> String {
        var s = "{"
        s.reserveCapacity(32 * fields.count)
        for (n, f) in fields.enumerated() {
            if case .column(_, let i, let type, _) = f {
                s += keyPrefixes[n]
                row[i].write(to: &s, as: type)
            }
        }
        s += "}"
        return s
    }

    /// Rendered rows with, for ordering by related columns, each row's to-one embedded rows.
    struct Rendered {
        var text: String
        var source: [SQLValue]
        var related: [String: [SQLValue]?]
        /// Each shown embed's printed value (jsonb text), by output name, for CSV cells.
        var embedded: [String: String] = [:]
    }

    /// Embedded rows read ahead of a write. PostgREST renders a write's representation in the
    /// same statement as the write (a data-modifying CTE), whose outer query sees the tables as
    /// they were before it: children a DELETE cascades away still appear, rows it inserts do not.
    final class Snapshot {
        var fetched: [ObjectIdentifier: (rows: [[SQLValue]], junction: [[SQLValue]])] = [:]
    }

    /// Reads every embed's rows (all levels) into a snapshot.
    func snapshot(database: Database, auth: AuthContext) throws -> Snapshot {
        let snap = Snapshot()
        var todo = [self]
        while let plan = todo.popLast() {
            for (_, e) in plan.embeds {
                snap.fetched[ObjectIdentifier(e)] = try Self.read(e, database: database, auth: auth)
                todo.append(e.plan)
            }
        }
        return snap
    }

    private static func read(_ e: Embed, database: Database, auth: AuthContext) throws -> (rows: [[SQLValue]], junction: [[SQLValue]]) {
        // An order naming a related column sorts the rendered rows instead (`renderEmbed`).
        let order = e.range.order.contains { $0.column.contains("(") } ? [] : e.range.order
        let rows = try database.select(from: e.rel.target.qualifiedName, as: auth, where: e.filter, order: order).rows
        var junction: [[SQLValue]] = []
        if let j = e.rel.junction { junction = try database.select(from: j.table.qualifiedName, as: auth).rows }
        return (rows, junction)
    }

    /// The rows of every embed, fetched once per plan level (or taken from a snapshot).
    private func fetch(database: Database, auth: AuthContext, snapshot: Snapshot?) throws -> [Int: (rows: [[SQLValue]], junction: [[SQLValue]])] {
        var out: [Int: (rows: [[SQLValue]], junction: [[SQLValue]])] = [:]
        for (n, f) in fields.enumerated() {
            let e: Embed
            switch f {
            case .embed(_, let x), .spread(let x): e = x
            default: continue
            }
            out[n] = try snapshot?.fetched[ObjectIdentifier(e)] ?? Self.read(e, database: database, auth: auth)
        }
        return out
    }

    /// The embedded rows of one parent row, in the embed's order, before its range.
    private func matches(_ e: Embed, parent row: [SQLValue], rows: [[SQLValue]], junction: [[SQLValue]]) -> [[SQLValue]] {
        let rel = e.rel
        if let j = rel.junction {
            let key = j.sourceParentCols.map { row[$0] }
            if key.contains(where: \.isNull) { return [] }
            let links = junction.filter { jr in zip(j.sourceJunctionCols, key).allSatisfy { jr[$0] == $1 } }
                .map { jr in j.targetJunctionCols.map { jr[$0] } }
            return rows.filter { r in links.contains { link in zip(j.targetCols, link).allSatisfy { r[$0] == $1 } } }
        }
        let key = rel.parentCols.map { row[$0] }
        if key.contains(where: \.isNull) { return [] }
        return rows.filter { r in zip(rel.childCols, key).allSatisfy { r[$0] == $1 } }
    }

    func renderRows(_ rows: [[SQLValue]], database: Database, auth: AuthContext, jsonb: Bool, snapshot: Snapshot? = nil) throws -> [Rendered] {
        if let countOnly {
            return [Rendered(text: Self.object([(countOnly, String(rows.count))], jsonb: jsonb), source: [], related: [:])]
        }
        if !groupsRows { return try renderRows(rows, groups: nil, database: database, auth: auth, jsonb: jsonb, snapshot: snapshot) }
        // Only aggregates: one row over all rows, even none (an aggregate without GROUP BY).
        if fields.isEmpty { return try renderRows([[]], groups: [rows], database: database, auth: auth, jsonb: jsonb, snapshot: snapshot) }
        // GROUP BY the other fields: rows whose other fields print alike form one group, in the
        // order their first rows come (the rows' order, so `order` on a grouped column holds).
        let keyed = try renderRows(rows, groups: nil, database: database, auth: auth, jsonb: jsonb, snapshot: snapshot)
        var order: [String] = []
        var members: [String: [[SQLValue]]] = [:]
        for r in keyed {
            if members[r.text] == nil { order.append(r.text) }
            members[r.text, default: []].append(r.source)
        }
        let groups = order.map { members[$0]! }
        return try renderRows(groups.map { $0[0] }, groups: groups, database: database, auth: auth, jsonb: jsonb, snapshot: snapshot)
    }

    /// How many of `rows` a grouped list folds: those its embeds' filters keep, before grouping.
    func ungroupedCount(_ rows: [[SQLValue]], database: Database, auth: AuthContext) throws -> Int {
        guard hasInnerFilter else { return rows.count }
        return try renderRows(rows, groups: nil, database: database, auth: auth, jsonb: false, snapshot: nil).count
    }

    /// Rows printed field by field; with `groups` (one per row), the aggregates computed over
    /// each row's group printed among them, else left out.
    private func renderRows(
        _ rows: [[SQLValue]], groups: [[[SQLValue]]]?, database: Database, auth: AuthContext, jsonb: Bool, snapshot: Snapshot?
    ) throws -> [Rendered] {
        let fetched = try fetch(database: database, auth: auth, snapshot: snapshot)
        var out: [Rendered] = []
        out.reserveCapacity(rows.count)
        rowLoop: for (rowNumber, row) in rows.enumerated() {
            // (key, value text) pairs in select order.
            var pairs: [(String, String)] = []
            var related: [String: [SQLValue]?] = [:]
            var embedded: [String: String] = [:]
            var found: [String: Bool] = [:]
            func addAggregates(at position: Int) throws {
                guard let groups else { return }
                for (p, a) in aggregates where p == position {
                    let (v, t) = try a.value(groups[rowNumber])
                    pairs.append((a.out, try Self.cell(v, type: t, cast: a.cast, jsonb: jsonb)))
                }
            }
            for (n, f) in fields.enumerated() {
                try addAggregates(at: n)
                switch f {
                case .column(let name, let i, let type, let cast):
                    pairs.append((name, try Self.cell(row[i], type: type, cast: cast, jsonb: jsonb)))
                case .jsonPath(let name, let i, let type, let path, let cast):
                    let v = path.evaluate(row[i], type: type)
                    pairs.append((name, try Self.cell(v.value, type: v.type, cast: cast, jsonb: jsonb)))
                case .embed(let name, let e):
                    let (kids, text) = try renderEmbed(e, row: row, fetched: fetched[n]!, database: database, auth: auth, snapshot: snapshot)
                    if e.inner && kids.isEmpty { continue rowLoop }
                    if let want = e.nullFilter, want != kids.isEmpty { continue rowLoop }
                    if !e.toMany { related[name] = kids.first?.source }
                    found[name] = !kids.isEmpty
                    if !e.empty {
                        pairs.append((name, text))
                        embedded[name] = text
                    }
                case .spread(let e) where e.hoists && groups != nil:
                    // The hoisted aggregates over the group's joined rows (a row per parent row
                    // that has one, repeated when parents share it), the other fields from the first.
                    let joined = try groups![rowNumber].compactMap { try hoistedRow(e, parent: $0, fetched: fetched[n]!) }
                    let first = joined.first ?? Array(repeating: SQLValue.null, count: e.rel.target.columns.count)
                    let kids = try e.plan.renderRows([first], groups: [joined], database: database, auth: auth, jsonb: true, snapshot: snapshot)
                    if let name = e.spreadName {
                        related[name] = joined.first
                        found[name] = !joined.isEmpty
                    }
                    pairs += try spreadPairs(e, kids: kids, database: database, auth: auth)
                case .spread(let e):
                    // Grouping a hoisting spread's rows: its fields without the aggregates.
                    let (kids, _) = try renderEmbed(
                        e, row: row, fetched: fetched[n]!, database: database, auth: auth, snapshot: snapshot, withoutAggregates: e.hoists)
                    if e.inner && kids.isEmpty { continue rowLoop }
                    if let want = e.nullFilter, want != kids.isEmpty { continue rowLoop }
                    // A to-one spread can order its parent's rows too (`processes.order=process_costs(cost)`).
                    if !e.toMany, let name = e.spreadName { related[name] = kids.first?.source }
                    if let name = e.spreadName { found[name] = !kids.isEmpty }
                    pairs += try spreadPairs(e, kids: kids, database: database, auth: auth)
                }
            }
            try addAggregates(at: fields.count)
            if let test = deferred.compiled {
                let marks = embeds.compactMap(\.0).map { found[$0] == true ? SQLValue.bool(true) : .null }
                if !test.test(row + marks) { continue rowLoop }
            }
            out.append(Rendered(text: Self.object(pairs, jsonb: jsonb), source: row, related: related, embedded: embedded))
        }
        return out
    }

    /// Sorts rendered rows by `order` terms where `rel(col)` names a column of a to-one embed
    /// (PostgREST's `OrderRelationTerm`; the embed must be in `select` and to-one), at the top
    /// level or inside an embed (`tasks.order=projects(id).desc`).
    static func sortByRelated(_ rows: [Rendered], _ order: [OrderTerm], plan: SelectPlan, database: Database) throws -> [Rendered] {
        var columns = plan.table.columns
        var extra: [(rel: String, index: Int, path: JSONPath?, type: SQLType)] = []
        var terms: [OrderTerm] = []
        for term in order {
            guard let open = term.column.firstIndex(of: "("), term.column.hasSuffix(")") else { terms.append(term); continue }
            let rel = String(term.column[..<open])
            let col = String(term.column[term.column.index(after: open)..<term.column.index(before: term.column.endIndex)])
            guard let e = plan.embeds.first(where: { $0.0 == rel })?.1 else {
                throw PostgresError(
                    "PGRST108", "'\(rel)' is not an embedded resource in this request",
                    hint: "Verify that '\(rel)' is included in the 'select' query parameter.")
            }
            guard !e.toMany else {
                throw PostgresError(
                    "PGRST118", "A related order on '\(rel)' is not possible",
                    details: "'\(plan.table.name)' and '\(rel)' do not form a many-to-one or one-to-one relationship")
            }
            // The related column may carry a JSON path (`trash_details(jsonb_col->key)`).
            let (base, path) = JSONPath.split(col).map { ($0.0, Optional($0.1)) } ?? (col, nil)
            // The embed's lateral subquery is what the order names, so an alias it selects a
            // column under is that column (`order=process_categories(category)` with `category:name`).
            let aliased = e.plan.fields.lazy.compactMap { f -> Int? in
                if case .column(let out, let i, _, nil) = f, out == base { return i }
                return nil
            }.first
            guard let i = aliased ?? e.rel.target.columnIndex(base) else { throw PostgresError("42703", "column \(rel).\(col) does not exist") }
            let synthetic = "\u{1}\(extra.count)"
            let baseType = e.rel.target.columns[i].type
            let type: SQLType = path.map { ($0.steps.last?.asText ?? false) ? .text : .jsonb } ?? baseType
            columns.append(ColumnSchema(name: synthetic, type: type, nullable: true))
            extra.append((rel, i, path, baseType))
            var t = term
            t.column = synthetic
            terms.append(t)
        }
        let ts = TableSchema(
            name: plan.table.name, schema: plan.table.schema, columns: columns, primaryKey: [], uniques: [], foreignKeys: [], checks: [], isView: true,
            decisions: [])
        let idx = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0) })
        let keyed = rows.enumerated().map { n, r in
            r.source
                + extra.map { x -> SQLValue in
                    let v = (r.related[x.rel] ?? nil)?[x.index] ?? .null
                    return x.path.map { $0.evaluate(v, type: x.type).value } ?? v
                } + [.int(Int64(n))]
        }
        let sorted = try database.sort(keyed, terms, Database.Table(schema: ts, colIndex: idx, rows: []))
        return sorted.map { r in
            if case .int(let n) = r.last! { return rows[Int(n)] }; return rows[0]
        }
    }

    /// A hoisting spread's joined row for one parent row (its lateral subquery's one row), if any.
    private func hoistedRow(_ e: Embed, parent: [SQLValue], fetched: (rows: [[SQLValue]], junction: [[SQLValue]])) throws -> [SQLValue]? {
        let found = matches(e, parent: parent, rows: fetched.rows, junction: fetched.junction)
        return found.dropFirst(e.range.offset).prefix(e.range.limit ?? found.count).first
    }

    /// An embed's rendered rows for one parent and its printed value (jsonb); `withoutAggregates`
    /// prints a hoisting spread's other fields only (the key its parent groups by).
    private func renderEmbed(
        _ e: Embed, row: [SQLValue], fetched: (rows: [[SQLValue]], junction: [[SQLValue]]),
        database: Database, auth: AuthContext, snapshot: Snapshot?, withoutAggregates: Bool = false
    ) throws -> ([Rendered], String) {
        let found = matches(e, parent: row, rows: fetched.rows, junction: fetched.junction)
        var kids =
            withoutAggregates
            ? try e.plan.renderRows(found, groups: nil, database: database, auth: auth, jsonb: true, snapshot: snapshot)
            : try e.plan.renderRows(found, database: database, auth: auth, jsonb: true, snapshot: snapshot)
        if e.range.order.contains(where: { $0.column.contains("(") }) {
            kids = try Self.sortByRelated(kids, e.range.order, plan: e.plan, database: database)
        }
        // limit/offset apply to a to-one embed's lateral subquery too: `project.offset=1` leaves
        // no parent row, so the embed is null (QueryLimitedSpec, "can offset the parent embed").
        let start = min(e.range.offset, kids.count)
        let end = e.range.limit.map { min(start + $0, kids.count) } ?? kids.count
        kids = Array(kids[start..<end])
        if e.toMany { return (kids, "[" + kids.map(\.text).joined(separator: ", ") + "]") }
        return (kids, kids.first?.text ?? "null")
    }

    /// The fields of a spread embed: to-one gives the related row's values (null without one);
    /// to-many gives, per field, the array of its values.
    private func spreadPairs(_ e: Embed, kids: [Rendered], database: Database, auth: AuthContext) throws -> [(String, String)] {
        let names = e.plan.outputNames
        if e.toMany {
            let objects = kids.compactMap { try? JSONValue.parse($0.text).objectValue }
            return names.map { name in
                var s = ""
                JSONValue.array(objects.map { $0[name] ?? .null }).write(to: &s, style: .jsonb, indent: 0)
                return (name, s)
            }
        }
        guard let kid = kids.first, let o = try? JSONValue.parse(kid.text).objectValue else { return names.map { ($0, "null") } }
        // A to-one spread selects the related columns as they are (QueryBuilder.hs
        // `pgFmtSpreadSelectItem`, no jsonb cast), so a json column keeps its text.
        var kept: [String: String] = [:]
        for case .column(let name, let i, .json, nil) in e.plan.fields {
            if i < kid.source.count, case .jsonText(let t) = kid.source[i] { kept[name] = t.text }
        }
        return names.map { name in
            if let text = kept[name] { return (name, text) }
            var s = ""
            (o[name] ?? .null).write(to: &s, style: .jsonb, indent: 0)
            return (name, s)
        }
    }

    /// Output names in select order (spreads contribute their own).
    var outputNames: [String] {
        if let countOnly { return [countOnly] }
        var names: [String] = []
        for (n, f) in fields.enumerated() {
            names += aggregates.filter { $0.position == n }.map(\.aggregate.out)
            switch f {
            case .column(let o, _, _, _), .jsonPath(let o, _, _, _, _): names.append(o)
            case .embed(let o, let e): if !e.empty { names.append(o) }
            case .spread(let e): names += e.plan.outputNames
            }
        }
        return names + aggregates.filter { $0.position == fields.count }.map(\.aggregate.out)
    }

    /// PostgREST's CSV (SqlFragment.hs `asCsvF`): the first row's keys as the header, then each
    /// row as its record text without the parentheses (NULL empty; values with a quote, a
    /// backslash, a comma, a parenthesis or white space, and empty strings, double-quoted with
    /// `"` and `\` doubled), lines joined by `\n`; no rows give a lone line feed. An embed's cell
    /// is its jsonb text from `embedded` (the rendered rows' `embedded`, row by row), empty for
    /// a to-one embed without a row (NULL).
    func csv(_ rows: [[SQLValue]], embedded: [[String: String]]? = nil) -> String {
        if let countOnly { return countOnly + "\n" + String(rows.count) }
        let header = rows.isEmpty ? "" : outputNames.joined(separator: ",")
        func quote(_ s: String) -> String {
            let special = s.isEmpty || s.contains { "\"\\(),".contains($0) || $0.isWhitespace }
            guard special else { return s }
            return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        let lines = rows.enumerated().map { k, row in
            fields.flatMap { f -> [String] in
                switch f {
                case .column(_, let i, let type, let cast):
                    if row[i].isNull { return [""] }
                    if let cast, let v = try? SQLValue.parse(text: row[i].pgText(as: type), as: cast) { return [quote(v.pgText(as: cast))] }
                    return [quote(row[i].pgText(as: type))]
                case .jsonPath(_, let i, let type, let path, _):
                    let v = path.evaluate(row[i], type: type)
                    if v.value.isNull { return [""] }
                    if case .json(let j) = v.value { return [quote(j.serialized(.jsonb))] }
                    if case .jsonText(let j) = v.value { return [quote(j.text)] }
                    return [quote(v.value.pgText(as: v.type))]
                case .embed(let name, let e):
                    if e.empty { return [] }
                    guard let embedded, k < embedded.count, let text = embedded[k][name], text != "null" else { return [""] }
                    return [quote(text)]
                case .spread: return []
                }
            }.joined(separator: ",")
        }
        return header + "\n" + lines.joined(separator: "\n")
    }

    /// One cell as `row_to_json` (json) or `::jsonb` prints it, after an optional cast.
    /// A selected value, cast through its text as PostgreSQL's `::type` does: a value the cast
    /// cannot read fails the statement (`settings->foo->>bar::integer` on `"baz"` is 22P02).
    static func cell(_ v: SQLValue, type: SQLType, cast: SQLType?, jsonb: Bool) throws -> String {
        var s = ""
        var value = v, t = type
        if let cast, !v.isNull {
            let text = v.pgText(as: type)
            if cast == .json || cast == .jsonb, case .json = v {
                t = cast
            } else if cast == .jsonb, case .jsonText(let j) = v {
                // `json::jsonb` reads the text as jsonb does (duplicates dropped, keys sorted).
                (value, t) = (.json(j.value), .jsonb)
            } else if cast == .json, case .jsonText = v {
                t = cast
            } else {
                value = try SQLValue.parse(text: text, as: cast)
                t = cast
            }
        }
        if jsonb, case .numeric(let n) = value {
            s = n.jsonText
        } else if jsonb {
            value.json(as: t).write(to: &s, style: .jsonb, indent: 0)
        } else {
            value.write(to: &s, as: t)
        }
        return s
    }

    /// `{…}` from key/value texts: select order for json; for jsonb, keys by length then bytes,
    /// the last of duplicates kept.
    static func object(_ pairs: [(String, String)], jsonb: Bool) -> String {
        var ordered = pairs
        if jsonb {
            var last: [String: Int] = [:]
            for (i, p) in pairs.enumerated() { last[p.0] = i }
            ordered = pairs.enumerated().filter { last[$0.element.0] == $0.offset }.map(\.element)
            ordered.sort { a, b in
                let x = Array(a.0.utf8), y = Array(b.0.utf8)
                return x.count != y.count ? x.count < y.count : x.lexicographicallyPrecedes(y)
            }
        }
        var s = "{"
        for (i, p) in ordered.enumerated() {
            if i > 0 { s += jsonb ? ", " : "," }
            JSONValue.writeString(p.0, to: &s)
            s += jsonb ? ": " : ":"
            s += p.1
        }
        return s + "}"
    }
}
