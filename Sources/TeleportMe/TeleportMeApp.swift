import Foundation
@_exported import MockBinding // a client importing the app gets its mock backend and the rule machinery

/// TeleportMe: its contracts folder and the server-side pieces it plugs into the mock.
public enum TeleportMeApp: ContractApp, AppModule {
    public static let name = "teleportme"
    public static let title = "TeleportMe"

    /// The payload models interaction files name (the table models are added by name).
    package static var modelRegistry: ModelRegistry {
        var r = ModelRegistry()
        r.register(GenerateReportRequest.self); r.register(GenerateReportResponse.self); r.register(ReportErrorBody.self)
        r.register(CityMatch.self); r.register(ReportCurrentCity.self); r.register(ComparisonEntry.self)
        r.register(ReportPreferences.self)
        r.register(SavedCityInsert.self); r.register(UserPreferencesUpsert.self); r.register(ProfileUpdate.self)
        r.register(CityReportInsert.self); r.register(EngagementEventInsert.self)
        return r
    }

    /// Registers the `generate-report` edge function (with the deterministic refiner), the
    /// `search_cities` RPC and the `handle_new_user` / `update_updated_at` triggers, with rules
    /// read from the backend's contracts folder (report.json, functions.json).
    ///
    /// If a rules file cannot be read, the function and the RPC answer 500 naming the file and
    /// JSON path, so the error surfaces on the first call instead of as a crash.
    public static func register(on backend: MockSupabase) {
        register(on: backend, refiner: nil)
    }

    /// As `register(on:)`, with a chosen refiner (nil: the deterministic one of report.json).
    package static func register(on backend: MockSupabase, refiner: (any Refiner)?) {
        let folder = backend.configuration.spec.folder
        do {
            let report = try ReportRules.load(folder.appendingPathComponent("report.json"))
            let functions = try FunctionRules.load(folder.appendingPathComponent("functions.json"), schema: backend.configuration.spec.schema)
            register(on: backend, report: report, functions: functions, refiner: refiner ?? DeterministicRefiner(rules: report))
        } catch {
            let message = "\(error)"
            backend.registerFunction("generate-report") { _ in .json(500, ["error": .string(message), "code": "contracts_unreadable"]) }
            backend.registerRPC(
                RPCFunction(name: "search_cities", parameters: [RPCParameter("search_term", .text)], returns: .scalar(.text)) { _ in
                    throw PostgresError("XX000", message)
                })
        }
    }

    /// Registers everything with explicit rules and refiner.
    package static func register(on backend: MockSupabase, report: ReportRules, functions: FunctionRules, refiner: any Refiner) {
        let fn = GenerateReportFunction(rules: report, functions: functions, refiner: refiner)
        backend.registerFunction("generate-report", verifyJWT: functions.reportVerifyJWT) { call in try fn.handle(call) }
        let search = SearchCitiesFunction(rules: functions.search)
        let columns = backend.configuration.spec.schema.table("cities")?.columns ?? []
        backend.registerRPC(
            RPCFunction(
                name: "search_cities", parameters: [RPCParameter(functions.search.parameter, .text)],
                returns: .rows(columns), volatile: false
            ) { call in try search.handle(call) })
        registerTriggers(on: backend, rules: functions)
    }
}
