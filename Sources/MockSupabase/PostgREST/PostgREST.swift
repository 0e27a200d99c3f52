import Foundation

/// PostgREST's mapping of SQLSTATE / PGRST codes to HTTP status (`mapSQLtoHTTP` and the
/// `ErrorHeaders` instances of src/library/PostgREST/Error.hs). The mock's own: the judge reads
/// Contracts/shared/postgrest-errors.json, and a test holds this switch to that table.
package func postgrestStatus(for code: String, anonymous: Bool, message: String = "") -> Int {
    switch code {
    case "42501": return anonymous ? 401 : 403
    case "23503", "23505": return 409
    case "25006": return 405
    case "P0001": return 400
    case "21000": return message.hasSuffix("requires a WHERE clause") ? 400 : 500
    case "22023": return message.hasPrefix("role") && message.hasSuffix("does not exist") ? 401 : 400
    case "42883": return message.hasPrefix("function xmlagg(") ? 406 : 404
    case "42P01": return 404
    case "42P17": return 500
    case "53400": return 500
    case "57P01": return 503
    case "PGRST000", "PGRST001", "PGRST002": return 503
    case "PGRST003": return 504
    case "PGRST116", "PGRST106", "PGRST107": return 406
    case "PGRST103": return 416
    case "PGRST201", "PGRST203": return 300
    case "PGRST101", "PGRST105", "PGRST117": return 405
    case "PGRST202", "PGRST205", "PGRST125", "PGRST126": return 404
    case "PGRST111", "PGRST112", "PGRST121", "PGRST300": return 500
    case "PGRST301", "PGRST302", "PGRST303": return 401
    default: break
    }
    // `RAISE sqlstate 'PT402'` answers 402; a PT code without a number, 500.
    if code.hasPrefix("PT") {
        let digits = code.dropFirst(2)
        return !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(digits) ?? 500 : 500
    }
    let prefix = code.prefix(2)
    switch prefix {
    case "08", "53": return 503
    case "09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "P0", "XX": return 500
    case "0L", "0P", "28": return 403
    default: return 400
    }
}

extension MockSupabase {
    static let objectMediaType = "application/vnd.pgrst.object+json"

    /// An error response in PostgREST's shape with its status.
    func restError(_ e: PostgresError, anonymous: Bool, singular: Bool = false) -> HTTPResponse {
        // Every error names its code in RFC 9209's Proxy-Status (PostgREST 13.0, Error.hs
        // `errorResponseFor`); the newest documented behaviour is followed (docs/references/errors.rst).
        var headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8", "Proxy-Status": "PostgREST; error=\(e.code)"]
        let status = postgrestStatus(for: e.code, anonymous: anonymous, message: e.message)
        if status == 401 {
            let desc = e.code.hasPrefix("PGRST3") ? e.message : "permission denied"
            headers["WWW-Authenticate"] = e.code.hasPrefix("PGRST3") ? "Bearer error=\"invalid_token\", error_description=\"\(desc)\"" : "Bearer"
        }
        return HTTPResponse(status: status, headers: headers, body: e.json.data())
    }

    /// Resolves the request's role from its JWT (PGRST301/303 on a bad one).
    func restAuth(_ request: HTTPRequest) throws -> AuthContext {
        guard let token = bearer(request) else { return .anon }
        if token.isEmpty { throw PostgresError("PGRST301", "Expected 3 parts in JWT; got 1") }
        do {
            return try verify(token: token)
        } catch let e as JWTError {
            switch e {
            case .expired: throw PostgresError("PGRST303", "JWT expired")
            case .malformed:
                let n = token.split(separator: ".", omittingEmptySubsequences: false).count
                throw PostgresError("PGRST301", "Expected 3 parts in JWT; got \(n)")
            case .algorithmNotAllowed: throw PostgresError("PGRST301", "Wrong or unsupported encoding algorithm")
            default: throw PostgresError("PGRST301", e.description)
            }
        }
    }

    /// PostgREST's answer with the headers its middleware adds: `Vary: Accept, Prefer, Range` on
    /// every answer that is not an error (App.hs `toWaiResponse`), and, when the request has an
    /// `Origin`, the response headers CORS exposes (Cors.hs `corsExposedHeaders`).
    func handleREST(_ request: HTTPRequest) -> HTTPResponse {
        var response = handleRESTRequest(request)
        if response.status < 400, response.headers["Vary"] == nil, response.headers["Proxy-Status"] == nil {
            response.headers["Vary"] = "Accept, Prefer, Range"
        }
        if request.headers["Origin"] != nil {
            response.headers["Access-Control-Expose-Headers"] =
                "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit"
        }
        return response
    }

    /// The `Allow` answer to OPTIONS on a relation (Response.hs `RelInfoPlan`): reads always;
    /// writes where the relation takes them (an app-computed view takes none); PUT only with a
    /// primary key. Empty body.
    func restOptions(_ table: TableSchema) -> HTTPResponse {
        let writable = !table.isView || table.simpleView?.isUpdatable == true
        var key = table.primaryKey
        if key.isEmpty, let chain = database.schema.viewChain(table) {
            let shown = Set(table.columns.map(\.name))
            key = chain.base.primaryKey.allSatisfy(shown.contains) ? chain.base.primaryKey : []
        }
        var allow = ["OPTIONS,GET,HEAD"]
        if writable { allow += ["POST"] + (key.isEmpty ? [] : ["PUT"]) + ["PATCH", "DELETE"] }
        return HTTPResponse(status: 200, headers: ["Access-Control-Allow-Origin": "*", "Allow": allow.joined(separator: ",")])
    }

