import Foundation
import MockBinding

/// Which refiner a golden case uses.
package enum RefinerSpec: Sendable, Equatable {
    /// The mock's deterministic refiner (report.json `mockRefiner`).
    case deterministic
    /// A fixed raw reply.
    case reply(String)
    /// A fixed reply of this JSON (serialised compactly).
    case replyJSON(JSONValue)
    /// A refiner that throws this message.
    case failing(String)

    /// The refiner under `rules`.
    package func make(_ rules: ReportRules) -> any Refiner {
        switch self {
        case .deterministic: return DeterministicRefiner(rules: rules)
        case .reply(let text): return FixedRefiner(reply: text)
        case .replyJSON(let json): return FixedRefiner(reply: json.serialized())
        case .failing(let message): return FailingRefiner(message)
        }
    }

    /// How the golden file records it.
    package var json: JSONValue {
        switch self {
        case .deterministic: return ["kind": "deterministic"]
        case .reply(let text): return ["kind": "reply", "text": .string(text)]
        case .replyJSON(let json): return ["kind": "reply", "json": json]
        case .failing(let message): return ["kind": "throws", "error": .string(message)]
        }
    }
}

/// One report golden case of `Contracts/teleportme/report-cases.json`.
package struct ReportGoldenCase: Sendable, Equatable {
    /// File name under Golden/teleportme/report/.
    package var name: String
    /// What it shows.
    package var doc: String
    package var request: GenerateReportRequest
    package var refiner: RefinerSpec
}

/// TeleportMe's report goldens: inputs from report-cases.json, the catalog of the 55 fixture
/// cities, outputs in Golden/teleportme/report/, each also replayed through the mock's
/// generate-report.
package enum TeleportMeGoldens {
    package static let suite = "report"

    /// `Contracts/teleportme/report-cases.json`.
    package static var casesURL: URL { ContractsLocator.app(TeleportMeApp.name).appendingPathComponent("report-cases.json") }

    /// Reads the cases strictly.
    package static func loadCases(_ url: URL = casesURL) throws -> [ReportGoldenCase] {
        try SpecNode.decode(CasesFile.self, from: url, displayName: "Contracts/teleportme/report-cases.json").cases
    }

    /// The catalog of the fixture cities, as the mock's database holds them.
    package static func fixtureCatalog(spec: AppSpec, rules: ReportRules) throws -> ReportCatalog {
        let cities = try spec.fixtures.rows("cities").map { try PostgresRowCoding.decode(City.self, from: $0) }
        let scores = try spec.fixtures.rows("city_scores").map { try PostgresRowCoding.decode(CityScore.self, from: $0) }
        let byCity = Dictionary(grouping: scores, by: { $0.cityID ?? "" })
        return ReportCatalog(
            cities: cities.sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }.map { ReportCity(city: $0, scores: byCity[$0.id] ?? []) }, rules: rules)
    }

    /// The golden content of a case: inputs, the candidates and their scores, how the matches
    /// were chosen, and the §4.6 response.
    package static func output(_ c: ReportGoldenCase, rules: ReportRules, catalog: ReportCatalog) throws -> JSONValue {
        let outcome = try ReportEngine(rules: rules).generate(
            currentCityID: c.request.currentCityID, preferences: c.request.preferences,
            catalog: catalog, refiner: c.refiner.make(rules))
        let refinement: JSONValue
        switch outcome.refinement {
        case .refined: refinement = ["outcome": "refined"]
        case .fallback(let reason): refinement = ["outcome": "fallback", "reason": .string(reason.description)]
        }
        return [
            "case": .string(c.name),
            "doc": .string(c.doc),
            "request": try PostgresRowCoding.encode(c.request),
            "refiner": c.refiner.json,
            "candidates": .array(
                outcome.candidates.map {
                    [
                        "city_id": .string($0.cityID), "raw_score": .double(ReportRules.Rounding.halfAwayFromZero.apply($0.rawScore, decimals: 4)),
                        "match_percent": .int(Int64($0.matchPercent))
                    ]
                }),
            "refinement": refinement,
            "dropped": .array(outcome.dropped.map { ["entry": .string($0.entry), "reason": .string($0.reason)] }),
            "ai_summary": outcome.aiSummary.map(JSONValue.string) ?? .null,
            "response": try PostgresRowCoding.encode(outcome.response)
        ]
    }

    /// Calls the mock's generate-report for a case as persona `ana` (so the save path runs too)
    /// and returns the golden's response beside the mock's, report_id aligned.
    package static func replay(_ c: ReportGoldenCase, golden: JSONValue) throws -> GoldenReplay {
        let backend = try MockSupabase(contracts: ContractsLocator.app(TeleportMeApp.name), clock: ManualClock(), ids: SeededIDGenerator(seed: 7))
        let report = try ReportRules.load(backend.configuration.spec.folder.appendingPathComponent("report.json"))
        TeleportMeApp.register(on: backend, refiner: c.refiner.make(report))
        let transport = InteractionReplay.transport(for: backend)
        let response = try transport.send(
            WireRequest(
                method: "POST", path: "/functions/v1/generate-report", headers: ["Content-Type": "application/json"],
                body: try PostgresRowCoding.encode(c.request).data(), actor: .persona("ana")))
        var problems: [String] = []
        if response.status != 200 { problems.append("generate-report answered \(response.status): \(response.text)") }
        var actual = response.jsonBody ?? .string(response.text)
        var expected = golden["response"] ?? .null
        if case .object(var a) = actual, case .object(var e) = expected {
            let id = a["report_id"]?.stringValue
            if let id, PGUUID(id)?.rawValue == id {
                let saved = try backend.database.rows("city_reports", as: .serviceRole, where: .eq("id", id))
                if saved.first?["user_id"]?.stringValue != backend.configuration.spec.fixtures.persona("ana")?.id {
                    problems.append("report \(id) was not saved to city_reports for ana")
                }
                a["report_id"] = "<saved report id>"
                e["report_id"] = "<saved report id>"
            } else {
                problems.append("report_id is \(a["report_id"].map { $0.serialized() } ?? "missing"), expected the saved row's uuid")
            }
            actual = .object(a)
            expected = .object(e)
        }
        return GoldenReplay(expected: expected, actual: actual, problems: problems)
    }

    /// The golden cases under `rules` (default: report.json); `replay` adds the mock replay.
    package static func goldenCases(rules: ReportRules? = nil, replay withReplay: Bool = true) throws -> [GoldenCase] {
        let r = try rules ?? ReportRules.load()
        let spec = try TeleportMeApp.spec()
        let catalog = try fixtureCatalog(spec: spec, rules: r)
        return try loadCases().map { c -> GoldenCase in
            let produce: @Sendable () throws -> JSONValue = { try output(c, rules: r, catalog: catalog) }
            var replayer: (@Sendable (JSONValue) throws -> GoldenReplay)?
            if withReplay { replayer = { golden in try replay(c, golden: golden) } }
            return GoldenCase(suite: suite, name: c.name, produce: produce, replay: replayer)
        }
    }
}

