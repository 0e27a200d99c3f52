import XCTest
import ContractKit
import NaarsCars

/// Replays every documented interaction of `Contracts/naarscars/interactions/` over the wire,
/// each file on a fresh backend (reference clock 2026-01-01T00:00:00Z, seeded ids), and checks
/// status, listed headers, body (with the `<uuid>`… matchers) and the named model's round trip.
///
/// The format is the common one (BRIEF); this small replayer reads it strictly until the shared
/// engine is on main.
final class NaarsCarsInteractionTests: XCTestCase {
    struct Step {
        var path: String
        var actor: String
        var method: String
        var urlPath: String
        var query: String?
        var headers: [(String, String)]
        var body: JSONValue?
        var status: Int
        var expectedHeaders: [(String, String)]
        var expectedBody: JSONValue?
        var subset: Bool
        var captures: [(String, String)]
        var model: String?
        var requestModel: String?
    }

    struct File {
        var name: String
        var file: String
        var steps: [Step]
    }

    static func load() throws -> [File] {
        let dir = ContractsLocator.app("naarscars").appendingPathComponent("interactions")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { n in
            let root = try SpecNode.load(dir.appendingPathComponent(n), displayName: "Contracts/naarscars/interactions/\(n)")
            return try root.object { o in
                _ = o.optional("decision")
                let name = try o.required("name").string()
                _ = try o.required("source").string()
                let steps = try o.required("steps").array().map { s in
                    try s.object { so -> Step in
                        _ = so.optional("decision"); _ = so.optional("doc")
                        let (method, urlPath, query, headers, body) = try so.required("request").object { r in
                            (try r.required("method").string(), try r.required("path").string(), try r.optional("query")?.string(),
                             try r.optional("headers")?.map().map { ($0.key, try $0.node.string()) } ?? [], r.optional("body")?.value)
                        }
                        let (status, eh, eb, subset) = try so.required("response").object { r in
                            (try r.required("status").int(), try r.optional("headers")?.map().map { ($0.key, try $0.node.string()) } ?? [],
                             r.has("body") ? (r.optional("body")?.value ?? .null) : nil, try r.optional("bodyMatch")?.string() == "subset")
                        }
                        return Step(path: s.path, actor: try so.required("as").string(), method: method, urlPath: urlPath, query: query,
                                    headers: headers, body: body, status: status, expectedHeaders: eh, expectedBody: eb, subset: subset,
                                    captures: try so.optional("capture")?.map().map { ($0.key, try $0.node.string()) } ?? [],
                                    model: try so.optional("model")?.string(), requestModel: try so.optional("requestModel")?.string())
                    }
                }
                return File(name: name, file: "Contracts/naarscars/interactions/\(n)", steps: steps)
            }
        }
    }

    static let matchers: [String: @Sendable (JSONValue) -> Bool] = [
        "<uuid>": { $0.stringValue.map { SQLValue.canonicalUUID($0) == $0 } ?? false },
        "<timestamptz>": { v in v.stringValue.map { $0.count >= 25 && $0.dropFirst(10).first == "T" && PGTime.parseTimestamp($0, assumeUTC: false) != nil } ?? false },
        "<date>": { $0.stringValue.map { $0.count == 10 && PGTime.parseDate($0) != nil } ?? false },
        "<string>": { $0.stringValue != nil },
        "<number>": { $0.doubleValue != nil },
        "<any>": { _ in true },
        "<jwt>": { $0.stringValue.map { $0.split(separator: ".").count == 3 } ?? false },
    ]

