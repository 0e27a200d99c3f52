import Foundation
import ContractKit

/// The `models` rule kind for TeleportMe: every table model covers exactly its table's columns
/// with exactly its nullability, every row the mock prints round-trips through its model, and
/// every documented interaction's bodies round-trip through the models they name.
public enum TeleportMeModels {
    /// Every model by the name interaction files use.
    public static var registry: ModelRegistry {
        var r = ModelRegistry()
        r.register(City.self); r.register(CityScore.self); r.register(VibeTag.self); r.register(CityVibeTag.self)
        r.register(Profile.self); r.register(UserPreferences.self); r.register(CityReport.self)
        r.register(SavedCity.self); r.register(EngagementEvent.self)
        r.register(GenerateReportRequest.self); r.register(GenerateReportResponse.self); r.register(ReportErrorBody.self)
        r.register(CityMatch.self); r.register(ReportCurrentCity.self); r.register(ComparisonEntry.self)
        r.register(ReportPreferences.self)
        r.register(SavedCityInsert.self); r.register(UserPreferencesUpsert.self); r.register(ProfileUpdate.self)
        r.register(CityReportInsert.self); r.register(EngagementEventInsert.self)
        return r
    }

    /// Decodes a row as `T` and re-encodes it.
    static func reencode<T: TableModel>(_: T.Type, _ row: [String: JSONValue]) throws -> JSONValue {
        try ModelCoding.json(try ModelCoding.decode(T.self, from: .object(row)))
    }

    /// Problems of one model against its table: coding keys vs columns, keys written, and for
    /// each column whether NULL decodes exactly when the column is nullable. `row` is a complete
    /// row as PostgREST prints it.
    public static func coverage<T: TableModel>(_ model: T.Type, table: TableSchema, row: [String: JSONValue]) -> [String] {
        var out: [String] = []
        let cols = table.columns.map(\.name)
        let keys = T.columns
        for c in cols where !keys.contains(c) { out.append("\(T.self) has no key for column \(table.name).\(c)") }
        for k in keys where !cols.contains(k) { out.append("\(T.self) has key '\(k)' but \(table.name) has no such column") }
        if out.isEmpty && keys != cols { out.append("\(T.self) keys are in a different order than \(table.name)'s columns: \(keys) vs \(cols)") }
        do {
            guard case .object(let written) = try reencode(T.self, row) else { return out + ["\(T.self) does not encode an object"] }
            let missing = cols.filter { written[$0] == nil }
            if !missing.isEmpty { out.append("\(T.self) does not write \(missing.joined(separator: ", ")) (NULL must be written as null, as PostgREST prints a row)") }
            let extra = written.keys.filter { !cols.contains($0) }.sorted()
            if !extra.isEmpty { out.append("\(T.self) writes keys that are not columns: \(extra.joined(separator: ", "))") }
        } catch {
            return out + ["\(T.self) does not decode a complete \(table.name) row: \(error)"]
        }
        for c in table.columns {
            var r = row
            r[c.name] = .null
            let decodes = (try? ModelCoding.decode(T.self, from: .object(r))) != nil
            if c.nullable && !decodes { out.append("\(T.self).\(c.name) rejects NULL but the column is nullable") }
            if !c.nullable && decodes { out.append("\(T.self).\(c.name) accepts NULL but the column is NOT NULL") }
        }
        return out
    }

    /// Every row of each table, as the mock prints it (complete: every column, NULLs included).
    static func sampleRows(_ backend: MockSupabase) throws -> [String: [[String: JSONValue]]] {
        var out: [String: [[String: JSONValue]]] = [:]
        for m in teleportMeTableModels {
            out[m.table] = try backend.database.rows(m.table, as: .serviceRole)
        }
        return out
    }

