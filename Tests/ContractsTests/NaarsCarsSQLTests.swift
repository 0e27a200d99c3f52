import XCTest
import MockBinding
import NaarsCars

/// Contracts/naarscars/sql/ against the contracts: the migration states schema.json (read back
/// by a small DDL reader), the RLS matrix, every trigger and function with the rules' messages and
/// numbers, the storage buckets; the seed SQL is generated from fixtures.json and fresh.
/// `NaarsCarsPostgresTests` applies the same files to a real PostgreSQL when one is installed.
final class NaarsCarsSQLTests: GateTestCase {
    static var folder: URL { ContractsLocator.app("naarscars").appendingPathComponent("sql") }

    static func sql(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// Lower-cased, comments dropped, whitespace collapsed.
    static func normalized(_ s: String) -> String {
        s.split(separator: "\n").map { line -> Substring in
            if let r = line.range(of: "--") { return line[..<r.lowerBound] }
            return line
        }.joined(separator: " ").lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    func testSeedSQLIsGeneratedFromFixtures() throws {
        let url = Self.folder.appendingPathComponent("seed/009_seed_data.sql")
        let expected = try NaarsCarsSeedSQL.render(NaarsCarsApp.spec())
        if ProcessInfo.processInfo.environment["NAARSCARS_RECORD_SEED"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try expected.write(to: url, atomically: true, encoding: .utf8)
        }
        let actual = try? String(contentsOf: url, encoding: .utf8)
        XCTAssertEqual(actual, expected, "sql/seed/009_seed_data.sql is stale: run NAARSCARS_RECORD_SEED=1 swift test --filter NaarsCarsSQLTests")
    }

    // MARK: Tables (002) against schema.json

    struct DDLColumn: Equatable {
        var name: String, type: String, nullable: Bool, defaultSQL: String?, references: String?, onDelete: String?, check: String?, unique: Bool,
            primaryKey: Bool
    }
    struct DDLTable {
        var name: String
        var columns: [DDLColumn] = []
        var uniques: [[String]] = []
        var checks: [(name: String, sql: String)] = []
    }

    /// Splits at top-level commas.
    static func items(_ body: String) -> [String] {
        var out: [String] = [], cur = "", depth = 0, quoted = false
        for ch in body {
            if ch == "'" { quoted.toggle() }
            if !quoted { if ch == "(" { depth += 1 } else if ch == ")" { depth -= 1 } }
            if ch == "," && depth == 0 && !quoted { out.append(cur.trimmingCharacters(in: .whitespaces)); cur = ""; continue }
            cur.append(ch)
        }
        if !cur.trimmingCharacters(in: .whitespaces).isEmpty { out.append(cur.trimmingCharacters(in: .whitespaces)) }
        return out
    }

    /// The text inside the parentheses that open at `start` (balanced).
    static func parenthesized(_ s: String, from start: String.Index) -> (String, String.Index)? {
        var depth = 0
        var i = start
        var begin: String.Index?
        while i < s.endIndex {
            if s[i] == "(" { depth += 1; if depth == 1 { begin = s.index(after: i) } }
            if s[i] == ")" { depth -= 1; if depth == 0, let b = begin { return (String(s[b..<i]), s.index(after: i)) } }
            i = s.index(after: i)
        }
        return nil
    }

    static func parseTables(_ text: String) -> [DDLTable] {
        let s = normalized(text)
        var out: [DDLTable] = []
        var search = s.startIndex
        while let r = s.range(of: "create table if not exists public.", range: search..<s.endIndex) {
            let nameEnd = s[r.upperBound...].firstIndex(of: " ")!
            var table = DDLTable(name: String(s[r.upperBound..<nameEnd]))
            guard let (body, after) = parenthesized(s, from: nameEnd) else { break }
            search = after
            for item in items(body) {
                if item.hasPrefix("constraint ") {
                    let parts = item.split(separator: " ", maxSplits: 3).map(String.init)
                    if parts[2] == "check", let (expr, _) = parenthesized(item, from: item.range(of: "check")!.upperBound) {
                        table.checks.append((parts[1], expr))
                    }
                } else if item.hasPrefix("unique (") {
                    table.uniques.append(parenthesized(item, from: item.startIndex)!.0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                } else {
                    var words = item.split(separator: " ").map(String.init)
                    let name = words.removeFirst()
                    let type = words.removeFirst().replacingOccurrences(of: "public.", with: "")
                    var col = DDLColumn(
                        name: name, type: type, nullable: true, defaultSQL: nil, references: nil, onDelete: nil, check: nil, unique: false, primaryKey: false)
                    var i = 0
                    while i < words.count {
                        switch words[i] {
                        case "not" where i + 1 < words.count && words[i + 1] == "null": col.nullable = false; i += 2
                        case "primary": col.primaryKey = true; col.nullable = false; i += 2
                        case "unique": col.unique = true; i += 1
                        case "default": col.defaultSQL = words[i + 1]; i += 2
                        case "references":
                            col.references = words[i + 1].replacingOccurrences(of: "public.", with: "")
                            i += 2
                            if i + 2 < words.count, words[i] == "on", words[i + 1] == "delete" {
                                if words[i + 2] == "set" { col.onDelete = "set " + words[i + 3]; i += 4 } else { col.onDelete = words[i + 2]; i += 3 }
                            }
                        case "check":
                            col.check = parenthesized(item, from: item.range(of: " check ")!.upperBound)?.0
                            i = words.count
                        default: XCTFail("unexpected '\(words[i])' in \(table.name).\(name)"); i += 1
                        }
                    }
                    table.columns.append(col)
                }
            }
            out.append(table)
        }
        return out
    }

    static func defaultSQL(_ d: ColumnDefault?) -> String? {
        guard let d else { return nil }
        switch d {
        case .genRandomUUID: return "gen_random_uuid()"
        case .now: return "now()"
        case .currentDate: return "current_date"
        case .authUID: return "auth.uid()"
        case .identity, .serial: return nil
        case .value(let v):
            switch v {
            case .string(let s): return "'\(s)'"
            case .array(let a) where a.isEmpty: return "'{}'"
            default: return v.serialized()
            }
        }
    }

    /// 002_tables.sql states exactly the tables, columns and constraints of schema.json.
    func testTablesMatchSchema() throws {
        let schema = try NaarsCarsApp.spec().schema
        let ddl = Self.parseTables(try Self.sql("002_tables.sql"))
        let tables = schema.tables.filter { $0.schema == "public" && !$0.isView }
        XCTAssertEqual(ddl.map(\.name), tables.map(\.name), "tables, in creation order")
        for t in tables {
            guard let d = ddl.first(where: { $0.name == t.name }) else { continue }
            XCTAssertEqual(d.columns.map(\.name), t.columns.map(\.name), "\(t.name) columns")
            for c in t.columns {
                guard let dc = d.columns.first(where: { $0.name == c.name }) else { continue }
                let label = "\(t.name).\(c.name)"
                XCTAssertEqual(SQLType.parse(dc.type, enums: schema.enums)?.description, c.type.description, "\(label) type")
                XCTAssertEqual(dc.nullable, c.nullable, "\(label) nullability")
                XCTAssertEqual(dc.defaultSQL, Self.defaultSQL(c.defaultValue), "\(label) default")
                XCTAssertEqual(dc.primaryKey, t.primaryKey == [c.name], "\(label) primary key")
                XCTAssertEqual(dc.unique, t.uniques.contains { $0.columns == [c.name] }, "\(label) unique")
                let fk = t.foreignKeys.first { $0.columns == [c.name] }
                XCTAssertEqual(dc.references, fk.map { "\($0.refTable)(\($0.refColumns.joined(separator: ",")))" }, "\(label) references")
                XCTAssertEqual(dc.onDelete, fk.map { $0.onDelete == .noAction ? nil : $0.onDelete.rawValue } ?? nil, "\(label) on delete")
                XCTAssertEqual(dc.check, c.checkSQL.map(Self.normalized), "\(label) check")
            }
            XCTAssertEqual(d.uniques, t.uniques.filter { $0.columns.count > 1 }.map(\.columns), "\(t.name) multi-column uniques")
            XCTAssertEqual(d.checks.map(\.name), t.checks.map(\.name), "\(t.name) named checks")
            XCTAssertEqual(d.checks.map(\.sql), t.checks.map { Self.normalized($0.sql ?? "") }, "\(t.name) check expressions")
        }
        let enumsSQL = Self.normalized(try Self.sql("002_tables.sql"))
        for (name, labels) in schema.enums {
            XCTAssertTrue(enumsSQL.contains("create type public.\(name) as enum (\(labels.map { "'\($0)'" }.joined(separator: ", ")))"), name)
        }
    }

    /// A mutant DDL (a dropped NOT NULL, a changed ON DELETE) is caught by the same reader.
    func testTableReaderSeesDifferences() throws {
        let text = try Self.sql("002_tables.sql")
        let mutated = text.replacingOccurrences(of: "    pickup text not null,", with: "    pickup text,")
            .replacingOccurrences(
                of:
                    "claimed_by uuid references public.profiles(id) on delete set null,\n    reviewed boolean not null default false,\n    review_skipped boolean default false,\n    review_skipped_at timestamptz,\n    created_at timestamptz not null default now(),\n    updated_at timestamptz not null default now(),\n    constraint rides",
                with:
                    "claimed_by uuid references public.profiles(id) on delete cascade,\n    reviewed boolean not null default false,\n    review_skipped boolean default false,\n    review_skipped_at timestamptz,\n    created_at timestamptz not null default now(),\n    updated_at timestamptz not null default now(),\n    constraint rides"
            )
        XCTAssertNotEqual(mutated, text)
        let rides = try XCTUnwrap(Self.parseTables(mutated).first { $0.name == "rides" })
        XCTAssertEqual(rides.columns.first { $0.name == "pickup" }?.nullable, true)
        XCTAssertEqual(rides.columns.first { $0.name == "claimed_by" }?.onDelete, "cascade")
    }

    // MARK: Indexes, RLS, triggers, functions, storage

    func testIndexesCoverSchemaListAndEveryForeignKey() throws {
        let schema = try NaarsCarsApp.spec().schema
        let sql = Self.normalized(try Self.sql("003_indexes.sql"))
        var leading: [String: Set<String>] = [:]
        for t in schema.tables where t.schema == "public" && !t.isView {
            leading[t.name, default: []].insert(t.primaryKey.first ?? "")
            for u in t.uniques { leading[t.name, default: []].insert(u.columns[0]) }
        }
        let specJSON = try JSONValue.parse(Data(contentsOf: ContractsLocator.app("naarscars").appendingPathComponent("schema.json")))
        for t in specJSON["tables"]?.arrayValue ?? [] {
            let table = t["name"]?.stringValue ?? ""
            for ix in t["indexes"]?.arrayValue ?? [] {
                let text = ix.stringValue ?? ""
                let name = String(text.prefix { $0 != " " })
                XCTAssertTrue(sql.contains("create index if not exists \(name) on public.\(table) "), "index \(name) in 003_indexes.sql")
                if let open = text.firstIndex(of: "(") {
                    let first = text[text.index(after: open)...].prefix { $0 != "," && $0 != ")" && $0 != " " }
                    leading[table, default: []].insert(String(first))
                }
            }
        }
        // PERF-DB-005: every foreign key's column leads some index.
        for t in schema.tables where t.schema == "public" && !t.isView {
            for fk in t.foreignKeys {
                XCTAssertTrue(leading[t.name]?.contains(fk.columns[0]) == true, "PERF-DB-005: \(t.name).\(fk.columns[0]) has no index")
            }
        }
    }

    /// Every table has RLS; a cell with a rule has a policy for that command, a nobody cell none.
    func testPoliciesFollowTheMatrix() throws {
        let spec = try NaarsCarsApp.spec()
        let sql = Self.normalized(try Self.sql("004_rls_policies.sql"))
        for tp in spec.policies.tables {
            XCTAssertTrue(sql.contains("alter table public.\(tp.table) enable row level security;"), "FR-009 RLS on \(tp.table)")
            for cmd in PolicyCommand.allCases {
                let cell = tp.cell(cmd)
                let nobody = cmd == .insert ? cell.effectiveCheck(for: .insert) == .constant(false) : cell.effectiveUsing == .constant(false)
                let policy = "on public.\(tp.table) for \(cmd.key)"
                XCTAssertEqual(sql.contains(policy), !nobody, "\(tp.table) \(cmd.rawValue) ('\(cell.doc)') policy present iff not nobody")
                if !nobody {
                    XCTAssertTrue(sql.contains("create policy \"\(tp.table): \(cmd.key) "), "\(tp.table) \(cmd.rawValue) policy name")
                }
            }
        }
        for helper in [
            "is_approved", "is_admin", "is_conversation_participant", "is_conversation_creator", "is_involved_in_conversation_request", "owns_ride",
            "owns_favor", "can_review"
        ] {
            XCTAssertTrue(sql.contains("create or replace function public.\(helper)("), helper)
            let def = sql.components(separatedBy: "create or replace function public.\(helper)(").last ?? ""
            XCTAssertTrue(def.prefix(200).contains("security definer"), "\(helper) is SECURITY DEFINER")
        }
    }

    func testTriggersAndRuleMessagesAreInSQL() throws {
        let spec = try NaarsCarsApp.spec()
        let contracts = try NaarsCarsContracts.load()
        let triggers = Self.normalized(try Self.sql("005_triggers.sql"))
        let functions = Self.normalized(try Self.sql("006_functions.sql"))
        // FR-013's seven, the lifecycle and the message guard.
        let expected: [(String, String)] = [
            ("on_auth_user_created", "auth.users"), ("on_message_created", "public.messages"),
            ("on_invite_code_used", "public.invite_codes"), ("protect_admin_fields", "public.profiles"),
            ("on_review_created", "public.reviews"), ("mark_request_reviewed", "public.reviews"),
            ("enforce_request_lifecycle", "public.rides"), ("enforce_request_lifecycle", "public.favors"),
            ("protect_message_fields", "public.messages")
        ]
        for (name, table) in expected {
            XCTAssertTrue(
                triggers.range(of: "create trigger \(name) (before|after) [a-z ]+ on \(table) for each row", options: .regularExpression) != nil,
                "\(name) on \(table)")
        }
        let withUpdatedAt = spec.schema.tables.filter { $0.schema == "public" && !$0.isView && $0.columnIndex("updated_at") != nil }.map(\.name)
        for t in spec.schema.tables where t.schema == "public" && !t.isView {
            XCTAssertEqual(
                triggers.contains("create trigger set_updated_at before update on public.\(t.name) "), withUpdatedAt.contains(t.name),
                "set_updated_at on \(t.name)")
        }
        // Every rules.json message, placeholders as '%', is raised by the SQL (the one PostgreSQL itself words is exempt).
        let both = triggers + " " + functions
        for (key, e) in contracts.rules.errors where key != "service_role_only" {
            var template = e.message.replacingOccurrences(of: "'", with: "''")
            for p in ["{from}", "{to}", "{column}", "{actors}", "{value}", "{max}"] { template = template.replacingOccurrences(of: p, with: "%") }
            for fn in contracts.functions.rpcs.map(\.name) { template = template.replacingOccurrences(of: "{function}", with: fn) }
            let raised =
                both.contains("'\(template.lowercased())'")
                || contracts.functions.rpcs.contains { both.contains("'\(e.message.replacingOccurrences(of: "{function}", with: $0.name).lowercased())'") }
            XCTAssertTrue(raised, "rules.json error \(key) ('\(e.message)') is not raised in 005/006")
            XCTAssertTrue(both.contains("errcode = '\(e.code.lowercased())'"), "\(key)'s code \(e.code)")
        }
        // The lifecycle's VALUES table is rules.json's transitions.
        let values = contracts.rules.transitions.map { t in
            "('\(t.from)', '\(t.to)', array[\(t.by.map { "'\($0.rawValue)'" }.joined(separator: ", "))], '\(t.claimedBy.rawValue)')"
        }.joined(separator: ", ")
        XCTAssertTrue(triggers.contains("from (values \(values) ) as t("), "lifecycle transitions in 005 = rules.json")
        let done = contracts.rules.completedStatus
        XCTAssertTrue(
            functions.contains("status = '\(done)'") && !functions.replacingOccurrences(of: "status = '\(done)'", with: "").contains("status = '"),
            "006 counts and reviews only '\(done)' requests")
        XCTAssertTrue(Self.normalized(try Self.sql("004_rls_policies.sql")).contains("r.status = '\(done)'"), "can_review")
        XCTAssertTrue(Self.normalized(try Self.sql("007_views.sql")).contains("where status = '\(done)'"), "leaderboard_stats")
        XCTAssertTrue(triggers.contains("foreach col in array array[\(contracts.rules.immutableColumns.map { "'\($0)'" }.joined(separator: ", "))] loop"))
        XCTAssertTrue(
            triggers.contains(
                "if col not in (\(contracts.rules.nonOwnerMayChange.sorted { a, b in ["status", "claimed_by", "updated_at"].firstIndex(of: a) ?? 9 < ["status", "claimed_by", "updated_at"].firstIndex(of: b) ?? 9 }.map { "'\($0)'" }.joined(separator: ", ")))"
            ))
    }

    func testFunctionsMatchFunctionsJSON() throws {
        let f = try NaarsCarsContracts.load().functions
        let sql = Self.normalized(try Self.sql("006_functions.sql"))
        for rpc in f.rpcs {
            let params = rpc.params.map { p in
                "\(p.name) \(p.type)"
                    + (p.hasDefault
                        ? " default "
                            + (p.defaultValue.map { v -> String in
                                if case .string(let s) = v { return "'\(s)'" }
                                return v.isNull ? "null" : v.serialized()
                            } ?? "null") : "")
            }.joined(separator: ", ")
            let head = "create or replace function public.\(rpc.name)(\(params)) returns "
            guard let r = sql.range(of: head) else { XCTFail("\(rpc.name): no '\(head)'"); continue }
            let rest = sql[r.upperBound...].prefix(400)
            switch rpc.returns {
            case .void: XCTAssertTrue(rest.hasPrefix("void"), rpc.name)
            case .scalar(let t): XCTAssertTrue(rest.hasPrefix(t), rpc.name)
            case .table(let cols):
                XCTAssertTrue(rest.hasPrefix("table (\(cols.map { "\($0.name) \($0.type)" }.joined(separator: ", ")))"), "\(rpc.name) returns")
            }
            let body = String(rest.prefix(300))
            XCTAssertEqual(body.contains("security definer"), rpc.security == "definer", "\(rpc.name) security")
            XCTAssertTrue(body.contains(rpc.volatility == "volatile" ? "volatile" : "stable"), "\(rpc.name) volatility")
        }
        XCTAssertTrue(sql.contains("interval '\(f.staleTokenDays) days'"), "EDGE-003 window from functions.json")
        XCTAssertTrue(sql.contains("revoke execute on function public.cleanup_stale_push_tokens() from public, anon, authenticated;"))
        let filters = f.timeFilters.sorted { ($0.value ?? 0) < ($1.value ?? 0) }
        for (name, days) in filters {
            XCTAssertTrue(sql.contains("('\(name)', \(days.map(String.init) ?? "null::integer"))"), "time filter \(name)")
        }
        XCTAssertTrue(sql.contains("max_rows > \(f.maxLimit) then raise exception 'limit_count must be between 1 and %', \(f.maxLimit)"))
        XCTAssertTrue(sql.contains("coalesce(get_leaderboard.limit_count, \(f.defaultLimit))"))
        XCTAssertTrue(sql.contains("round(rated.mean, \(f.ratingDecimals))") && sql.contains("), \(f.ratingDecimals)), 0)"), "rating decimals")
        let view = Self.normalized(try Self.sql("007_views.sql"))
        XCTAssertTrue(view.contains("create or replace view public.leaderboard_stats with (security_invoker = true)"))
        let cols = try XCTUnwrap(NaarsCarsApp.spec().schema.table("leaderboard_stats")).columns.map(\.name)
        XCTAssertEqual(cols, ["user_id", "name", "avatar_url", "fulfilled_count", "average_rating", "review_count", "rank"])
        XCTAssertTrue(view.contains("round(reviews.avg_rating, \(f.ratingDecimals))"))
    }

    func testStorageSQLMatchesStorageJSON() throws {
        let sql = Self.normalized(try Self.sql("008_storage.sql"))
        for b in try NaarsCarsApp.spec().buckets {
            let id = try XCTUnwrap(b["id"]?.stringValue)
            let mimes = (b["allowedMimeTypes"]?.arrayValue ?? []).compactMap(\.stringValue).map { "'\($0)'" }.joined(separator: ", ")
            XCTAssertTrue(sql.contains("('\(id)', '\(id)', \(b["public"] == true), \(b["fileSizeLimit"]?.intValue ?? -1), array[\(mimes)])"), "bucket \(id)")
            // The folder rule of the insert cell ({"eq": [{"column": "folder"}, "auth.uid"]}) is the SQL's foldername test.
            let insert = b["policies"]?["insert"]?["check"]?.serialized() ?? ""
            if insert.contains("{\"eq\":[{\"column\":\"folder\"},\"auth.uid\"]}") {
                XCTAssertTrue(
                    sql.contains("on storage.objects for insert to authenticated with check (bucket_id = '\(id)'") && sql.contains("(bucket_id = '\(id)' and")
                        && sql.contains("(storage.foldername(name))[1] = auth.uid()::text"), "\(id) folder rule")
            } else {
                XCTFail("\(id): insert has no folder rule")
            }
            XCTAssertEqual(
                insert.contains("\"approved\""), sql.contains("with check (bucket_id = '\(id)' and public.is_approved()"), "\(id) approved-only upload")
        }
    }
}
