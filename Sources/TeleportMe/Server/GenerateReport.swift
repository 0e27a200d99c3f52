import Foundation
import MockBinding

/// The `generate-report` edge function (§4.6) on the mock: validates the request, fetches the
/// current city and every candidate with their scores (as the service role, like the deployed
/// function), runs `ReportEngine` with the given refiner, saves the report as the caller when
/// signed in, and answers the §4.6 response.
package struct GenerateReportFunction: Sendable {
    package let rules: ReportRules
    /// Function rules (error codes).
    package let functions: FunctionRules
    /// The GPT step.
    package let refiner: any Refiner
    /// The catalog last read, kept while `cities` and `city_scores` are unchanged.
    private let catalogs = CatalogCache()

    package init(rules: ReportRules, functions: FunctionRules, refiner: any Refiner) {
        self.rules = rules
        self.functions = functions
        self.refiner = refiner
    }

    func badRequest(_ message: String, _ code: String) -> HTTPResponse {
        .json(400, ["error": .string(message), "code": .string(code)])
    }

    /// A validated request or the 400 refusing it.
    enum Parsed {
        case accepted(GenerateReportRequest)
        case rejected(HTTPResponse)
    }

    /// Validates the body: an object with a non-empty string `current_city_id` and a
    /// `preferences` object holding each required key as a number within range.
    func request(from body: Data) -> Parsed {
        let json: JSONValue
        do { json = body.isEmpty ? .object([:]) : try JSONValue.parse(body) } catch {
            return .rejected(badRequest("request body is not valid JSON: \(error)", functions.invalidBodyCode))
        }
        guard case .object(let o) = json else {
            return .rejected(badRequest("request body must be a JSON object, found \(json.typeName)", functions.invalidBodyCode))
        }
        guard let cityNode = o["current_city_id"] else {
            return .rejected(badRequest("current_city_id is required", functions.invalidBodyCode))
        }
        guard let city = cityNode.stringValue else {
            return .rejected(badRequest("current_city_id must be a string, found \(cityNode.typeName)", functions.invalidBodyCode))
        }
        if city.isEmpty { return .rejected(badRequest("current_city_id must not be empty", functions.invalidBodyCode)) }
        guard let prefsNode = o["preferences"] else {
            return .rejected(badRequest("preferences is required", functions.invalidBodyCode))
        }
        guard case .object(let p) = prefsNode else {
            return .rejected(badRequest("preferences must be an object, found \(prefsNode.typeName)", functions.invalidBodyCode))
        }
        var values: [String: Double] = [:]
        let range = "\(JSONValue.formatDouble(rules.preferenceMin)) to \(JSONValue.formatDouble(rules.preferenceMax))"
        for key in rules.preferenceKeys {
            guard let v = p[key] else {
                return .rejected(badRequest("preferences.\(key) is required (a number from \(range))", functions.invalidPreferenceCode))
            }
            guard let d = v.doubleValue else {
                return .rejected(badRequest("preferences.\(key) must be a number from \(range), found \(v.typeName)", functions.invalidPreferenceCode))
            }
            values[key] = d
        }
        let prefs = ReportPreferences(cost: values["cost"]!, climate: values["climate"]!, culture: values["culture"]!, jobMarket: values["job_market"]!)
        do { try ReportEngine(rules: rules).validate(prefs) } catch let e as ReportInputError {
            return .rejected(badRequest("\(e)", functions.invalidPreferenceCode))
        } catch {
            return .rejected(badRequest("\(error)", functions.invalidPreferenceCode))
        }
        return .accepted(GenerateReportRequest(currentCityID: city, preferences: prefs))
    }

    /// Reads every city and its scores (steps 2-3).
    package static func catalog(from database: Database, rules: ReportRules) throws -> ReportCatalog {
        let cities = try database.rows("cities", as: .serviceRole, order: [OrderTerm(column: "id")])
        let scoreRows = try database.rows("city_scores", as: .serviceRole)
        var scores: [String: [String: Double]] = [:]
        for r in scoreRows {
            guard let city = r["city_id"]?.stringValue, let cat = r["category"]?.stringValue, let v = r["score"]?.doubleValue else { continue }
            scores[city, default: [:]][cat] = v
        }
        let list = try cities.map { row -> ReportCity in
            let c = try PostgresRowCoding.decode(City.self, from: .object(row))
            return ReportCity(id: c.id, name: c.name, fullName: c.fullName, country: c.country, imageURL: c.imageURL, scores: scores[c.id] ?? [:])
        }
        return ReportCatalog(cities: list, rules: rules)
    }

    package func handle(_ call: FunctionCall) throws -> HTTPResponse {
        guard call.request.method == "POST" else {
            return .json(405, ["error": .string("generate-report accepts POST, not \(call.request.method)"), "code": .string(functions.invalidBodyCode)])
        }
        let req: GenerateReportRequest
        switch request(from: call.request.body) {
        case .rejected(let r): return r
        case .accepted(let r): req = r
        }
        // Steps 2-3.
        let catalog = try catalogs.catalog(from: call.backend.database) { try Self.catalog(from: $0, rules: rules) }
        guard let current = catalog.city(req.currentCityID) else {
            return badRequest("unknown city '\(req.currentCityID)': current_city_id must be the id of a row of cities", functions.unknownCityCode)
        }
        // Steps 3-9.
        let outcome = try ReportEngine(rules: rules).generate(current: current, preferences: req.preferences, catalog: catalog, refiner: refiner)
        var response = outcome.response
        // Step 10: save as the caller, so RLS applies. The row and the response are built
        // field by field (`ReportJSON`): what `PostgresRowCoding.encode` and its text give.
        if rules.saveWhenAuthenticated, call.auth.role == "authenticated", let uid = call.auth.userID, let userID = PGUUID(uid) {
            let row = CityReportInsert(
                userID: userID, currentCityID: current.id, preferences: req.preferences,
                results: response.matches, aiSummary: outcome.aiSummary)
            guard case .object(let obj) = try row.jsonValue() else { throw RefinerError("report row is not an object") }
            let written = try call.backend.database.insert("city_reports", [obj], as: call.auth)
            response.reportID = written.first?["id"]?.stringValue.flatMap(PGUUID.init)
        }
        // Step 11.
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=utf-8"], body: Data(try response.jsonBytes()))
    }
}

/// The last catalog built, with the identity of the rows it was built from: a call whose tables
/// are unchanged reuses it instead of reading and decoding every city again (the result is the
/// same: the catalog is a function of those rows and the fixed rules).
final class CatalogCache: @unchecked Sendable {
    // Unchecked: `last` is only touched under `lock`.
    private let lock = NSLock()
    private var last: (identity: RowsIdentity, database: ObjectIdentifier, catalog: ReportCatalog)?
    /// The tables a catalog is read from.
    static let tables = ["cities", "city_scores"]

    func catalog(from database: Database, build: (Database) throws -> ReportCatalog) throws -> ReportCatalog {
        // One snapshot for the identity and the read, so the catalog kept is the one the identity names.
        try database.reading { db in
            let identity = db.rowsIdentity(Self.tables)
            let id = ObjectIdentifier(database)
            if let identity {
                lock.lock()
                defer { lock.unlock() }
                if let last, last.identity == identity, last.database == id { return last.catalog }
            }
            let built = try build(db)
            if let identity {
                lock.lock()
                last = (identity, id, built)
                lock.unlock()
            }
            return built
        }
    }
}