    static func check<T: TableModel>(_ m: T.Type, schema: DatabaseSchema, rows: [[String: JSONValue]], registry: ModelRegistry) -> [CaseResult] {
        guard let table = schema.table(T.table) else {
            return [CaseResult(app: TeleportMeApp.name, kind: "models", name: "\(T.self) ↔ \(T.table)", passed: false, message: "no table \(T.table) in schema.json")]
        }
        guard let fullest = rows.max(by: { a, b in a.values.filter { !$0.isNull }.count < b.values.filter { !$0.isNull }.count }) else {
            return [CaseResult(app: TeleportMeApp.name, kind: "models", name: "\(T.self) ↔ \(T.table)", passed: false, message: "no fixture rows to check with")]
        }
        let cov = coverage(T.self, table: table, row: fullest)
        var results = [CaseResult(app: TeleportMeApp.name, kind: "models", name: "\(T.self) ↔ \(T.table) columns", passed: cov.isEmpty, message: cov.joined(separator: "\n"))]
        let trips = rows.enumerated().flatMap { i, r in registry.check(String(describing: T.self), .object(r), path: "\(T.table)[\(i)]") }
        results.append(CaseResult(app: TeleportMeApp.name, kind: "models", name: "\(T.self) round-trips \(rows.count) \(T.table) rows",
                                  passed: trips.isEmpty, message: trips.prefix(10).joined(separator: "\n")))
        return results
    }

    /// Table-model checks against a backend's schema and rows.
    public static func tableResults(backend: MockSupabase, registry: ModelRegistry = registry) throws -> [CaseResult] {
        let schema = backend.configuration.spec.schema
        let rows = try sampleRows(backend)
        func run<T: TableModel>(_ m: T.Type) -> [CaseResult] { check(m, schema: schema, rows: rows[T.table] ?? [], registry: registry) }
        var out: [CaseResult] = []
        for m in teleportMeTableModels { out += run(m) }
        let covered = Set(teleportMeTableModels.map { $0.table })
        for t in schema.tables where t.schema == "public" && !covered.contains(t.name) {
            out.append(CaseResult(app: TeleportMeApp.name, kind: "models", name: "table \(t.name)", passed: false, message: "no model for table \(t.name)"))
        }
        return out
    }

    /// Round trips of the bodies of replayed interactions through the models they name.
    public static func interactionResults(_ results: [InteractionResult], registry: ModelRegistry = registry) -> [CaseResult] {
        var out: [CaseResult] = []
        for r in results {
            for (i, t) in r.transcript.enumerated() {
                let label = "\(r.file.file.split(separator: "/").last ?? "") step \(i + 1)"
                if let m = t.step.model {
                    let problems: [String]
                    if let body = t.responseBody { problems = registry.check(m, body, path: "\(t.step.path).response.body") } else { problems = ["no JSON response body to decode as \(m)"] }
                    out.append(CaseResult(app: TeleportMeApp.name, kind: "models", name: "\(label) response as \(m)", passed: problems.isEmpty, message: problems.joined(separator: "\n")))
                }
                if let m = t.step.requestModel {
                    let problems: [String]
                    if let body = t.requestBody { problems = registry.check(m, body, path: "\(t.step.path).request.body") } else { problems = ["no JSON request body to decode as \(m)"] }
                    out.append(CaseResult(app: TeleportMeApp.name, kind: "models", name: "\(label) request as \(m)", passed: problems.isEmpty, message: problems.joined(separator: "\n")))
                }
            }
        }
        return out
    }

    /// Every models case for TeleportMe.
    public static func run() throws -> [CaseResult] {
        let backend = try TeleportMeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 1))
        let replays = try InteractionReplay.run(app: TeleportMeApp.self)
        var out = try tableResults(backend: backend)
        out += interactionResults(replays)
        for r in replays where !r.passed {
            out.append(CaseResult(app: TeleportMeApp.name, kind: "models", name: "\(r.file.name) (replay)", passed: false,
                                  message: "the interaction did not replay, so its later bodies were not checked: \(r.failures.first ?? "")"))
        }
        return out
    }

    /// The `models` rule kind: applies to TeleportMe only.
    public static func verifySuite() -> VerifySuite {
        VerifySuite(kind: "models") { app in app == TeleportMeApp.self ? try run() : [] }
    }
}
