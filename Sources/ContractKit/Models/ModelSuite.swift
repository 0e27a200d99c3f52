import Foundation

/// The `models` rule kind, for every app: each table model covers exactly its table's columns
/// (same names, same order) with exactly its nullability and writes every column; every row the
/// mock prints round-trips through its model; every public table has one model; and every
/// documented interaction's bodies round-trip through the models its steps name (`model`,
/// `requestModel`). An app declares its models in `AppModule.tableModels` and
/// `AppModule.modelRegistry`.
package enum ModelSuite {
    /// The rule kind for `contracts verify`.
    package static func verifySuite() -> VerifySuite {
        VerifySuite(kind: "models") { app in try run(app: app) }
    }

    /// The registry interaction steps are checked with: the app's `modelRegistry`, plus every
    /// table model under its type name (`Post`, `Post[]`) unless the app registered that name.
    package static func registry(for app: any AppModule.Type) -> ModelRegistry {
        var r = app.modelRegistry
        func add<T: TableModel>(_ m: T.Type) { if !r.contains(String(describing: T.self)) { r.register(T.self) } }
        for m in app.tableModels { add(m) }
        return r
    }

    /// Every models case for an app (none when it has no schema.json yet).
    package static func run(app: any AppModule.Type) throws -> [CaseResult] {
        guard FileManager.default.fileExists(atPath: ContractsLocator.app(app.name).appendingPathComponent("schema.json").path) else { return [] }
        let backend = try app.makeBackendUnderTest(clock: ManualClock(), ids: SeededIDGenerator(seed: 1), folder: nil)
        let registry = registry(for: app)
        let replays = try InteractionReplay.sharedRun(app: app)
        let responses = responseRows(replays, models: app.tableModels, schema: backend.served.spec.schema)
        var out = try tableResults(app: app.name, backend: backend, models: app.tableModels, registry: registry, responseRows: responses)
        out += interactionResults(app: app.name, replays, registry: registry)
        out.append(overlayResult(app))
        for r in replays where !r.passed {
            out.append(
                CaseResult(
                    app: app.name, kind: "models", name: "\(r.file.name) (replay)", passed: false,
                    message: "the interaction did not replay, so its later bodies were not checked: \(r.failures.first ?? "")"))
        }
        return out
    }

    /// The case of the app's naming overlay (models.json): it decodes and names only tables,
    /// columns and enums schema.json has, so the generated models can be written.
    package static func overlayResult(_ app: any AppModule.Type) -> CaseResult {
        do {
            _ = try ModelGenerator.generate(app, root: ContractsLocator.root)
            return CaseResult(app: app.name, kind: "models", name: "models.json fits schema.json", passed: true, message: "")
        } catch {
            return CaseResult(app: app.name, kind: "models", name: "models.json fits schema.json", passed: false, message: "\(error)")
        }
    }

    /// Problems of one model against its table: coding keys vs columns, keys written, and for
    /// each column whether NULL decodes exactly when the column is nullable (not for a view:
    /// PostgreSQL cannot declare a view column NOT NULL, so a view model's optionality is the
    /// app's choice). `row` is a complete row as PostgREST prints it.
    package static func coverage<T: TableModel>(_ model: T.Type, table: TableSchema, row: [String: JSONValue], coder: ModelCoder = ModelCoder()) -> [String] {
        var out: [String] = []
        let cols = table.columns.map(\.name)
        let keys = T.columns
        for c in cols where !keys.contains(c) { out.append("\(T.self) has no key for column \(table.name).\(c)") }
        for k in keys where !cols.contains(k) { out.append("\(T.self) has key '\(k)' but \(table.name) has no such column") }
        if out.isEmpty && keys != cols { out.append("\(T.self) keys are in a different order than \(table.name)'s columns: \(keys) vs \(cols)") }
        do {
            guard case .object(let written) = try coder.reencode(T.self, .object(row)) else { return out + ["\(T.self) does not encode an object"] }
            let missing = cols.filter { written[$0] == nil }
            if !missing.isEmpty {
                out.append("\(T.self) does not write \(missing.joined(separator: ", ")) (NULL must be written as null, as PostgREST prints a row)")
            }
            let extra = written.keys.filter { !cols.contains($0) }.sorted()
            if !extra.isEmpty { out.append("\(T.self) writes keys that are not columns: \(extra.joined(separator: ", "))") }
        } catch {
            return out + ["\(T.self) does not decode a complete \(table.name) row: \(error)"]
        }
        for c in table.columns where !table.isView {
            var r = row
            r[c.name] = .null
            let decodes = (try? coder.decode(T.self, from: .object(r))) != nil
            if c.nullable && !decodes { out.append("\(T.self).\(c.name) rejects NULL but the column is nullable") }
            if !c.nullable && decodes { out.append("\(T.self).\(c.name) accepts NULL but the column is NOT NULL") }
        }
        return out
    }

    /// The cases of one model: its coverage of the table (checked with the row that has the
    /// fewest NULLs) and the round trip of every row. `rows` are the fixture rows, or when the
    /// fixtures leave the table empty, complete rows interaction responses returned (`source`
    /// says which, for the case's name).
    static func check<T: TableModel>(_ m: T.Type, app: String, schema: DatabaseSchema, rows: [[String: JSONValue]], source: String, coder: ModelCoder)
        -> [CaseResult]
    {
        let name = "\(T.self) ↔ \(T.table)"
        guard let table = schema.table(T.table) else {
            return [CaseResult(app: app, kind: "models", name: name, passed: false, message: "no table \(T.table) in schema.json")]
        }
        guard let fullest = rows.max(by: { a, b in a.values.filter { !$0.isNull }.count < b.values.filter { !$0.isNull }.count }) else {
            return [
                CaseResult(
                    app: app, kind: "models", name: name, passed: false,
                    message: "no row of \(T.table) in the fixtures or in interaction responses (\(T.self)[]) to check the model with")
            ]
        }
        let cov = coverage(T.self, table: table, row: fullest, coder: coder)
        let registry = ModelRegistry(coder: coder)
        let trips = rows.enumerated().flatMap { i, r in registry.check(T.self, .object(r), path: "\(T.table)[\(i)]") }
        return [
            CaseResult(app: app, kind: "models", name: "\(name) columns", passed: cov.isEmpty, message: cov.joined(separator: "\n")),
            CaseResult(
                app: app, kind: "models", name: "\(T.self) round-trips \(rows.count) \(T.table) rows\(source)", passed: trips.isEmpty,
                message: trips.prefix(10).joined(separator: "\n"))
        ]
    }

    /// Table-model cases against a backend's schema and rows (every row of each table, as the
    /// service role reads it; for a table without rows, its `responseRows`): each model's cases,
    /// one failing case per public table without a model, and one per table with more than one.
    package static func tableResults(
        app: String, backend: any BackendUnderTest, models: [any TableModel.Type], registry: ModelRegistry,
        responseRows: [String: [[String: JSONValue]]] = [:]
    ) throws -> [CaseResult] {
        let schema = backend.served.spec.schema
        func run<T: TableModel>(_ m: T.Type) throws -> [CaseResult] {
            let rows = schema.table(T.table) == nil ? [] : try backend.served.rows(T.table, nil)
            if rows.isEmpty, let answered = responseRows[T.table], !answered.isEmpty {
                return check(m, app: app, schema: schema, rows: answered, source: " from interaction responses", coder: registry.coder)
            }
            return check(m, app: app, schema: schema, rows: rows, source: "", coder: registry.coder)
        }
        var out: [CaseResult] = []
        for m in models { out += try run(m) }
        let byTable = Dictionary(grouping: models.map { ($0.table, String(describing: $0)) }, by: \.0)
        for t in schema.tables where t.schema == "public" {
            let names = byTable[t.name]?.map(\.1) ?? []
            if names.isEmpty {
                out.append(CaseResult(app: app, kind: "models", name: "table \(t.name)", passed: false, message: "no model for table \(t.name)"))
            } else if names.count > 1 {
                out.append(
                    CaseResult(
                        app: app, kind: "models", name: "table \(t.name)", passed: false,
                        message: "\(names.count) models for table \(t.name): \(names.joined(separator: ", "))"))
            }
        }
        return out
    }

    /// Complete rows (exactly the table's columns) in the response bodies of replayed steps
    /// whose `model` is a table model (`RideParticipant`, `RideParticipant[]`), by table.
    package static func responseRows(_ results: [InteractionResult], models: [any TableModel.Type], schema: DatabaseSchema) -> [String: [[String: JSONValue]]] {
        let tables = Dictionary(models.map { (String(describing: $0), $0.table) }, uniquingKeysWith: { a, _ in a })
        var out: [String: [[String: JSONValue]]] = [:]
        for t in results.flatMap(\.transcript) {
            guard let m = t.step.model, let name = tables[m.hasSuffix("[]") ? String(m.dropLast(2)) : m],
                let columns = schema.table(name).map({ Set($0.columns.map(\.name)) }), let body = t.responseBody
            else { continue }
            for case .object(let row) in body.arrayValue ?? [body] where Set(row.keys) == columns { out[name, default: []].append(row) }
        }
        return out
    }

    /// Round trips of the bodies of replayed interactions through the models their steps name.
    package static func interactionResults(app: String, _ results: [InteractionResult], registry: ModelRegistry) -> [CaseResult] {
        var out: [CaseResult] = []
        for r in results {
            for (i, t) in r.transcript.enumerated() {
                let label = "\(r.file.file.split(separator: "/").last ?? "") step \(i + 1)"
                let bodies = [("response", t.step.model, t.responseBody), ("request", t.step.requestModel, t.requestBody)]
                for case let (side, m?, body) in bodies {
                    let problems = body.map { registry.check(m, $0, path: "\(t.step.path).\(side).body") } ?? ["no JSON \(side) body to decode as \(m)"]
                    out.append(
                        CaseResult(
                            app: app, kind: "models", name: "\(label) \(side) as \(m)", passed: problems.isEmpty,
                            message: problems.joined(separator: "\n")))
                }
            }
        }
        return out
    }
}