    private func handleRESTRequest(_ request: HTTPRequest) -> HTTPResponse {
        if let denied = checkAPIKey(request) { return denied }
        var anonymous = true
        do {
            let auth = try restAuth(request)
            anonymous = auth.role == "anon"
            // Schema profiles: the contract's exposed schemas (PostgREST's `db-schemas`); the
            // first is served without a header.
            let exposed = database.schema.exposedSchemas
            let apiSchema = database.schema.apiSchema
            // ApiRequest.hs `getSchema`: writes name it in Content-Profile, other methods in
            // Accept-Profile; a named or (with several exposed) defaulted schema is "negotiated"
            // and successful answers with a body carry `Content-Profile` (Response.hs `profileHeader`).
            let profileHeader = ["DELETE", "PATCH", "POST", "PUT"].contains(request.method) ? "Content-Profile" : "Accept-Profile"
            let profile = request.headers[profileHeader]
            if let profile, !exposed.contains(profile) {
                throw PostgresError(
                    "PGRST106", "Invalid schema: \(profile)", hint: "Only the following schemas are exposed: \(exposed.joined(separator: ", "))")
            }
            var response = try routeREST(request, auth, schemaName: profile ?? apiSchema)
            if profile != nil || exposed.count > 1, response.status < 400, response.headers["Content-Type"] != nil {
                response.headers["Content-Profile"] = profile ?? apiSchema
            }
            return response
        } catch let e as PostgresError {
            return restError(e, anonymous: anonymous, singular: wantsObject(request))
        } catch {
            return restError(PostgresError("XX000", "\(error)"), anonymous: anonymous)
        }
    }

    /// A REST request once its key, role and schema profile are accepted. A table of a later
    /// exposed schema is handled under its qualified name and embeds among its schema's tables.
    private func routeREST(_ request: HTTPRequest, _ auth: AuthContext, schemaName: String) throws -> HTTPResponse {
        var rest = String(request.path.dropFirst("/rest/v1".count))
        while rest.hasPrefix("/") { rest.removeFirst() }
        while rest.hasSuffix("/") { rest.removeLast() }
        if rest.isEmpty {
            if request.method == "OPTIONS" { return HTTPResponse(status: 200, headers: ["Access-Control-Allow-Origin": "*", "Allow": "OPTIONS,GET,HEAD"]) }
            return openAPIRoot()
        }
        if rest.hasPrefix("rpc/") {
            return try handleRPC(String(rest.dropFirst(4)), request, auth)
        }
        if rest.utf8.contains(0x2F) {
            throw PostgresError("PGRST125", "Invalid path specified in request URL")
        }
        let bare = rest
        if schemaName != database.schema.apiSchema { rest = "\(schemaName).\(bare)" }
        // A read whose plan is kept names a table of its schema: a plan is kept only once one was
        // built past the lookup below (the key holds the qualified name), and a backend's schema is
        // fixed. It skips the lookup.
        let isRead = request.method == "GET" || request.method == "HEAD"
        let planKey = isRead ? Self.planKey(rest, request) : nil
        let ready = planKey.flatMap(readPlans.entry)
        if ready == nil {
            guard let restTable = database.tableSchema(rest), restTable.schema == schemaName else {
                throw tableNotFound(bare, in: schemaName)
            }
            if request.method == "OPTIONS" { return restOptions(restTable) }
        }
        // Plan.hs: preferences are judged once the target is known.
        let prefs = Preferences(request.headers)
        try prefs.validate()
        // `Prefer: timezone=…` is the request's session zone (timestamptz output follows it).
        let zone = try prefs.timezone.map(PGSessionZone.parse)
        if let planKey, zone == nil, PGSessionZone.current == nil {
            // The zone is already UTC: binding it again would change nothing (and costs a
            // task-local push per read).
            return try restRead(rest, request, auth, prefs: prefs, key: planKey, ready: ready)
        }
        switch request.method {
        case "GET", "HEAD": return try PGSessionZone.$current.withValue(zone) { try restRead(rest, request, auth, prefs: prefs, key: planKey, ready: ready) }
        case "POST": return try PGSessionZone.$current.withValue(zone) { try restInsert(rest, request, auth) }
        case "PATCH": return try PGSessionZone.$current.withValue(zone) { try restUpdate(rest, request, auth) }
        case "DELETE": return try PGSessionZone.$current.withValue(zone) { try restDelete(rest, request, auth) }
        case "PUT": return try PGSessionZone.$current.withValue(zone) { try restPut(rest, request, auth) }
        default:
            return HTTPResponse(
                status: 405, headers: ["Content-Type": "application/json; charset=utf-8", "Allow": "OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE"],
                body: PostgresError("PGRST117", "Unsupported HTTP method: \(request.method)").json.data())
        }
    }

    func openAPIRoot() -> HTTPResponse {
        var paths: [String: JSONValue] = ["/": ["get": ["summary": "OpenAPI description (this document)"]]]
        for t in database.schema.tables where t.schema == database.schema.apiSchema {
            paths["/\(t.name)"] = ["get": [:], "post": [:], "patch": [:], "delete": [:]]
        }
        for n in rpcNames { paths["/rpc/\(n)"] = ["post": [:], "get": [:]] }
        var defs: [String: JSONValue] = [:]
        for t in database.schema.tables where t.schema == database.schema.apiSchema {
            var props: [String: JSONValue] = [:]
            for c in t.columns { props[c.name] = ["format": .string(c.type.description)] }
            defs[t.name] = [
                "type": "object", "properties": .object(props),
                "required": .array(t.columns.filter { !$0.nullable && $0.defaultValue == nil }.map { .string($0.name) })
            ]
        }
        return .json(
            200, ["swagger": "2.0", "info": ["title": "SupaContracts mock PostgREST", "version": "12"], "paths": .object(paths), "definitions": .object(defs)],
            headers: ["Content-Type": "application/openapi+json; charset=utf-8"])
    }

