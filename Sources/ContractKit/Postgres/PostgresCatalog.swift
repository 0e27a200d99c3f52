import Foundation

/// What PostgreSQL's catalog says about a relation, in the terms of schema.json.
package struct CatalogRelation: Sendable, Equatable {
    package struct Column: Sendable, Equatable {
        package var name: String
        /// `format_type` of the column.
        package var type: String
        /// Whether NULL is allowed.
        package var nullable: Bool
        /// The default expression as `pg_get_expr` prints it (a generated column's expression).
        package var defaultSQL: String?
        /// `attgenerated = 's'`: a stored generated column, `defaultSQL` its expression.
        package var generated: Bool = false
    }
    /// One constraint (primary key, unique, foreign key, check) or unique index.
    package struct Constraint: Sendable, Equatable {
        package var name: String
        /// `p`, `u`, `f`, `c`, or `i` for a unique index that is not a constraint.
        package var type: String
        /// Columns in order.
        package var columns: [String]
        /// Foreign keys: the referenced table (`public.cities`, `auth.users`).
        package var refTable: String?
        /// Foreign keys: the referenced columns.
        package var refColumns: [String]
        /// Foreign keys: `a` no action, `r` restrict, `c` cascade, `n` set null, `d` set default.
        package var onDelete: String?
    }
    package var schema: String
    package var name: String
    /// `r` table, `p` partitioned table, `v` view, `m` materialized view.
    package var kind: String
    /// Whether row-level security is enabled.
    package var rlsEnabled: Bool
    /// Columns in order.
    package var columns: [Column]
    /// Constraints and unique indexes, by name.
    package var constraints: [Constraint]
    /// Indexes that back no constraint (`pg_index`), by name.
    package var indexes: [CatalogIndex] = []
    /// Triggers that are not internal (`pg_trigger`), by name.
    package var triggers: [CatalogTrigger] = []
    /// A view's target entries as its `_RETURN` rule stores them (`pg_rewrite.ev_action`): each
    /// output name with the relation and column it reads unchanged (`resorigtbl`/`resorigcol`,
    /// nil for a computed value), subqueries' entries first. Empty for a table.
    package var viewSources: [ViewSource] = []

    package struct ViewSource: Sendable, Equatable {
        package var column: String
        /// Qualified (`public.projects`).
        package var from: String?
        package var fromColumn: String?
    }
}

