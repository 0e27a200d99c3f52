import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// Reads an app's SQL migrations as text, to hold them to the JSON contracts without a database
/// (the PostgreSQL runs are in Contracts/<app>/sql/verify and scripts/postgres).
struct CivicShvilSQL {
    let text: String

    init(app: String) throws {
        let folder = ContractsLocator.app(app).appendingPathComponent("sql")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }.sorted()
        text = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }.joined(separator: "\n")
    }

    /// The body of `create table if not exists public.<name> ( … );`.
    func createTable(_ name: String) -> String? {
        guard let start = text.range(of: "create table if not exists public.\(name) (\n"),
            let end = text.range(of: "\n);", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    /// `(command, policy name)` of every `create policy … on public.<table> for <command>`.
    func policies(on table: String) -> [(String, String)] {
        text.components(separatedBy: "create policy ").dropFirst().compactMap { chunk in
            let words = chunk.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
            guard words.count > 4, words[1] == "on", words[2] == "public.\(table)", words[3] == "for" else { return nil }
            return (words[4].uppercased(), words[0])
        }
    }

    /// Problems of the migration against schema.json and policies.json: tables, columns in
    /// order with their nullability, constraint names, RLS enabled, one policy per allowed cell.
    func problems(schema: DatabaseSchema, policies: PolicySet) -> [String] {
        var out: [String] = []
        for t in schema.tables where t.schema == "public" {
            guard let body = createTable(t.name) else { out.append("\(t.name): no create table"); continue }
            let lines = body.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " ,")) }
            let cols = lines.filter { !$0.hasPrefix("constraint ") }
            if cols.map({ String($0.split(separator: " ")[0]) }) != t.columns.map(\.name) {
                out.append("\(t.name): columns \(cols.map { $0.split(separator: " ")[0] }) != \(t.columns.map(\.name))")
            }
            for (line, c) in zip(cols, t.columns) where line.contains(" not null") == c.nullable && !t.primaryKey.contains(c.name) {
                out.append("\(t.name).\(c.name): nullability differs (\(line))")
            }
            var names = ["\(t.name)_pkey"] + t.uniques.map(\.name) + t.foreignKeys.map(\.name) + t.checks.map(\.name)
            names += t.columns.filter { $0.check != nil }.map { "\(t.name)_\($0.name)_check" }
            for n in names where !lines.contains(where: { $0.hasPrefix("constraint \(n) ") }) { out.append("\(t.name): constraint \(n) missing") }
            for fk in t.foreignKeys
            where !lines.contains(where: { $0.hasPrefix("constraint \(fk.name) ") && $0.hasSuffix("on delete \(fk.onDelete.rawValue)") }) {
                out.append("\(fk.name): ON DELETE \(fk.onDelete.rawValue) missing")
            }
            let enabled =
                text.contains("alter table public.\(t.name) enable row level security")
                || (text.contains("enable row level security', t)") && text.contains("'\(t.name)'"))
            if !enabled { out.append("\(t.name): RLS not enabled") }
            let sqlCells = Set(self.policies(on: t.name).map { $0.0 })
            for cmd in PolicyCommand.allCases {
                let cell = policies.table(t.name)?.cell(cmd)
                let nobody = cmd == .insert ? cell?.check == .constant(false) : cell?.using == .constant(false)
                if nobody && sqlCells.contains(cmd.rawValue) { out.append("\(t.name) \(cmd.rawValue): policies.json says nobody, the SQL has a policy") }
                if !nobody && !sqlCells.contains(cmd.rawValue) { out.append("\(t.name) \(cmd.rawValue): no SQL policy for '\(cell?.doc ?? "?")'") }
            }
        }
        return out
    }

    /// The literal a `rule_<name>()` function returns (`select 3`, `select 'pending'::…`).
    func ruleLiteral(_ function: String) -> String? {
        guard let r = text.range(of: "function civicforge_private.\(function)()"),
            let sel = text.range(of: "$$ select ", range: r.upperBound..<text.endIndex)
        else { return nil }
        let rest = text[sel.upperBound...]
        return String(rest.prefix { $0 != " " && $0 != ":" }).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
    }
}

/// The gate: CivicForge's SQL agrees with its JSON contracts, and the data files agree with each
/// other (photos.json vs the post_photos checks, storage.json vs photos.json).
final class CivicForgeSQLTests: GateTestCase {
    func testMigrationMatchesSchemaAndPolicies() throws {
        let spec = try CivicForgeApp.spec()
        let sql = try CivicShvilSQL(app: CivicForgeApp.name)
        XCTAssertEqual(sql.problems(schema: spec.schema, policies: spec.policies), [])
        for named in ["profiles_select_same_neighborhood", "posts_insert_tier2", "responses_insert_tier2"] {
            XCTAssertTrue(sql.text.contains("create policy \(named) "), "§3 names \(named)")
        }
    }

