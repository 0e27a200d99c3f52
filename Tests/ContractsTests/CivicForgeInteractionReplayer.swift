import XCTest
import ContractKit
import MockSupabase

/// The time interactions and domain checks run at (the replay engine's): 2026-03-01T12:00:00Z,
/// after every fixture timestamp.
let civicShvilReplayTime = Date(timeIntervalSince1970: 1_772_366_400)

/// Replays Contracts/<app>/interactions/*.json over the wire (WireClient: URLSession through the
/// URLProtocol transport), in the documented format: templates, matchers, subset bodies,
/// captures and model round trips. Stands in for the shared replay engine until it is merged.
struct CivicForgeInteractionReplayer {
    /// Model round trips by name (`Post`, `Post[]`).
    var models: [String: (JSONValue) throws -> JSONValue] = [:]

    mutating func register<T: Codable>(_ type: T.Type, as name: String? = nil) {
        let n = name ?? String(describing: T.self)
        func rt<U: Codable>(_ u: U.Type) -> (JSONValue) throws -> JSONValue {
            { json in
                let enc = JSONEncoder()
                enc.outputFormatting = [.sortedKeys]
                return try JSONValue.parse(enc.encode(try JSONDecoder().decode(U.self, from: json.data())))
            }
        }
        models[n] = rt(T.self)
        models[n + "[]"] = rt([T].self)
    }

    struct Step {
        var actor: String
        var method: String, path: String, query: String?
        var headers: [(String, String)]
        var body: JSONValue?
        var status: Int
        var expectedHeaders: [(String, String)]
        var expectedBody: JSONValue?
        var subset: Bool
        var captures: [(String, String)]
        var model: String?
    }

    static func load(_ url: URL, display: String) throws -> (name: String, steps: [Step]) {
        let root = try SpecNode.load(url, displayName: display)
        return try root.object { o in
            _ = o.optional("decision"); _ = o.optional("doc")
            let name = try o.required("name").string()
            _ = try o.required("source").string()
            let steps = try o.required("steps").array().map { s in
                try s.object { so -> Step in
                    _ = so.optional("decision"); _ = so.optional("doc")
                    func pairs(_ n: SpecNode?) throws -> [(String, String)] { try n?.map().map { ($0.key, try $0.node.string()) } ?? [] }
                    let req = try so.required("request").object { r in
                        (try r.required("method").string(), try r.required("path").string(), try r.optional("query")?.string(),
                         try pairs(r.optional("headers")), r.has("body") ? (r.optional("body")?.value ?? .null) : JSONValue?.none)
                    }
                    let res = try so.required("response").object { r in
                        (try r.required("status").int(), try pairs(r.optional("headers")), r.has("body") ? (r.optional("body")?.value ?? .null) : JSONValue?.none,
                         try r.optional("bodyMatch")?.string() == "subset")
                    }
                    return Step(actor: try so.required("as").string(), method: req.0, path: req.1, query: req.2, headers: req.3, body: req.4,
                                status: res.0, expectedHeaders: res.1, expectedBody: res.2, subset: res.3,
                                captures: try pairs(so.optional("capture")), model: try so.optional("model")?.string())
                }
            }
            return (name, steps)
        }
    }

    /// Fills `{{persona.NAME.id|email}}` and `{{capture.NAME}}`.
    static func fill(_ s: String, _ backend: MockSupabase, _ captures: [String: JSONValue]) throws -> JSONValue {
        var out = ""
        var rest = Substring(s)
        var whole: JSONValue?
        while let open = rest.range(of: "{{"), let close = rest.range(of: "}}", range: open.upperBound..<rest.endIndex) {
            out += rest[..<open.lowerBound]
            let key = String(rest[open.upperBound..<close.lowerBound])
            let parts = key.split(separator: ".").map(String.init)
            var v: JSONValue
            if parts.count == 3, parts[0] == "persona", let p = backend.configuration.spec.fixtures.persona(parts[1]) {
                v = parts[2] == "email" ? .string(p.email) : .string(p.id)
            } else if parts.count == 2, parts[0] == "capture", let c = captures[parts[1]] {
                v = c
            } else { throw PostgresError("XX000", "unknown template {{\(key)}}") }
            if open.lowerBound == s.startIndex && close.upperBound == s.endIndex { whole = v }
            out += v.stringValue ?? v.serialized()
            rest = rest[close.upperBound...]
        }
        if let whole { return whole }
        return .string(out + rest)
    }

    static func fillJSON(_ j: JSONValue, _ b: MockSupabase, _ c: [String: JSONValue]) throws -> JSONValue {
        switch j {
        case .string(let s) where s.contains("{{"): return try fill(s, b, c)
        case .array(let a): return .array(try a.map { try fillJSON($0, b, c) })
        case .object(let o): return .object(try o.mapValues { try fillJSON($0, b, c) })
        default: return j
        }
    }