    /// A query-string key or value as http-types' `renderSimpleQuery True` writes the Location
    /// header's (Response.hs): letters, digits and `-_.~` as they are, every other UTF-8 byte
    /// percent-encoded in upper-case hex (a space is `%20`).
    static func queryEncoded(_ s: String) -> String {
        // The same rule as the Content-Location's query (CanonicalLocation: urlEncode's bytes).
        var out: [UInt8] = []
        CanonicalLocation.encode(s, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func wantsObject(_ request: HTTPRequest) -> Bool {
        request.headers["Accept"]?.lowercased().contains(MockSupabase.objectMediaType) == true
    }

    static let arrayStripMediaType = "application/vnd.pgrst.array+json;nulls=stripped"
    static let objectStripMediaType = "application/vnd.pgrst.object+json;nulls=stripped"

    /// Validates `Accept` as PostgREST's MediaType.hs decodes it: JSON (also
    /// `vnd.pgrst.array+json`), the singular object type, either with `nulls=stripped`, CSV or
    /// anything.
    func negotiate(_ request: HTTPRequest) throws -> String {
        guard let accept = request.headers["Accept"]?.lowercased(), !accept.isEmpty else { return "application/json" }
        for part in accept.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            let t = pieces.first ?? ""
            let stripped = pieces.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "nulls=stripped" }
            switch t {
            case MockSupabase.objectMediaType, "application/vnd.pgrst.object":
                return stripped ? MockSupabase.objectStripMediaType : MockSupabase.objectMediaType
            case "application/vnd.pgrst.array+json", "application/vnd.pgrst.array":
                return stripped ? MockSupabase.arrayStripMediaType : "application/json"
            case "application/json", "*/*", "application/*": return "application/json"
            case "text/csv": return "text/csv"
            default: continue
            }
        }
        throw PostgresError("PGRST107", "None of these media types are available: \(accept)")
    }

    /// Whether a negotiated type is a singular object.
    static func isObject(_ media: String) -> Bool { media == objectMediaType || media == objectStripMediaType }

    // MARK: Reads

    /// The `readPlans` key of a read of a table.
    static func planKey(_ tableName: String, _ request: HTTPRequest) -> ReadPlanCache.Key {
        ReadPlanCache.Key(table: tableName, query: ParsedQueryCache.Key(request.query, forRPC: false))
    }

    /// A read; `prefs`, the request's preferences when already parsed; `key`, its `planKey` when
    /// already built; `ready`, the plan already taken from `readPlans` under it (nil: looked up here).
    func restRead(
        _ tableName: String, _ request: HTTPRequest, _ auth: AuthContext, prefs: Preferences? = nil, key: ReadPlanCache.Key? = nil,
        ready: ReadPlanCache.Entry? = nil
    ) throws -> HTTPResponse {
        // One snapshot for the read and its embeds, as one PostgreSQL statement sees one.
        try database.reading {
            try restRead(
                tableName, request, auth, database: $0, prefs: prefs ?? Preferences(request.headers), key: key ?? Self.planKey(tableName, request),
                known: ready)
        }
    }