/// Reads an app's relations from PostgreSQL's catalog and compares them with schema.json.
package enum PostgresCatalog {
    /// The catalog query: one JSON document with every relation of `public` and `auth` and the
    /// enum types of `public`.
    package static let query = """
        select jsonb_build_object(
          'relations', coalesce((select jsonb_agg(jsonb_build_object(
              'schema', n.nspname, 'name', c.relname, 'kind', c.relkind::text, 'rls', c.relrowsecurity,
              'columns', coalesce((select jsonb_agg(jsonb_build_object(
                  'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'notnull', a.attnotnull,
                  'default', pg_get_expr(d.adbin, d.adrelid), 'generated', a.attgenerated = 's') order by a.attnum)
                from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
                where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]'::jsonb),
              'constraints', coalesce((select jsonb_agg(x order by x->>'name') from (
                  select jsonb_build_object('name', con.conname, 'type', con.contype::text,
                    'columns', (select jsonb_agg(att.attname order by k.ord) from unnest(con.conkey) with ordinality k(num, ord)
                                join pg_attribute att on att.attrelid = con.conrelid and att.attnum = k.num),
                    'refTable', (select rn.nspname || '.' || rc.relname from pg_class rc join pg_namespace rn on rn.oid = rc.relnamespace where rc.oid = con.confrelid),
                    'refColumns', (select jsonb_agg(att.attname order by k.ord) from unnest(con.confkey) with ordinality k(num, ord)
                                join pg_attribute att on att.attrelid = con.confrelid and att.attnum = k.num),
                    'onDelete', case when con.contype = 'f' then con.confdeltype::text end) as x
                  from pg_constraint con where con.conrelid = c.oid and con.contype in ('p', 'u', 'f', 'c')
                  union all
                  select jsonb_build_object('name', ic.relname, 'type', 'i',
                    'columns', (select jsonb_agg(att.attname order by k.ord) from unnest(i.indkey::int2[]) with ordinality k(num, ord)
                                join pg_attribute att on att.attrelid = i.indrelid and att.attnum = k.num))
                  from pg_index i join pg_class ic on ic.oid = i.indexrelid
                  where i.indrelid = c.oid and i.indisunique and not exists (select 1 from pg_constraint pc where pc.conindid = i.indexrelid)
                ) s), '[]'::jsonb),
              'indexes', coalesce((select jsonb_agg(jsonb_build_object(
                  'name', ic.relname, 'method', am.amname, 'unique', i.indisunique,
                  'predicate', pg_get_expr(i.indpred, i.indrelid),
                  'keys', (select jsonb_agg(jsonb_build_object(
                      'column', pg_get_indexdef(i.indexrelid, k.ord, true),
                      'desc', (i.indoption[k.ord - 1] & 1) = 1,
                      'opclass', (select case when oc.opcdefault then null else oc.opcname end from pg_opclass oc where oc.oid = i.indclass[k.ord - 1])
                    ) order by k.ord) from generate_series(1, i.indnkeyatts::int) k(ord))) order by ic.relname)
                from pg_index i join pg_class ic on ic.oid = i.indexrelid join pg_am am on am.oid = ic.relam
                where i.indrelid = c.oid and not exists (select 1 from pg_constraint pc where pc.conindid = i.indexrelid)), '[]'::jsonb),
              'triggers', coalesce((select jsonb_agg(jsonb_build_object('name', tg.tgname, 'type', tg.tgtype::int,
                  'function', case when pn.nspname = 'public' then p.proname else pn.nspname || '.' || p.proname end) order by tg.tgname)
                from pg_trigger tg join pg_proc p on p.oid = tg.tgfoid join pg_namespace pn on pn.oid = p.pronamespace
                where tg.tgrelid = c.oid and not tg.tgisinternal), '[]'::jsonb),
              'sources', case when c.relkind = 'v' then coalesce((select jsonb_agg(jsonb_build_object('column', m.g[1],
                  'from', (select rn.nspname || '.' || rc.relname from pg_class rc join pg_namespace rn on rn.oid = rc.relnamespace where rc.oid = m.g[2]::oid),
                  'fromColumn', (select a.attname from pg_attribute a where a.attrelid = m.g[2]::oid and a.attnum = m.g[3]::int2)) order by m.ord)
                from pg_rewrite rw, regexp_matches(rw.ev_action::text, ':resname (\\S+) :ressortgroupref \\d+ :resorigtbl (\\d+) :resorigcol (\\d+)', 'g')
                  with ordinality m(g, ord)
                where rw.ev_class = c.oid and rw.rulename = '_RETURN'), '[]'::jsonb) end)
            order by n.nspname, c.relname)
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname in ('public', 'auth') and c.relkind in ('r', 'p', 'v', 'm')), '[]'::jsonb),
          'enums', coalesce((select jsonb_object_agg(t.typname, (select jsonb_agg(e.enumlabel order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid))
            from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname = 'public' and t.typtype = 'e'), '{}'::jsonb))
        """

    /// The relations and enums of the database a target is connected to. `prelude` runs first in
    /// the same (rolled-back) transaction, e.g. a mutant's DDL.
    package static func read(_ target: PostgresTarget, prelude: [String] = []) throws -> (relations: [CatalogRelation], enums: [String: [String]]) {
        let rows = try target.query("select (\(query)) as doc", prelude: prelude).get()
        guard let doc = rows.first?["doc"] else { throw PostgresUnavailable("catalog query returned nothing") }
        var relations: [CatalogRelation] = []
        for r in doc["relations"]?.arrayValue ?? [] {
            let cols = (r["columns"]?.arrayValue ?? []).map { c in
                CatalogRelation.Column(
                    name: c["name"]?.stringValue ?? "", type: c["type"]?.stringValue ?? "",
                    nullable: !(c["notnull"]?.boolValue ?? false), defaultSQL: c["default"]?.stringValue,
                    generated: c["generated"]?.boolValue ?? false)
            }
            let cons = (r["constraints"]?.arrayValue ?? []).map { k in
                CatalogRelation.Constraint(
                    name: k["name"]?.stringValue ?? "", type: k["type"]?.stringValue ?? "",
                    columns: (k["columns"]?.arrayValue ?? []).compactMap(\.stringValue),
                    refTable: k["refTable"]?.stringValue,
                    refColumns: (k["refColumns"]?.arrayValue ?? []).compactMap(\.stringValue),
                    onDelete: k["onDelete"]?.stringValue)
            }
            var relation = CatalogRelation(
                schema: r["schema"]?.stringValue ?? "", name: r["name"]?.stringValue ?? "",
                kind: r["kind"]?.stringValue ?? "", rlsEnabled: r["rls"]?.boolValue ?? false,
                columns: cols, constraints: cons)
            relation.indexes = (r["indexes"]?.arrayValue ?? []).map(CatalogIndex.init(json:))
            relation.triggers = (r["triggers"]?.arrayValue ?? []).map(CatalogTrigger.init(json:))
            relation.viewSources = (r["sources"]?.arrayValue ?? []).map {
                CatalogRelation.ViewSource(column: $0["column"]?.stringValue ?? "", from: $0["from"]?.stringValue, fromColumn: $0["fromColumn"]?.stringValue)
            }
            relations.append(relation)
        }
        var enums: [String: [String]] = [:]
        for (k, v) in doc["enums"]?.objectValue ?? [:] { enums[k] = (v.arrayValue ?? []).compactMap(\.stringValue) }
        return (relations, enums)
    }

    static let onDeleteCodes: [String: OnDelete] = ["a": .noAction, "r": .restrict, "c": .cascade, "n": .setNull, "d": .setDefault]

    /// Whether PostgreSQL's default expression is the contract's default.
    package static func defaultMatches(_ expected: ColumnDefault?, _ actual: String?, type: SQLType) -> Bool {
        guard let expected else { return actual == nil }
        // An identity column has no default expression in the catalog (`attidentity` holds it).
        if case .identity = expected { return actual == nil }
        guard var a = actual?.trimmingCharacters(in: .whitespaces) else { return false }
        switch expected {
        case .genRandomUUID: return ["gen_random_uuid()", "extensions.uuid_generate_v4()", "uuid_generate_v4()"].contains(a)
        case .now: return ["now()", "CURRENT_TIMESTAMP", "statement_timestamp()", "transaction_timestamp()"].contains(a)
        case .currentDate: return a == "CURRENT_DATE"
        case .authUID: return a == "auth.uid()"
        case .serial: return a.hasPrefix("nextval(") && a.hasSuffix("::regclass)")
        case .identity: return false
        case .value(let v):
            guard let want = try? SQLValue.coerce(json: v, to: type) else { return false }
            // `'text'::type`, `(-1)`, `5.0`, `true`, `ARRAY[]::text[]`, `ARRAY['a'::text, 'b'::text]`.
            while a.hasPrefix("("), a.hasSuffix(")") { a = String(a.dropFirst().dropLast()) }
            if a.hasPrefix("ARRAY["), case .array(let elem) = type {
                let open = a.index(a.startIndex, offsetBy: 6)
                var close = open, depth = 1, quoted = false
                while close < a.endIndex {
                    let ch = a[close]
                    if ch == "'" { quoted.toggle() }
                    if !quoted && ch == "[" { depth += 1 }
                    if !quoted && ch == "]" { depth -= 1; if depth == 0 { break } }
                    close = a.index(after: close)
                }
                guard close < a.endIndex else { return false }
                let inner = String(a[open..<close])
                guard case .array(let items) = want else { return false }
                let parts = splitTopLevel(inner)
                guard parts.count == items.count else { return false }
                for (p, item) in zip(parts, items) {
                    guard defaultMatches(.value(item.json(as: elem)), p, type: elem) else { return false }
                }
                return true
            }
            var literal = a
            if a.hasPrefix("'"), let close = a.dropFirst().range(of: "'::") {
                literal = String(a[a.index(after: a.startIndex)..<close.lowerBound]).replacingOccurrences(of: "''", with: "'")
            } else if let cast = a.range(of: "::") {
                literal = String(a[..<cast.lowerBound])
            }
            while literal.hasPrefix("("), literal.hasSuffix(")") { literal = String(literal.dropFirst().dropLast()) }
            guard let got = try? SQLValue.parse(text: literal, as: type) else { return false }
            if case .double(let x) = want, case .double(let y) = got { return x == y }
            // A json default is the same document whatever its spacing in the catalog's text.
            if case .jsonText(let x) = want, case .jsonText(let y) = got { return x.value == y.value }
            return want == got
        }
    }

    /// Splits `a, 'b, c'::text, (1)` at top-level commas (outside quotes and brackets).
    static func splitTopLevel(_ s: String) -> [String] {
        var parts: [String] = [], cur = "", depth = 0, quoted = false
        for ch in s {
            if ch == "'" { quoted.toggle() }
            if !quoted {
                if ch == "(" || ch == "[" { depth += 1 }
                if ch == ")" || ch == "]" { depth -= 1 }
                if ch == "," && depth == 0 { parts.append(cur.trimmingCharacters(in: .whitespaces)); cur = ""; continue }
            }
            cur.append(ch)
        }
        let last = cur.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty || !parts.isEmpty { parts.append(last) }
        return parts
    }

    /// Every difference between schema.json and the catalog, per relation (`public.cities`),
    /// one readable line each; a relation with no differences maps to an empty list.
    package static func compare(_ schema: DatabaseSchema, relations: [CatalogRelation], enums: [String: [String]]) -> [(
        relation: String, differences: [String]
    )] {
        var out: [(String, [String])] = []
        let byName = Dictionary(relations.map { ("\($0.schema).\($0.name)", $0) }, uniquingKeysWith: { a, _ in a })
        for t in schema.tables {
            var diffs: [String] = []
            let q = t.qualifiedName
            guard let r = byName[q] else {
                out.append((q, ["missing in PostgreSQL: schema.json declares \(t.isView ? "view" : "table") \(q)"]))
                continue
            }
            let isView = r.kind == "v" || r.kind == "m"
            if isView != t.isView { diffs.append("kind: schema.json says \(t.isView ? "view" : "table"), PostgreSQL has a \(isView ? "view" : "table")") }
            let want = t.columns.map(\.name), have = r.columns.map(\.name)
            for c in want where !have.contains(c) { diffs.append("column \(c): missing in PostgreSQL") }
            for c in have where !want.contains(c) { diffs.append("column \(c): in PostgreSQL, not in schema.json") }
            let common = want.filter(have.contains)
            if common != have.filter(want.contains) {
                diffs.append("column order: schema.json \(common.joined(separator: ", ")); PostgreSQL \(have.filter(want.contains).joined(separator: ", "))")
            }
            for c in t.columns {
                guard let pc = r.columns.first(where: { $0.name == c.name }) else { continue }
                // `varchar(n)`/`char(n)` print with their length (`format_type`).
                let want = c.domain?.name ?? c.length.map { "\($0.padded ? "character" : "character varying")(\($0.limit))" } ?? c.type.description
                if want != pc.type { diffs.append("column \(c.name): type: schema.json \(want), PostgreSQL \(pc.type)") }
                if !isView && c.nullable != pc.nullable {
                    diffs.append(
                        "column \(c.name): schema.json says \(c.nullable ? "nullable" : "NOT NULL"), PostgreSQL \(pc.nullable ? "nullable" : "NOT NULL")")
                }
                if !isView, let diff = generationDifference(c, pc) {
                    diffs.append(diff)
                } else if !c.isGenerated && !pc.generated && !defaultMatches(c.defaultValue, pc.defaultSQL, type: c.type) {
                    // A view column's default is its own (`ALTER VIEW … SET DEFAULT`), compared too.
                    diffs.append("column \(c.name): default: schema.json \(c.defaultValue?.sql ?? "none"), PostgreSQL \(pc.defaultSQL ?? "none")")
                }
            }
            if r.kind == "v", let def = t.simpleView { diffs += compareViewSources(t, def, r, schema) }
            if !isView {
                diffs += compareConstraints(t, r)
                if schema.declaresIndexes { diffs += CatalogIndex.compare(t.indexDefinitions ?? [], r.indexes) }
                if let triggers = schema.triggers {
                    diffs += CatalogTrigger.compare(triggers.filter { $0.qualifiedTable == q }, r.triggers)
                }
                if t.schema == "public" && !r.rlsEnabled { diffs.append("row-level security is not enabled") }
            }
            out.append((q, diffs))
        }
        let declared = Set(schema.tables.map(\.qualifiedName))
        for r in relations where r.schema == "public" && !declared.contains("\(r.schema).\(r.name)") {
            out.append(("\(r.schema).\(r.name)", ["in PostgreSQL, not declared in schema.json"]))
        }
        var enumDiffs: [String] = []
        for (name, labels) in schema.enums.sorted(by: { $0.key < $1.key }) {
            let have = enums[name]
            if have == nil { enumDiffs.append("enum \(name): missing in PostgreSQL") }
            if let have, have != labels { enumDiffs.append("enum \(name): schema.json \(labels), PostgreSQL \(have)") }
        }
        for name in enums.keys.sorted() where schema.enums[name] == nil { enumDiffs.append("enum \(name): in PostgreSQL, not in schema.json") }
        if !schema.enums.isEmpty || !enums.isEmpty { out.append(("enums", enumDiffs)) }
        return out
    }

    /// A simple view's columns against what its rule reads: each view column shows the column
    /// of `from` that `renamed` (or its own name) says. The last entry of a name is the view's
    /// own (a WHERE's subqueries are stored before the target list).
    static func compareViewSources(_ t: TableSchema, _ def: SimpleViewDefinition, _ r: CatalogRelation, _ schema: DatabaseSchema) -> [String] {
        let from = schema.table(def.base)?.qualifiedName ?? def.base
        var diffs: [String] = []
        for c in t.columns {
            let want = def.sourceColumn(c.name).map { "\(from).\($0)" }
            let entry = r.viewSources.last { $0.column == c.name }
            let have = entry.flatMap { e in e.from.flatMap { f in e.fromColumn.map { "\(f).\($0)" } } }
            if have != want {
                diffs.append("view column \(c.name): schema.json shows \(want ?? "a computed value"), PostgreSQL \(have ?? "a computed value")")
            }
        }
        return diffs
    }

    static func compareConstraints(_ t: TableSchema, _ r: CatalogRelation) -> [String] {
        var diffs: [String] = []
        let pk = r.constraints.first { $0.type == "p" }
        if t.primaryKey.isEmpty {
            if let pk { diffs.append("primary key: schema.json declares none, PostgreSQL has \(pk.name) (\(pk.columns.joined(separator: ", ")))") }
        } else if let pk {
            if pk.columns != t.primaryKey {
                diffs.append("primary key: schema.json (\(t.primaryKey.joined(separator: ", "))), PostgreSQL (\(pk.columns.joined(separator: ", ")))")
            }
            if pk.name != "\(t.name)_pkey" { diffs.append("primary key name: expected \(t.name)_pkey, PostgreSQL \(pk.name)") }
        } else {
            diffs.append("primary key (\(t.primaryKey.joined(separator: ", "))): missing in PostgreSQL")
        }
        let uniques = r.constraints.filter { $0.type == "u" || $0.type == "i" }
        for u in t.uniques {
            if let have = uniques.first(where: { $0.name == u.name }) {
                if have.columns != u.columns {
                    diffs.append("unique \(u.name): schema.json (\(u.columns.joined(separator: ", "))), PostgreSQL (\(have.columns.joined(separator: ", ")))")
                }
            } else if let other = uniques.first(where: { $0.columns == u.columns }) {
                diffs.append(
                    "unique (\(u.columns.joined(separator: ", "))): named \(u.name) in schema.json, \(other.name) in PostgreSQL (errors quote the name)")
            } else {
                diffs.append("unique \(u.name) (\(u.columns.joined(separator: ", "))): missing in PostgreSQL")
            }
        }
        for u in uniques where !t.uniques.contains(where: { $0.name == u.name || $0.columns == u.columns }) {
            diffs.append("unique \(u.name) (\(u.columns.joined(separator: ", "))): in PostgreSQL, not in schema.json")
        }
        let fks = r.constraints.filter { $0.type == "f" }
        for fk in t.foreignKeys {
            let ref = fk.refTable.contains(".") ? fk.refTable : "public.\(fk.refTable)"
            guard let have = fks.first(where: { $0.name == fk.name }) ?? fks.first(where: { $0.columns == fk.columns }) else {
                diffs.append("foreign key \(fk.name) (\(fk.columns.joined(separator: ", "))) → \(ref): missing in PostgreSQL")
                continue
            }
            if have.name != fk.name {
                diffs.append("foreign key (\(fk.columns.joined(separator: ", "))): named \(fk.name) in schema.json, \(have.name) in PostgreSQL")
            }
            if have.columns != fk.columns {
                diffs.append(
                    "foreign key \(fk.name): columns schema.json (\(fk.columns.joined(separator: ", "))), PostgreSQL (\(have.columns.joined(separator: ", ")))")
            }
            if have.refTable != ref || have.refColumns != fk.refColumns {
                diffs.append(
                    "foreign key \(fk.name): references schema.json \(ref)(\(fk.refColumns.joined(separator: ", "))), PostgreSQL \(have.refTable ?? "?")(\(have.refColumns.joined(separator: ", ")))"
                )
            }
            let od = have.onDelete.flatMap { onDeleteCodes[$0] }
            if od != fk.onDelete { diffs.append("foreign key \(fk.name): ON DELETE schema.json \(fk.onDelete.rawValue), PostgreSQL \(od?.rawValue ?? "?")") }
        }
        for have in fks where !t.foreignKeys.contains(where: { $0.name == have.name || $0.columns == have.columns }) {
            diffs.append("foreign key \(have.name) (\(have.columns.joined(separator: ", "))) → \(have.refTable ?? "?"): in PostgreSQL, not in schema.json")
        }
        let wantChecks = Set(t.columns.filter { $0.check != nil }.map { "\(t.name)_\($0.name)_check" } + t.checks.map(\.name))
        let haveChecks = Set(r.constraints.filter { $0.type == "c" }.map(\.name))
        for c in wantChecks.subtracting(haveChecks).sorted() { diffs.append("check \(c): missing in PostgreSQL") }
        for c in haveChecks.subtracting(wantChecks).sorted() { diffs.append("check \(c): in PostgreSQL, not in schema.json") }
        return diffs
    }

    /// Public tables (not views) without row-level security enabled.
    package static func tablesWithoutRLS(_ relations: [CatalogRelation]) -> [String] {
        relations.filter { $0.schema == "public" && ($0.kind == "r" || $0.kind == "p") && !$0.rlsEnabled }.map(\.name)
    }
}