    static func differences(_ e: JSONValue, _ a: JSONValue, _ path: String, subset: Bool, matchers useMatchers: Bool = true) -> [String] {
        if useMatchers, case .string(let s) = e, let m = matchers[s] { return m(a) ? [] : ["\(path): expected \(s), got \(a)"] }
        switch (e, a) {
        case (.object(let eo), .object(let ao)):
            var out: [String] = []
            for k in eo.keys.sorted() {
                guard let av = ao[k] else { out.append("\(path).\(k): missing"); continue }
                out += differences(eo[k]!, av, "\(path).\(k)", subset: subset, matchers: useMatchers)
            }
            if !subset { for k in ao.keys.sorted() where eo[k] == nil { out.append("\(path).\(k): unexpected key (value \(ao[k]!))") } }
            return out
        case (.array(let ea), .array(let aa)):
            var out = ea.count == aa.count ? [] : ["\(path): expected \(ea.count) elements, got \(aa.count)"]
            for (i, (x, y)) in zip(ea, aa).enumerated() { out += differences(x, y, "\(path)[\(i)]", subset: subset, matchers: useMatchers) }
            return out
        default:
            if let x = e.doubleValue, let y = a.doubleValue { return x == y ? [] : ["\(path): expected \(e), got \(a)"] }
            return e == a ? [] : ["\(path): expected \(e), got \(a)"]
        }
    }

    static func fill(_ text: String, _ vars: [String: JSONValue]) throws -> String {
        var out = text
        while let r = out.range(of: "{{") {
            guard let end = out.range(of: "}}", range: r.upperBound..<out.endIndex) else { break }
            let key = String(out[r.upperBound..<end.lowerBound])
            guard let v = vars[key] else { throw NSError(domain: "template", code: 1, userInfo: [NSLocalizedDescriptionKey: "unknown template {{\(key)}}"]) }
            out.replaceSubrange(r.lowerBound..<end.upperBound, with: v.stringValue ?? v.serialized())
        }
        return out
    }

    static func fill(_ j: JSONValue, _ vars: [String: JSONValue]) throws -> JSONValue {
        switch j {
        case .string(let s):
            if s.hasPrefix("{{"), s.hasSuffix("}}"), let v = vars[String(s.dropFirst(2).dropLast(2))] { return v }
            return .string(try fill(s, vars))
        case .array(let a): return .array(try a.map { try fill($0, vars) })
        case .object(let o): return .object(try o.mapValues { try fill($0, vars) })
        default: return j
        }
    }