    private func restRead(
        _ tableName: String, _ request: HTTPRequest, _ auth: AuthContext, database: Database, prefs: Preferences, key planKey: ReadPlanCache.Key,
        known: ReadPlanCache.Entry?
    ) throws -> HTTPResponse {
        let media = try negotiate(request)
        // A repeated GET takes its parsed query and plan from `readPlans`; a first one builds them
        // in PostgREST's order (parse, then Range, then relationships, then aggregates).
        let queryKey = planKey.query
        let ready = known ?? readPlans.entry(planKey)
        let parsed = try ready?.query ?? parsedQueries.parse(request.query, key: queryKey)
        var q = parsed
        if let range = request.headers["Range"], let (from, to) = try parseRange(range) {
            q.offset = from
            if let to { q.limit = max(0, to - from + 1) }
        }
        // `db-max-rows` cuts the top level as it cuts every embed (Plan.hs `treeRestrictRange`).
        let maxRows = database.schema.maxRows
        q.limit = EmbedRange.limit(q.limit, restrictedTo: maxRows)
        let plan: SelectPlan
        let filters: [RowFilter]
        let location: String
        if let ready {
            plan = ready.plan
            filters = ready.filters
            location = ready.location
        } else {
            let table = database.tableSchema(tableName)!
            // `db-aggregates-enabled` plans the aggregates; otherwise the list is planned without
            // them and refused after its relationships resolve (PGRST123).
            let aggregates = database.schema.aggregatesEnabled ? q.aggregateSelect : nil
            plan = try SelectPlan.build(
                aggregates ?? q.select, table: table, schema: database.schema.seen(from: table.schema), embeddedFilters: q.embeddedFilters,
                ranges: q.embeddedRanges,
                maxRows: maxRows)
            if aggregates == nil { try q.rejectAggregates() }
            filters = try plan.takeNullFilters(q.filter)
            location = CanonicalLocation.location(table: tableName, query: request.query)
            readPlans.store(planKey, query: parsed, plan: plan, filters: filters, location: location)
        }
        // `order=rel(col)` sorts by a to-one embed's column, known only once rows are rendered.
        let relatedOrder = q.order.contains { $0.column.contains("(") }
        let inMemory = plan.hasInnerFilter || relatedOrder || plan.groupsRows
        let result = try database.select(
            from: tableName, as: auth, where: filters.isEmpty ? nil : .and(filters),
            order: relatedOrder ? [] : q.order, limit: inMemory ? nil : q.limit, offset: inMemory ? 0 : q.offset,
            count: prefs.count && !inMemory)
        var rows: [String]
        var csvSource: [[SQLValue]]
        var csvEmbedded: [[String: String]]?
        var total = result.total
        if prefs.countMode == "planned", !inMemory,
            let planned = PlannedCount.estimate(rows: try database.select(from: tableName, as: auth).rows, filters: filters, table: plan.table)
        {
            total = planned
        }
        if prefs.countMode == "estimated", !inMemory, let exact = total, maxRows.map({ exact > $0 }) ?? true {
            // MainTx.hs: past `db-max-rows` (or with none) the count is the larger of the exact
            // count and the planner's guess; with no planner model the exact count stands.
            let planned = PlannedCount.estimate(rows: try database.select(from: tableName, as: auth).rows, filters: filters, table: plan.table)
            total = max(exact, planned ?? exact)
        }
        if inMemory {
            var rendered = try plan.renderRows(result.rows, database: database, auth: auth, jsonb: false)
            if relatedOrder { rendered = try SelectPlan.sortByRelated(rendered, q.order, plan: plan, database: database) }
            if prefs.count {
                // SqlFragment.hs `countF`: with a range (or `db-max-rows`) the exact count is a
                // query of its own over the filtered rows, without the GROUP BY
                // (QueryBuilder.hs `readPlanToCountQuery`); without one it is the page's rows.
                let ranged = q.limit != nil || q.offset > 0
                total = ranged && plan.groupsRows ? try plan.ungroupedCount(result.rows, database: database, auth: auth) : rendered.count
            }
            if prefs.countMode == "planned" || prefs.countMode == "estimated", filters.isEmpty, !relatedOrder, !plan.groupsRows,
                let planned = PlannedCount.estimate(
                    tableRows: try database.select(from: tableName, as: auth).rows.count, nullFilteredEmbedsOf: plan)
            {
                // `estimated` takes the planner's guess as the read without embeds does: past
                // `db-max-rows` (or with none), the larger of it and the exact count.
                if prefs.countMode == "planned" {
                    total = planned
                } else if let exact = total, maxRows.map({ exact > $0 }) ?? true {
                    total = max(exact, planned)
                }
            }
            let start = min(q.offset, rendered.count)
            let end = q.limit.map { start + min($0, rendered.count - start) } ?? rendered.count
            rows = rendered[start..<end].map(\.text)
            csvSource = rendered[start..<end].map(\.source)
            csvEmbedded = rendered[start..<end].map(\.embedded)
        } else {
            // A repeated plain read of a table prints only the rows it has not printed yet.
            if let ready, plan.isPlain, !plan.table.isView, PGSessionZone.current == nil {
                rows = rowTexts.texts(result.rows, plan: ready.printing, print: plan.plainText)
            } else {
                rows = try plan.render(result.rows, database: database, auth: auth)
            }
            csvSource = result.rows
        }
        if let total, q.offset > total {
            // Response.hs answers 416 with `Content-Range: */total`.
            var r = restError(
                PostgresError(
                    "PGRST103", "Requested range not satisfiable",
                    details: "An offset of \(q.offset) was requested, but there are only \(total) rows."), anonymous: auth.role == "anon")
            r.headers["Content-Range"] = "*/\(total)"
            return r
        }
        var headers: HTTPHeaders = [:]
        let rangeText = rows.isEmpty ? "*" : "\(q.offset)-\(q.offset + rows.count - 1)"
        headers["Content-Range"] = "\(rangeText)/\(total.map(String.init) ?? "*")"
        if let applied = prefs.appliedHeader(.read) { headers["Preference-Applied"] = applied }
        headers["Content-Location"] = location
        if let warning = plan.legacyTargetWarning { headers["Warning"] = warning }
        var status = 200
        if let total, rows.count < total { status = 206 }
        let body: String
        switch media {
        case MockSupabase.objectMediaType, MockSupabase.objectStripMediaType:
            guard rows.count == 1 else {
                throw PostgresError("PGRST116", "Cannot coerce the result to a single JSON object", details: "The result contains \(rows.count) rows")
            }
            body = media == MockSupabase.objectStripMediaType ? NullStripping.strip(rows[0]) : rows[0]
            headers["Content-Type"] = "\(media); charset=utf-8"
            status = 200
        case MockSupabase.arrayStripMediaType:
            body = NullStripping.strip(aggregate(rows))
            headers["Content-Type"] = "\(media); charset=utf-8"
        case "text/csv":
            if csvEmbedded == nil, !plan.embeds.isEmpty {
                csvEmbedded = try plan.renderRows(csvSource, database: database, auth: auth, jsonb: false).map(\.embedded)
            }
            body = plan.csv(csvSource, embedded: csvEmbedded)
            headers["Content-Type"] = "text/csv; charset=utf-8"
        default:
            body = aggregate(rows)
            headers["Content-Type"] = "application/json; charset=utf-8"
        }
        if request.method == "HEAD" {
            headers["Content-Length"] = String(body.utf8.count)
            return HTTPResponse(status: status, headers: headers)
        }
        return HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
    }

