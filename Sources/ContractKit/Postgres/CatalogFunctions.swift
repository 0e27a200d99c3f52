import Foundation

/// A SQL function as PostgreSQL's catalog has it (`pg_proc`), in the terms of schema.json's
/// `functions`: input arguments, defaults, result, SECURITY DEFINER, volatility.
package struct CatalogFunction: Sendable, Equatable {
    /// `public`, `civicforge_private`.
    package var schema: String
    /// The function's name.
    package var name: String
    /// Input arguments (`proargmodes` i, b, v), `name type` each, as schema.json writes them.
    package var arguments: [String]
    /// `pronargdefaults`.
    package var defaults: Int
    /// `pg_get_function_result`.
    package var returns: String
    /// `prosecdef`.
    package var securityDefiner: Bool
    /// `provolatile`: `i`, `s` or `v`.
    package var volatility: String

    /// The name as schema.json writes it (qualified unless in `public`).
    package var declaredName: String { schema == "public" ? name : "\(schema).\(name)" }

    /// The definition the catalog states, in schema.json's terms.
    package var definition: FunctionDefinition {
        FunctionDefinition(
            name: declaredName, arguments: arguments, defaults: defaults, returns: returns,
            security: securityDefiner ? .definer : .invoker,
            volatility: ["i": .immutable, "s": .stable][volatility] ?? .volatile)
    }

    init(json: JSONValue) {
        schema = json["schema"]?.stringValue ?? ""
        name = json["name"]?.stringValue ?? ""
        arguments = (json["arguments"]?.arrayValue ?? []).compactMap { a -> String? in
            let mode = a["mode"]?.stringValue ?? "i"
            guard ["i", "b", "v"].contains(mode) else { return nil }
            let prefix = mode == "b" ? "INOUT " : mode == "v" ? "VARIADIC " : ""
            return prefix + "\(a["name"]?.stringValue ?? "") \(a["type"]?.stringValue ?? "")"
        }
        defaults = Int(json["defaults"]?.intValue ?? 0)
        returns = json["returns"]?.stringValue ?? ""
        securityDefiner = json["definer"]?.boolValue ?? false
        volatility = json["volatility"]?.stringValue ?? "v"
    }

    /// The catalog query for the functions of `schemas`, functions of extensions left out
    /// (pg_trgm's `similarity` belongs to the extension, not to the app).
    package static func query(schemas: [String]) -> String {
        let list = schemas.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ", ")
        return """
            select coalesce(jsonb_agg(jsonb_build_object(
              'schema', n.nspname, 'name', p.proname,
              'arguments', coalesce((select jsonb_agg(jsonb_build_object('name', coalesce(p.proargnames[k.ord], ''),
                    'type', format_type(k.t, null), 'mode', coalesce(p.proargmodes[k.ord]::text, 'i')) order by k.ord)
                  from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality k(t, ord)), '[]'::jsonb),
              'defaults', p.pronargdefaults, 'returns', pg_get_function_result(p.oid),
              'definer', p.prosecdef, 'volatility', p.provolatile::text)
              order by n.nspname, p.proname, p.oid), '[]'::jsonb) as doc
            from pg_proc p join pg_namespace n on n.oid = p.pronamespace
            where n.nspname in (\(list)) and p.prokind in ('f', 'p')
              and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
            """
    }

    /// The schemas compared: `public` and every schema a declared function lives in.
    package static func schemas(_ declared: [FunctionDefinition]) -> [String] {
        var out = ["public"]
        for f in declared where !out.contains(f.schema) { out.append(f.schema) }
        return out
    }

    /// The functions of `schemas` in the database a target is connected to; `prelude` runs first
    /// in the same rolled-back transaction (a mutant's DDL).
    package static func read(_ target: PostgresTarget, schemas: [String], prelude: [String] = []) throws -> [CatalogFunction] {
        let rows = try target.query(query(schemas: schemas), prelude: prelude).get()
        guard let doc = rows.first?["doc"] else { throw PostgresUnavailable("function catalog query returned nothing") }
        return (doc.arrayValue ?? []).map(CatalogFunction.init(json:))
    }

    /// One entry per declared function (its differences, empty when it matches) and one for the
    /// functions PostgreSQL has that schema.json does not declare.
    package static func compare(_ want: [FunctionDefinition], _ have: [CatalogFunction]) -> [(function: String, differences: [String])] {
        var out: [(String, [String])] = []
        for w in want {
            let candidates = have.filter { $0.declaredName == w.name || "\($0.schema).\($0.name)" == w.qualifiedName }
            guard !candidates.isEmpty else {
                out.append((w.name, ["missing in PostgreSQL (schema.json \(w.summary))"]))
                continue
            }
            guard candidates.count == 1 else {
                out.append((w.name, ["\(candidates.count) overloads in PostgreSQL: " + candidates.map(\.definition.summary).joined(separator: "; ")]))
                continue
            }
            let h = candidates[0].definition
            var diffs: [String] = []
            if h.arguments != w.arguments {
                diffs.append("arguments: schema.json (\(w.arguments.joined(separator: ", "))), PostgreSQL (\(h.arguments.joined(separator: ", ")))")
            }
            if h.defaults != w.defaults { diffs.append("arguments with a default: schema.json \(w.defaults), PostgreSQL \(h.defaults)") }
            if h.returns != w.returns { diffs.append("returns: schema.json \(w.returns), PostgreSQL \(h.returns)") }
            if h.security != w.security {
                diffs.append("security: schema.json SECURITY \(w.security.rawValue.uppercased()), PostgreSQL SECURITY \(h.security.rawValue.uppercased())")
            }
            if h.volatility != w.volatility {
                diffs.append("volatility: schema.json \(w.volatility.rawValue.uppercased()), PostgreSQL \(h.volatility.rawValue.uppercased())")
            }
            out.append((w.name, diffs))
        }
        let extra = have.filter { h in !want.contains { $0.qualifiedName == "\(h.schema).\(h.name)" } }
        out.append(("undeclared", extra.map { "function \($0.definition.summary): in PostgreSQL, not in schema.json" }))
        return out
    }
}