    static func value(_ path: String, _ root: JSONValue) -> JSONValue? {
        var cur: JSONValue? = root
        var rest = Substring(path.dropFirst())
        while !rest.isEmpty, let c = cur {
            if rest.hasPrefix(".") {
                rest = rest.dropFirst()
                let key = rest.prefix { $0 != "." && $0 != "[" }
                rest = rest.dropFirst(key.count)
                cur = c[String(key)]
            } else if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                let idx = Int(rest[rest.index(after: rest.startIndex)..<close]) ?? -1
                rest = rest[rest.index(after: close)...]
                cur = (c.arrayValue.flatMap { idx >= 0 && idx < $0.count ? $0[idx] : nil })
            } else { return nil }
        }
        return cur
    }

    /// Replays a file; returns its failures (empty: it passed).
    static func replay(_ file: File, on backend: MockSupabase) -> [String] {
        let wire = WireClient(backend)
        var vars: [String: JSONValue] = [:]
        for p in backend.configuration.spec.fixtures.personas {
            vars["persona.\(p.name).id"] = .string(p.id)
            vars["persona.\(p.name).email"] = .string(p.email)
        }
        for (n, s) in file.steps.enumerated() {
            let label = "\(file.file): \(s.path) (step \(n + 1), \(s.method) \(s.urlPath) as \(s.actor))"
            do {
                var headers = HTTPHeaders()
                for (k, v) in s.headers { headers.add(k, try fill(v, vars)) }
                let body = try s.body.map { try fill($0, vars) }
                var creds = wire.credentials(as: s.actor)
                for (k, _) in s.headers where creds[k] != nil { creds[k] = nil }
                var all = creds
                for f in headers { all.add(f.name, f.value) }
                let r = try wire.send(method: s.method, path: try fill(s.urlPath, vars), query: try s.query.map { try fill($0, vars) },
                                      headers: all, body: body.map { $0.data() }, as: nil)
                var problems: [String] = []
                if r.status != s.status { problems.append("status: expected \(s.status), got \(r.status) (\(r.text.prefix(300)))") }
                for (k, v) in s.expectedHeaders {
                    let want = try fill(v, vars)
                    if r.headers[k] != want { problems.append("header \(k): expected \"\(want)\", got \(r.headers[k].map { "\"\($0)\"" } ?? "none")") }
                }
                let actual = r.body.isEmpty ? nil : r.jsonBody
                if let e = s.expectedBody {
                    if e == "<empty>" { if !r.body.isEmpty { problems.append("expected no body, got \(r.text.prefix(200))") } }
                    else if let actual { problems += differences(try fill(e, vars), actual, "$.body", subset: s.subset) }
                    else { problems.append("expected a JSON body, got \(r.text.prefix(200))") }
                }
                if let m = s.model, let actual {
                    do { problems += differences(actual, try NaarsCarsModels.roundTrip(m, actual), "model \(m)", subset: false, matchers: false) }
                    catch { problems.append("model \(m) does not decode the body: \(error)") }
                }
                if let m = s.requestModel, let body {
                    do { problems += differences(body, try NaarsCarsModels.roundTrip(m, body), "requestModel \(m)", subset: false, matchers: false) }
                    catch { problems.append("requestModel \(m) does not decode the request body: \(error)") }
                }
                if !problems.isEmpty { return problems.map { "\(label): \($0)" } }
                let root: JSONValue = ["status": .int(Int64(r.status)), "body": actual ?? .null]
                for (name, path) in s.captures {
                    guard let v = value(path, root) else { return ["\(label): capture \(name): nothing at \(path)"] }
                    vars["capture.\(name)"] = v
                }
            } catch {
                return ["\(label): \(error)"]
            }
        }
        return []
    }

    static func freshBackend() throws -> MockSupabase {
        try NaarsCarsApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 0x1D_7E2A_C710), apns: FakeAPNs())
    }

    func testEveryDocumentedInteractionReplays() throws {
        let files = try Self.load()
        XCTAssertGreaterThanOrEqual(files.count, 40, "interaction files")
        for f in files {
            let failures = Self.replay(f, on: try Self.freshBackend())
            XCTAssertEqual(failures, [], "\(f.file) · \(f.name)")
        }
    }

    /// Without the app's triggers and functions (a bare mock of the same contracts), the files
    /// about triggers, functions and edge functions fail: the replay checks what it claims to.
    func testReplayRejectsABackendWithoutTheAppsServerPieces() throws {
        let files = try Self.load()
        var failed: [String] = []
        for f in files {
            let bare = try MockSupabase(contracts: ContractsLocator.app("naarscars"), clock: ManualClock(), ids: SeededIDGenerator(seed: 0x1D_7E2A_C710))
            if !Self.replay(f, on: bare).isEmpty { failed.append(f.file) }
        }
        for prefix in ["rpc-", "edge-", "trigger-", "lifecycle-"] {
            let group = files.filter { $0.file.split(separator: "/").last!.hasPrefix(prefix) }.map(\.file)
            XCTAssertFalse(group.isEmpty, "no \(prefix)* files")
            for g in group { XCTAssertTrue(failed.contains(g), "\(g) passes without the app's server pieces") }
        }
    }

    /// A matcher or key the response lacks is reported with its path.
    func testDifferencesNamePaths() {
        XCTAssertEqual(Self.differences(["a": "<uuid>", "b": [1, 2]], ["a": "x", "b": [1, 2, 3], "c": true], "$", subset: false),
                       ["$.a: expected <uuid>, got \"x\"", "$.b: expected 2 elements, got 3", "$.c: unexpected key (value true)"])
        XCTAssertEqual(Self.differences(["a": 5], ["a": 5.0, "z": 1], "$", subset: true), [])
    }
}
