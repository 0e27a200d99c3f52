import Foundation
import MockBinding

/// Renders `Contracts/naarscars/sql/seed/009_seed_data.sql` (FR-021/FR-023) from fixtures.json, so
/// the SQL seed and the mock's seed are the same rows. The gate checks the file is fresh; set
/// `NAARSCARS_RECORD_SEED=1` and run `swift test --filter NaarsCarsSQLTests` to rewrite it.
///
/// Decisions: dates and timestamps are written relative to the day the seed runs, with the
/// fixtures' reference day (2026-01-01, the mock's clock) mapped to it, so "open (future)" rides
/// stay in the future; seed users go into auth.users with their Appendix B passwords hashed by
/// pgcrypto (on_auth_user_created makes their profiles, which the seed then fills in); the other
/// tables are loaded with their user triggers disabled (as the mock loads fixtures) and
/// `ON CONFLICT DO NOTHING`, so running the file again changes nothing.
package enum NaarsCarsSeedSQL {
    /// The fixtures' reference instant (2026-01-01T00:00:00Z), in microseconds.
    package static let referenceMicros: Int64 = 1_767_225_600 * 1_000_000

    /// The SQL text for a spec.
    package static func render(_ spec: AppSpec) throws -> String {
        var out = """
            -- Naar's Cars development seed (FR-021, FR-022, Appendix B; Appendix A step 9).
            -- GENERATED from Contracts/naarscars/fixtures.json by NaarsCarsSeedSQL: do not edit; regenerate with
            --   NAARSCARS_RECORD_SEED=1 swift test --filter NaarsCarsSQLTests
            -- Dates are relative to the day the seed runs (the fixtures' 2026-01-01 becomes today, UTC).
            -- Idempotent (FR-023): existing rows are left alone. Apply after the migrations in sql/.

            begin;

            create or replace function pg_temp.seed_day(days integer) returns date
              language sql stable as $$ select (now() at time zone 'UTC')::date + days $$;
            create or replace function pg_temp.seed_at(seconds bigint) returns timestamptz
              language sql stable as $$ select (date_trunc('day', now() at time zone 'UTC') at time zone 'UTC') + make_interval(secs => seconds) $$;


            """
        let f = spec.fixtures
        let publicTables = f.tables.map(\.table)
        for t in publicTables { out += "alter table public.\(t) disable trigger user;\n" }
        out += "\n-- Users (Appendix B); on_auth_user_created makes their profiles.\n"
        let profiles = f.rows("profiles")
        for p in f.personas {
            let created = profiles.first { $0["id"]?.stringValue == p.id }?["created_at"] ?? .string(PGTime.formatTimestamp(referenceMicros, withZone: true))
            let at = try value(created, .timestamptz)
            out +=
                "insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)\n"
            out += "values (\(quote(p.id)), 'authenticated', 'authenticated', \(quote(p.email.lowercased())), "
            out += "extensions.crypt(\(quote(p.password)), extensions.gen_salt('bf')), \(at), "
            out += "'{\"provider\": \"email\", \"providers\": [\"email\"]}'::jsonb, \(quote(p.metadata.serialized(.jsonb)))::jsonb, \(at), \(at))\n"
            out += "on conflict (id) do nothing;\n"
        }
        for (table, rows) in f.tables {
            guard let ts = spec.schema.table(table) else { continue }
            out += "\n-- \(table): \(rows.count) row\(rows.count == 1 ? "" : "s")\n"
            for r in rows {
                guard case .object(let o) = r else { continue }
                let cols = ts.columns.filter { o[$0.name] != nil }
                let values = try cols.map { try value(o[$0.name]!, $0.type) }
                out += "insert into public.\(table) (\(cols.map(\.name).joined(separator: ", ")))\n"
                out += "values (\(values.joined(separator: ", ")))\n"
                if table == "profiles" {
                    let set = cols.filter { $0.name != "id" }.map { "\($0.name) = excluded.\($0.name)" }.joined(separator: ", ")
                    out += "on conflict (id) do update set \(set);\n"
                } else {
                    out += "on conflict (id) do nothing;\n"
                }
            }
        }
        out += "\n"
        for t in publicTables { out += "alter table public.\(t) enable trigger user;\n" }
        out += "\ncommit;\n"
        return out
    }

    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }

    /// A JSON fixture value as a SQL expression of the column type.
    static func value(_ v: JSONValue, _ type: SQLType) throws -> String {
        if v.isNull { return "null" }
        let sql = try SQLValue.coerce(json: v, to: type)
        switch (type, sql) {
        case (.date, .date(let d)):
            let days = Int64(d) - referenceMicros / 86_400_000_000
            return "pg_temp.seed_day(\(days))"
        case (.timestamptz, .timestamp(let us)), (.timestamp, .timestamp(let us)):
            let delta = us - referenceMicros
            let seconds = delta / 1_000_000
            guard delta % 1_000_000 == 0 else { return "(pg_temp.seed_at(\(seconds)) + interval '\(delta % 1_000_000) microseconds')" }
            return "pg_temp.seed_at(\(seconds))"
        case (.boolean, .bool(let b)): return b ? "true" : "false"
        case (.smallint, .int(let i)), (.integer, .int(let i)), (.bigint, .int(let i)): return String(i)
        case (.array(let elem), .array(let items)):
            if items.isEmpty { return "'{}'::\(type)" }
            return "array[\(items.map { quote($0.pgText(as: elem)) }.joined(separator: ", "))]::\(type)"
        case (.jsonb, .json(let j)), (.json, .json(let j)): return quote(j.serialized(.jsonb)) + "::\(type)"
        case (.json, .jsonText(let j)): return quote(j.text) + "::json"
        default: return quote(sql.pgText(as: type))
        }
    }
}