    static func matches(_ expected: JSONValue, _ actual: JSONValue, subset: Bool, path: String) -> [String] {
        if case .string(let s) = expected, s.hasPrefix("<"), s.hasSuffix(">") {
            let a = actual.stringValue
            let ok: Bool
            switch s {
            case "<any>": ok = true
            case "<string>": ok = a != nil
            case "<number>": ok = actual.doubleValue != nil
            case "<uuid>": ok = a.flatMap(SQLValue.canonicalUUID) == a && a != nil
            case "<timestamptz>": ok = a.flatMap { PGTime.parseTimestamp($0, assumeUTC: true) } != nil
            case "<date>": ok = a.flatMap(PGTime.parseDate) != nil
            case "<jwt>": ok = a?.split(separator: ".").count == 3
            default: return ["\(path): unknown matcher \(s)"]
            }
            return ok ? [] : ["\(path): expected \(s), got \(actual.serialized())"]
        }
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            var out: [String] = []
            for (k, v) in e.sorted(by: { $0.key < $1.key }) {
                guard let av = a[k] else { out.append("\(path).\(k): missing"); continue }
                out += matches(v, av, subset: subset, path: "\(path).\(k)")
            }
            if !subset { for k in a.keys.sorted() where e[k] == nil { out.append("\(path).\(k): unexpected key") } }
            return out
        case (.array(let e), .array(let a)):
            guard e.count == a.count else { return ["\(path): expected \(e.count) elements, got \(a.count): \(actual.serialized())"] }
            return zip(e, a).enumerated().flatMap { matches($1.0, $1.1, subset: subset, path: "\(path)[\($0)]") }
        default:
            if let x = expected.doubleValue, let y = actual.doubleValue { return x == y ? [] : ["\(path): expected \(x), got \(y)"] }
            return expected == actual ? [] : ["\(path): expected \(expected.serialized()), got \(actual.serialized())"]
        }
    }

    static func capture(_ path: String, status: Int, headers: HTTPHeaders, body: JSONValue?) -> JSONValue? {
        var cur: JSONValue?
        var rest = Substring(path)
        if rest.hasPrefix("$.body") { cur = body; rest = rest.dropFirst(6) } else if rest.hasPrefix("$.headers.") {
            return headers[String(rest.dropFirst(10))].map(JSONValue.string)
        } else { return nil }
        while !rest.isEmpty {
            if rest.hasPrefix("["), let close = rest.firstIndex(of: "]"), let n = Int(rest[rest.index(after: rest.startIndex)..<close]) {
                cur = cur?.arrayValue.flatMap { n < $0.count ? $0[n] : nil }
                rest = rest[rest.index(after: close)...]
            } else if rest.hasPrefix(".") {
                let name = rest.dropFirst().prefix { $0 != "." && $0 != "[" }
                cur = cur?[String(name)]
                rest = rest.dropFirst(1 + name.count)
            } else { return nil }
        }
        return cur
    }

    /// Replays one file on `backend`; returns its problems (empty when it holds).
    func replay(_ url: URL, display: String, on backend: MockSupabase) -> [String] {
        do {
            let (name, steps) = try Self.load(url, display: display)
            let client = WireClient(backend)
            var captures: [String: JSONValue] = [:]
            for (i, s) in steps.enumerated() {
                let label = "\(display) (\(name)) step \(i + 1)"
                var headers = HTTPHeaders()
                for (k, v) in s.headers { headers.add(k, try Self.fill(v, backend, captures).stringValue ?? "") }
                let query = try s.query.map { try Self.fill($0, backend, captures).stringValue ?? "" }
                let path = try Self.fill(s.path, backend, captures).stringValue ?? s.path
                let body = try s.body.map { try Self.fillJSON($0, backend, captures).data() }
                let res = try client.send(method: s.method, path: path, query: query, headers: headers, body: body, as: s.actor)
                let json = res.body.isEmpty ? nil : try? JSONValue.parse(res.body)
                var problems: [String] = []
                if res.status != s.status { problems.append("status \(res.status), expected \(s.status): \(res.text)") }
                for (k, v) in s.expectedHeaders {
                    let want = try Self.fill(v, backend, captures).stringValue ?? v
                    if res.headers[k] != want { problems.append("header \(k): \(res.headers[k] ?? "absent"), expected \(want)") }
                }
                if let eb = s.expectedBody {
                    let want = try Self.fillJSON(eb, backend, captures)
                    if let json { problems += Self.matches(want, json, subset: s.subset, path: "$.body") } else { problems.append("no JSON body, expected \(want.serialized())") }
                }
                if let m = s.model {
                    if let f = models[m], let json {
                        do {
                            let back = try f(json)
                            problems += Self.matches(json, back, subset: false, path: "\(m) round trip")
                        } catch { problems.append("\(m) does not decode the body: \(error)") }
                    } else { problems.append("model \(m) unknown or no body") }
                }
                if !problems.isEmpty { return problems.map { "\(label): \($0)" } }
                for (k, p) in s.captures {
                    guard let v = Self.capture(p, status: res.status, headers: res.headers, body: json) else { return ["\(label): nothing at \(p) to capture as \(k)"] }
                    captures[k] = v
                }
            }
            return []
        } catch { return ["\(display): \(error)"] }
    }

    /// Replays every file of an app, each on a fresh backend from `makeBackend`.
    func replayAll(app: String, makeBackend: () throws -> MockSupabase) throws -> (files: Int, problems: [String]) {
        let folder = ContractsLocator.app(app).appendingPathComponent("interactions")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        var problems: [String] = []
        for f in files {
            problems += replay(folder.appendingPathComponent(f), display: "Contracts/\(app)/interactions/\(f)", on: try makeBackend())
        }
        return (files.count, problems)
    }
}