    /// `Range: a-b` (an optional `items=` unit); a lower bound above the upper one is PGRST103.
    func parseRange(_ s: String) throws -> (Int, Int?)? {
        var t = Substring(s.trimmingCharacters(in: .whitespaces))
        if let eq = t.firstIndex(of: "=") { t = t[t.index(after: eq)...] }
        let parts = t.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0].trimmingCharacters(in: .whitespaces)), a >= 0, a < 1 << 40 else { return nil }
        let b = Int(parts[1].trimmingCharacters(in: .whitespaces))
        if let b, b < a {
            throw PostgresError(
                "PGRST103", "Requested range not satisfiable",
                details: "The lower boundary must be lower than or equal to the upper boundary in the Range header.")
        }
        if let b, b >= 1 << 40 { return nil }
        return (a, b)
    }

    /// `json_agg` framing: `[{…}, \n {…}]`.
    func aggregate(_ rows: [String]) -> String {
        if rows.isEmpty { return "[]" }
        var out = "["
        out.reserveCapacity(rows.reduce(2) { $0 + $1.utf8.count + 4 })
        for (i, r) in rows.enumerated() {
            if i > 0 { out += ", \n " }
            out += r
        }
        out += "]"
        return out
    }

    func csv(_ rows: [String]) -> String {
        let objects = rows.compactMap { try? JSONValue.parse($0).objectValue }
        guard let first = objects.first else { return "" }
        let keys = first.keys.sorted()
        func cell(_ v: JSONValue?) -> String {
            guard let v, !v.isNull else { return "" }
            let s = v.stringValue ?? v.serialized()
            return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        return ([keys.joined(separator: ",")] + objects.map { o in keys.map { cell(o[$0]) }.joined(separator: ",") }).joined(separator: "\n")
    }

    // MARK: Writes

    func parseBody(_ request: HTTPRequest, allowEmpty: Bool) throws -> JSONValue {
        let ct = request.headers["Content-Type"]?.lowercased() ?? "application/json"
        if ct.hasPrefix("application/x-www-form-urlencoded") {
            let (_, items) = HTTPRequest.splitTarget("?" + String(decoding: request.body, as: UTF8.self).replacingOccurrences(of: "+", with: " "))
            return .object(Dictionary(items.map { ($0.name, JSONValue.string($0.value)) }, uniquingKeysWith: { _, b in b }))
        }
        if ct.hasPrefix("text/csv") {
            return try parseCSV(String(decoding: request.body, as: UTF8.self))
        }
        let trimmed = request.body.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if trimmed.isEmpty {
            if allowEmpty { return .object([:]) }
            throw PostgresError("PGRST102", "Empty or invalid json")
        }
        do { return try JSONValue.parse(request.body) } catch {
            throw PostgresError("PGRST102", "Empty or invalid json")
        }
    }

    /// Each row's member texts in a JSON body, which `json` columns keep; nil when PostgreSQL
    /// does not get the body's text: a CSV or form body, or `Prefer: missing=default`, which
    /// sends the body as `jsonb` (SqlFragment.hs `fromJsonBodyF`), so a json column gets the
    /// jsonb text.
    func bodyTexts(_ request: HTTPRequest, _ prefs: Preferences) -> [[String: String]]? {
        let ct = request.headers["Content-Type"]?.lowercased() ?? "application/json"
        if prefs.missingDefault || ct.hasPrefix("application/x-www-form-urlencoded") || ct.hasPrefix("text/csv") { return nil }
        return PGJSONText.bodyMembers(request.body)
    }

    func parseCSV(_ text: String) throws -> JSONValue {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first else { throw PostgresError("PGRST102", "Empty or invalid csv") }
        let keys = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let objects = lines.dropFirst().map { line -> [String: JSONValue] in
            let vals = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(zip(keys, vals).map { ($0, $1 == "NULL" ? JSONValue.null : .string($1)) }, uniquingKeysWith: { a, _ in a })
        }
        // Payload.hs: records are read by the header's names, so a short line lacks keys and the
        // payload's keys are not uniform.
        if let first = objects.first, objects.contains(where: { Set($0.keys) != Set(first.keys) }) {
            throw PostgresError("PGRST102", "All lines must have same number of fields")
        }
        return .array(objects.map { .object($0) })
    }

    func restInsert(_ tableName: String, _ request: HTTPRequest, _ auth: AuthContext) throws -> HTTPResponse {
        let media = try negotiate(request)
        let q = try parsedQueries.parse(request.query)
        let prefs = Preferences(request.headers)
        let body = try parseBody(request, allowEmpty: false)
        var objects: [[String: JSONValue]]
        var isArray = false
        switch body {
        case .object(let o): objects = [o]
        case .array(let a):
            isArray = true
            objects = try a.map { v in
                guard case .object(let o) = v else { throw PostgresError("PGRST102", "All object keys must match") }
                return o
            }
        default: throw PostgresError("PGRST102", "Empty or invalid json")
        }
        var columns = q.columns
        if columns == nil && isArray && objects.count > 1 {
            let first = Set(objects[0].keys)
            if objects.contains(where: { Set($0.keys) != first }) { throw PostgresError("PGRST102", "All object keys must match") }
        }
        if columns == nil { columns = Array(Set(objects.flatMap(\.keys))).sorted() }
        let table = database.tableSchema(tableName)!
        if table.isView && table.simpleView == nil {
            throw PostgresError("55000", "cannot insert into view \"\(tableName)\"")
        }
        let returning = prefs.returning == .representation
        let plan =
            returning
            ? try SelectPlan.build(
                q.select, table: table, schema: database.schema.seen(from: table.schema), embeddedFilters: q.embeddedFilters, ranges: q.embeddedRanges) : nil
        try q.rejectAggregates()
        // Without a primary key or `on_conflict` there is no conflict target: PostgREST ignores
        // `resolution` and inserts plainly (UpsertSpec, "table has no PK").
        let resolution = table.primaryKey.isEmpty && q.onConflict == nil ? .error : prefs.resolution
        // One statement: a singular Accept that does not get exactly one row undoes the write
        // (PostgREST's failNotSingular condemns the transaction).
        let (written, inserted, rows) = try database.atomically { () throws -> ([[SQLValue]], Int, [String]) in
            let snapshot = try plan?.snapshot(database: database, auth: auth)
            let before = database.count(tableName)
            let written = try database.insert(
                into: tableName, rows: objects, texts: bodyTexts(request, prefs), columns: columns, missingAsDefault: prefs.missingDefault,
                as: auth, resolution: resolution, onConflict: q.onConflict, returning: returning)
            let inserted = database.count(tableName) - before
            if MockSupabase.isObject(media) && written.count != 1 { throw singularity(written.count) }
            let shown = plan == nil ? [] : try ordered(written, q.order, table: table)
            return (written, inserted, try plan?.render(shown, database: database, auth: auth, snapshot: snapshot) ?? [])
        }
        let csvText = media == "text/csv" ? plan?.csv(written) : nil
        var headers: HTTPHeaders = ["Content-Range": "*/\(prefs.count ? String(written.count) : "*")"]
        if let applied = prefs.appliedHeader(.create(keyed: !table.primaryKey.isEmpty || q.onConflict != nil)) { headers["Preference-Applied"] = applied }
        if prefs.returning == .headersOnly, let last = written.last, !table.primaryKey.isEmpty {
            let pk = table.primaryKey.map { c -> String in
                let i = table.columnIndex(c)!
                return Self.queryEncoded(c) + "=" + Self.queryEncoded("eq." + last[i].pgText(as: table.columns[i].type))
            }.joined(separator: "&")
            headers["Location"] = "/\(tableName)?\(pk)"
        }
        // An upsert that only updated answers 200 (Response.hs `isInsertIfGTZero`).
        let status = inserted <= 0 && resolution == .merge ? 200 : 201
        guard plan != nil else { return HTTPResponse(status: status, headers: headers) }
        return try representation(rows, media: media, status: status, headers: headers, csv: csvText)
    }

    /// A write's representation lists its rows in the request's top-level `order`: PostgREST
    /// reads them back through the same read query (QueryBuilder.hs `readPlanToQuery`, with its
    /// ORDER BY) that a GET builds. Terms on related columns order nothing here.
    func ordered(_ rows: [[SQLValue]], _ order: [OrderTerm], table: TableSchema) throws -> [[SQLValue]] {
        let terms = order.filter { !$0.column.contains("(") }
        guard !terms.isEmpty, rows.count > 1 else { return rows }
        let idx = Dictionary(uniqueKeysWithValues: table.columns.enumerated().map { ($1.name, $0) })
        return try database.sort(rows, terms, Database.Table(schema: table, colIndex: idx, rows: []))
    }

    func singularity(_ n: Int) -> PostgresError {
        PostgresError("PGRST116", "Cannot coerce the result to a single JSON object", details: "The result contains \(n) rows")
    }

    func representation(_ rows: [String], media: String, status: Int, headers: HTTPHeaders, csv csvText: String? = nil) throws -> HTTPResponse {
        var h = headers
        if MockSupabase.isObject(media) {
            guard rows.count == 1 else {
                throw PostgresError("PGRST116", "Cannot coerce the result to a single JSON object", details: "The result contains \(rows.count) rows")
            }
            h["Content-Type"] = "\(media); charset=utf-8"
            return HTTPResponse(
                status: status, headers: h, body: Data((media == MockSupabase.objectStripMediaType ? NullStripping.strip(rows[0]) : rows[0]).utf8))
        }
        if media == MockSupabase.arrayStripMediaType {
            h["Content-Type"] = "\(media); charset=utf-8"
            return HTTPResponse(status: status, headers: h, body: Data(NullStripping.strip(aggregate(rows)).utf8))
        }
        if media == "text/csv" {
            h["Content-Type"] = "text/csv; charset=utf-8"
            return HTTPResponse(status: status, headers: h, body: Data((csvText ?? csv(rows)).utf8))
        }
        h["Content-Type"] = "application/json; charset=utf-8"
        return HTTPResponse(status: status, headers: h, body: Data(aggregate(rows).utf8))
    }

    func restUpdate(_ tableName: String, _ request: HTTPRequest, _ auth: AuthContext) throws -> HTTPResponse {
        let media = try negotiate(request)
        let q = try parsedQueries.parse(request.query)
        let prefs = Preferences(request.headers)
        // Payload.hs: an empty body is "Empty or invalid json" for every write but a function call.
        let body = try parseBody(request, allowEmpty: false)
        // The payload is one object, or an array holding at most one (`[]` and `[{}]` change nothing).
        var patch: [String: JSONValue]
        switch body {
        case .object(let o): patch = o
        case .array(let a) where a.isEmpty: patch = [:]
        case .array(let a):
            guard case .object(let o) = a[0] else { throw PostgresError("PGRST102", "All object keys must match") }
            patch = o
        default: throw PostgresError("PGRST102", "Empty or invalid json")
        }
        let table = database.tableSchema(tableName)!
        if let columns = q.columns {
            // `columns=`: only the listed keys are read; with `missing=default` a listed key the
            // payload lacks takes the column's literal default (NULL without one).
            for c in columns where table.columnIndex(c) == nil {
                throw PostgresError("PGRST204", "Could not find the '\(c)' column of '\(tableName)' in the schema cache")
            }
            patch = patch.filter { columns.contains($0.key) }
            if prefs.missingDefault, !patch.isEmpty {
                for c in columns where patch[c] == nil {
                    guard let col = table.columns.first(where: { $0.name == c }) else { continue }
                    switch col.effectiveDefault {
                    case nil: patch[c] = .null
                    case .value(let v)?: patch[c] = v
                    default: break
                    }
                }
            }
        }
        let returning = prefs.returning == .representation
        let plan =
            returning
            ? try SelectPlan.build(
                q.select, table: table, schema: database.schema.seen(from: table.schema), embeddedFilters: q.embeddedFilters, ranges: q.embeddedRanges) : nil
        try q.rejectAggregates()
        if !patch.isEmpty && !q.hasFilters && !auth.bypassesRLS {
            // Supabase loads pg-safeupdate for API roles (an empty patch runs no statement).
            throw PostgresError("21000", "UPDATE requires a WHERE clause")
        }
        if patch.isEmpty {
            // PostgREST answers an empty patch without touching the table (its preferences still
            // applied, UpdateSpec "makes no updates and returns 200 with return=rep").
            var headers: HTTPHeaders = ["Content-Range": "*/*"]
            if let applied = prefs.appliedHeader(.update) { headers["Preference-Applied"] = applied }
            return returning ? try representation([], media: media, status: 200, headers: headers) : HTTPResponse(status: 204, headers: headers)
        }
        let (changed, rows) = try database.atomically { () throws -> ([[SQLValue]], [String]) in
            let snapshot = try plan?.snapshot(database: database, auth: auth)
            let changed = try database.update(
                tableName, set: patch, texts: bodyTexts(request, prefs)?.first, as: auth, where: q.filter.isEmpty ? nil : .and(q.filter), returning: returning,
                limit: q.limit)
            try prefs.checkMaxAffected(changed.count)
            if MockSupabase.isObject(media) && changed.count != 1 { throw singularity(changed.count) }
            let shown = plan == nil ? [] : try ordered(changed, q.order, table: table)
            return (changed, try plan?.render(shown, database: database, auth: auth, snapshot: snapshot) ?? [])
        }
        let csvText = media == "text/csv" ? plan?.csv(changed) : nil
        // `contentRangeH 0 (n-1) total`: `*` when nothing changed.
        let total = prefs.count ? String(changed.count) : "*"
        var headers: HTTPHeaders = ["Content-Range": changed.isEmpty ? "*/\(total)" : "0-\(changed.count - 1)/\(total)"]
        if let applied = prefs.appliedHeader(.update) { headers["Preference-Applied"] = applied }
        guard plan != nil else { return HTTPResponse(status: 204, headers: headers) }
        return try representation(rows, media: media, status: 200, headers: headers, csv: csvText)
    }

    func restDelete(_ tableName: String, _ request: HTTPRequest, _ auth: AuthContext) throws -> HTTPResponse {
        let media = try negotiate(request)
        let q = try parsedQueries.parse(request.query)
        let prefs = Preferences(request.headers)
        if !q.hasFilters && !auth.bypassesRLS {
            throw PostgresError("21000", "DELETE requires a WHERE clause")
        }
        let table = database.tableSchema(tableName)!
        let returning = prefs.returning == .representation
        let plan =
            returning
            ? try SelectPlan.build(
                q.select, table: table, schema: database.schema.seen(from: table.schema), embeddedFilters: q.embeddedFilters, ranges: q.embeddedRanges) : nil
        try q.rejectAggregates()
        let (removed, rows) = try database.atomically { () throws -> ([[SQLValue]], [String]) in
            let snapshot = try plan?.snapshot(database: database, auth: auth)
            let removed = try database.delete(from: tableName, as: auth, where: q.filter.isEmpty ? nil : .and(q.filter), limit: q.limit, returning: returning)
            try prefs.checkMaxAffected(removed.count)
            if MockSupabase.isObject(media) && removed.count != 1 { throw singularity(removed.count) }
            let shown = plan == nil ? [] : try ordered(removed, q.order, table: table)
            return (removed, try plan?.render(shown, database: database, auth: auth, snapshot: snapshot) ?? [])
        }
        let csvText = media == "text/csv" ? plan?.csv(removed) : nil
        // A DELETE's range is `contentRangeH 1 0 total`: always `*`, the count when asked.
        var headers: HTTPHeaders = ["Content-Range": "*/\(prefs.count ? String(removed.count) : "*")"]
        if let applied = prefs.appliedHeader(.delete) { headers["Preference-Applied"] = applied }
        guard plan != nil else { return HTTPResponse(status: 204, headers: headers) }
        return try representation(rows, media: media, status: 200, headers: headers, csv: csvText)
    }

    /// PUT upserts one row identified by primary-key filters (`?id=eq.X`), as PostgREST does
    /// (Plan.hs `MutationSingleUpsert`, MainTx.hs `failPut`): limit/offset are refused (PGRST114),
    /// the filters must be exactly `eq` on every primary-key column (PGRST105, 405), and the
    /// payload rows that match the filters must be exactly one (PGRST115, nothing written).
    /// 201 when the row was inserted, 200 when it was updated; no Content-Range.
    func restPut(_ tableName: String, _ request: HTTPRequest, _ auth: AuthContext) throws -> HTTPResponse {
        let q = try parsedQueries.parse(request.query)
        // Only a top-level range other than "all rows" is refused: `offset=0` (or a negative one,
        // read as none) leaves it whole, and the Range header is ignored on every method but GET
        // (ApiRequest.hs `getRanges`, after RFC 9110).
        let ranged = request.query.contains { p in
            p.name == "limit" || (p.name == "offset" && (Int(p.value).map { $0 > 0 } ?? true))
        }
        if ranged {
            throw PostgresError("PGRST114", "limit/offset querystring parameters are not allowed for PUT")
        }
        let media = try negotiate(request)
        let prefs = Preferences(request.headers)
        let table = database.tableSchema(tableName)!
        var pkFilters: [String: String] = [:]
        for f in q.filter {
            if case .condition(let c, .eq, .text(let v), false) = f { pkFilters[c] = v }
        }
        guard !table.primaryKey.isEmpty, Set(pkFilters.keys) == Set(table.primaryKey), q.filter.count == pkFilters.count, q.embeddedFilters.isEmpty else {
            throw PostgresError("PGRST105", "Filters must include all and only primary key columns with 'eq' operators")
        }
        let body = try parseBody(request, allowEmpty: false)
        var objects: [[String: JSONValue]]
        switch body {
        case .object(let o): objects = [o]
        case .array(let a): objects = a.compactMap(\.objectValue)
        default: throw PostgresError("PGRST102", "Empty or invalid json")
        }
        var texts = bodyTexts(request, prefs).map { t in body.arrayValue.map { a in zip(a, t).filter { $0.0.objectValue != nil }.map(\.1) } ?? t }
        // The payload rows the URL's key selects (`WHERE pgrst_body.pk = value`).
        let keep = try objects.map { o in
            try pkFilters.allSatisfy { k, v in
                let i = table.columnIndex(k)!
                let type = table.columns[i].type
                guard let bv = o[k], !bv.isNull else { return false }
                return try SQLValue.coerce(json: bv, to: type) == SQLValue.parse(text: v, as: type)
            }
        }
        objects = zip(objects, keep).filter(\.1).map(\.0)
        texts = texts.map { t in zip(t, keep).filter(\.1).map(\.0) }
        guard objects.count == 1 else { throw PostgresError("PGRST115", "Payload values do not match URL in primary key column(s)") }
        let returning = prefs.returning == .representation
        let plan =
            returning
            ? try SelectPlan.build(
                q.select, table: table, schema: database.schema.seen(from: table.schema), embeddedFilters: q.embeddedFilters, ranges: q.embeddedRanges) : nil
        try q.rejectAggregates()
        let (inserted, rows) = try database.atomically { () throws -> (Int, [String]) in
            let before = database.count(tableName)
            let written = try database.insert(
                into: tableName, rows: objects, texts: texts, columns: Array(objects[0].keys).sorted(), as: auth,
                resolution: .merge, onConflict: table.primaryKey, returning: returning)
            if MockSupabase.isObject(media) && written.count != 1 { throw singularity(written.count) }
            return (database.count(tableName) - before, try plan?.render(written, database: database, auth: auth) ?? [])
        }
        var headers: HTTPHeaders = [:]
        if let applied = prefs.appliedHeader(.put) { headers["Preference-Applied"] = applied }
        guard plan != nil else { return HTTPResponse(status: 204, headers: headers) }
        return try representation(rows, media: media, status: inserted > 0 ? 201 : 200, headers: headers)
    }

    // MARK: RPC

    func handleRPC(_ name: String, _ request: HTTPRequest, _ auth: AuthContext) throws -> HTTPResponse {
        let fn = state.withLock { $0.rpcs[name] }
        var args: [String: JSONValue] = [:]
        let isRead = request.method == "GET" || request.method == "HEAD"
        var q = ParsedQuery()
        if isRead {
            q = try parsedQueries.parse(request.query, forRPC: true)
            for (k, v) in q.others { args[k] = .string(v) }
        } else if request.method == "POST" {
            q = try parsedQueries.parse(request.query)
            let body = try parseBody(request, allowEmpty: true)
            guard case .object(let o) = body else {
                throw PostgresError("PGRST102", "Empty or invalid json")
            }
            args = o
        } else {
            return HTTPResponse(
                status: 405, headers: ["Content-Type": "application/json; charset=utf-8"],
                body: PostgresError("PGRST101", "Only GET and POST verbs are allowed for RPC calls").json.data())
        }
        let given = args.keys.sorted()
        guard let fn, Set(given).isSubset(of: Set(fn.parameters.map(\.name))),
            fn.parameters.allSatisfy({ $0.hasDefault || args[$0.name] != nil })
        else {
            let sig = given.joined(separator: ", ")
            let qualified = "\(database.schema.apiSchema).\(name)"
            let message =
                given.isEmpty
                ? "Could not find the function \(qualified) without parameters in the schema cache"
                : "Could not find the function \(qualified)(\(sig)) in the schema cache"
            // Error.hs `NoRpc` details: only a POST of JSON also searched for a single unnamed
            // json/jsonb parameter; a GET names just the arguments.
            let searched = given.isEmpty ? " without parameters" : " with parameter\(given.count > 1 ? "s" : "") \(sig)"
            let details =
                "Searched for the function \(qualified)\(searched)\(isRead ? "" : " or with a single unnamed json/jsonb parameter"), but no matches were found in the schema cache."
            throw PostgresError("PGRST202", message, details: details, hint: functionHint(name, given: given, found: fn))
        }
        // Plan.hs `callReadPlan`: the function is found (PGRST202) before its read plan is
        // judged, aggregates included (PGRST123).
        try q.rejectAggregates()
        let prefs = Preferences(request.headers)
        try prefs.validate()
        if isRead && fn.volatile {
            throw PostgresError("25006", "cannot execute INSERT in a read-only transaction")
        }
        var coerced: [String: JSONValue] = [:]
        for p in fn.parameters {
            guard let v = args[p.name] else { continue }
            let sql: SQLValue
            if case .string(let s) = v, isRead { sql = try SQLValue.parse(text: s, as: p.type) } else { sql = try SQLValue.coerce(json: v, to: p.type) }
            coerced[p.name] = sql.json(as: p.type)
        }
        let call = RPCCall(arguments: coerced, auth: auth, database: database, backend: self)
        let result = try database.atomically { try fn.handler(call) }
        let media = try negotiate(request)
        var headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]
        if let applied = prefs.appliedHeader(.call) { headers["Preference-Applied"] = applied }
        switch fn.returns {
        case .void:
            return HTTPResponse(status: 204, headers: [:])
        case .scalar(let t):
            let text = (try? SQLValue.coerce(json: result, to: t).json(as: t)) ?? result
            return HTTPResponse(status: 200, headers: headers, body: text.data())
        case .row(let cols):
            let obj = result.objectValue ?? [:]
            let line = rowJSON(cols.map { (c: $0, v: (try? SQLValue.coerce(json: obj[$0.name] ?? .null, to: $0.type)) ?? .null) })
            return HTTPResponse(status: 200, headers: headers, body: Data(line.utf8))
        case .rows(let cols):
            guard case .array(let items) = result else { return HTTPResponse(status: 200, headers: headers, body: Data("[]".utf8)) }
            let ts = TableSchema(
                name: name, schema: database.schema.apiSchema, columns: cols, primaryKey: [], uniques: [], foreignKeys: [], checks: [], isView: true,
                decisions: [])
            let idx = Dictionary(uniqueKeysWithValues: cols.enumerated().map { ($1.name, $0) })
            var rows = try items.map { item -> [SQLValue] in
                let o = item.objectValue ?? [:]
                return try cols.map { try SQLValue.coerce(json: o[$0.name] ?? .null, to: $0.type) }
            }
            let f = try CompiledFilter.compile(q.filter.isEmpty ? nil : .and(q.filter), table: ts, colIndex: idx)
            rows = rows.filter(f.test)
            if !q.order.isEmpty { rows = try database.sort(rows, q.order, Database.Table(schema: ts, colIndex: idx, rows: [])) }
            let total = rows.count
            q.limit = EmbedRange.limit(q.limit, restrictedTo: database.schema.maxRows)
            let start = min(q.offset, rows.count)
            let end = q.limit.map { start + min($0, rows.count - start) } ?? rows.count
            rows = Array(rows[start..<end])
            let plan = try SelectPlan.build(q.select, table: ts, schema: database.schema, embeddedFilters: [:], allowEmbedding: false)
            let rendered = try plan.render(rows, database: database, auth: auth)
            headers["Content-Range"] = rendered.isEmpty ? "*/\(total)" : "\(q.offset)-\(q.offset + rendered.count - 1)/\(prefs.count ? String(total) : "*")"
            return try representation(rendered, media: media, status: 200, headers: headers)
        }
    }
}

/// Writes `{"col":value,…}` with row_to_json framing.
func rowJSON(_ cells: [(c: ColumnSchema, v: SQLValue)]) -> String {
    var out = "{"
    for (i, cell) in cells.enumerated() {
        if i > 0 { out += "," }
        JSONValue.writeString(cell.c.name, to: &out)
        out += ":"
        cell.v.write(to: &out, as: cell.c.type)
    }
    return out + "}"
}

/// Edit distance (PostgreSQL's column hints; PostgREST's hints use `FuzzyNameSet`).
func levenshtein(_ a: String, _ b: String) -> Int {
    let x = Array(a), y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var prev = Array(0...y.count)
    for i in 1...x.count {
        var cur = [i] + Array(repeating: 0, count: y.count)
        for j in 1...y.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
        }
        prev = cur
    }
    return prev[y.count]
}