    /// Mutant: a policies.json that opens a '-' cell no longer matches the SQL.
    func testMigrationCheckCatchesDrift() throws {
        let spec = try CivicForgeApp.spec()
        var p = spec.policies
        let i = p.tables.firstIndex { $0.table == "thanks" }!
        var cell = p.tables[i].cell(.select)
        cell.doc = "Sender"
        cell.using = .compare(.eq, .column("from_user_id"), .claim("sub"))
        p.tables[i].cells[.delete] = cell
        XCTAssertEqual(
            try CivicShvilSQL(app: CivicForgeApp.name).problems(schema: spec.schema, policies: p),
            ["thanks DELETE: no SQL policy for 'Sender'"])
    }

    func testSQLRuleFunctionsEqualRulesJson() throws {
        let rules = try CivicForgeRules.load()
        let sql = try CivicShvilSQL(app: CivicForgeApp.name)
        XCTAssertEqual(sql.ruleLiteral("rule_flag_threshold_hide"), "\(rules.flagThresholdHide)")
        XCTAssertEqual(sql.ruleLiteral("rule_review_status_when_hidden"), rules.reviewStatusWhenHidden)
        XCTAssertEqual(sql.ruleLiteral("rule_points_per_thanks"), "\(rules.pointsPerThanks)")
        XCTAssertEqual(sql.ruleLiteral("rule_invitation_grants_tier"), "\(rules.invitationGrantsTier)")
        XCTAssertEqual(sql.ruleLiteral("rule_invitation_valid_days"), "\(rules.invitationValidDays)")
        XCTAssertEqual(sql.ruleLiteral("rule_invitation_code_length"), "\(rules.invitationCodeLength)")
        for (_, e) in rules.invitationErrors {
            XCTAssertTrue(sql.text.contains("errcode = '\(e.code)', message = '\(e.message)'"), "redeem_invitation raises \(e.code)")
        }
        XCTAssertTrue(
            sql.text.contains(
                "format('" + rules.serverManagedError.message.replacingOccurrences(of: "{column}", with: "%s").replacingOccurrences(of: "{table}", with: "%s")
                    + "'"))
    }

    /// photos.json's maxPhotosPerPost and maxWidth are what the post_photos CHECKs enforce.
    func testPhotoLimitsAgreeWithTheSchemaChecks() throws {
        let limits = try PhotoLimits.load()
        let b = try CivicForgeApp.makeBackend(clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 11))
        let post = try XCTUnwrap(b.database.rows("posts").first { $0["title"] == "Ladder to lend" }?["id"])
        func insert(position: Int, width: Int) -> String? {
            do {
                try b.database.insert(
                    "post_photos",
                    [
                        [
                            "post_id": post, "storage_path": .string("p\(position)-\(width)"), "thumbnail_path": "t",
                            "position": .int(Int64(position)), "width": .int(Int64(width)), "height": 10
                        ]
                    ])
                return nil
            } catch let e as PostgresError { return e.code } catch { return "\(error)" }
        }
        XCTAssertNil(insert(position: limits.maxPhotosPerPost - 1, width: limits.maxWidth))
        XCTAssertEqual(insert(position: limits.maxPhotosPerPost, width: 10), "23514", "a photo beyond maxPhotosPerPost")
        XCTAssertEqual(insert(position: 0, width: limits.maxWidth + 1), "23514", "wider than maxWidth")
    }

    func testStorageBucketAgreesWithPhotoLimits() throws {
        let spec = try CivicForgeApp.spec()
        let limits = try PhotoLimits.load()
        let bucket = try XCTUnwrap(spec.buckets.first { $0["id"] == "post-photos" })
        XCTAssertEqual(bucket["public"], false, "§3: signed URLs")
        XCTAssertEqual(bucket["allowedMimeTypes"], [.string(limits.contentType)])
        XCTAssertTrue(bucket["policies"]?["insert"]?["doc"]?.stringValue?.hasPrefix("storage_post_photos_insert_own:") == true, "§3 names the policy")
        let sql = try CivicShvilSQL(app: CivicForgeApp.name)
        XCTAssertTrue(sql.text.contains("values ('post-photos', 'post-photos', false, \(bucket["fileSizeLimit"]!.intValue!), array['\(limits.contentType)'])"))
        XCTAssertTrue(sql.text.contains("create policy storage_post_photos_insert_own on storage.objects"))
    }
}