extension TeleportMeApp: GoldenSource {
    /// The report goldens (Golden/teleportme/report/).
    package static func goldenCases() throws -> [GoldenCase] { try TeleportMeGoldens.goldenCases() }
}

/// report-cases.json.
private struct CasesFile: Decodable {
    var cases: [ReportGoldenCase]
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, cases }
    init(from decoder: Decoder) throws { cases = try decoder.container(keyedBy: CodingKeys.self).decode([ReportGoldenCase].self, forKey: .cases) }
}

extension RefinerSpec: Decodable {
    enum CodingKeys: String, CodingKey { case kind, json, text, error }
    /// `{"kind": "deterministic"}`, `{"kind": "reply", "json" or "text"}`, `{"kind": "throws", "error"}`.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "deterministic": self = .deterministic
        case "reply":
            if let j = try c.decodeIfPresent(JSONValue.self, forKey: .json) {
                self = .replyJSON(j)
            } else {
                self = .reply(try c.decode(String.self, forKey: .text))
            }
        case "throws": self = .failing(try c.decode(String.self, forKey: .error))
        case let k: throw c.fail(.kind, "unknown refiner kind '\(k)' (deterministic, reply, throws)")
        }
    }
}

extension ReportGoldenCase: Decodable {
    enum CodingKeys: String, CodingKey { case preferences, refiner, name, doc, current_city_id }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let prefs = try c.decode(ReportPreferences.self, forKey: .preferences)
        refiner = try c.decode(RefinerSpec.self, forKey: .refiner)
        name = try c.decode(String.self, forKey: .name)
        doc = try c.decode(String.self, forKey: .doc)
        request = GenerateReportRequest(currentCityID: try c.decode(String.self, forKey: .current_city_id), preferences: prefs)
    }
}
