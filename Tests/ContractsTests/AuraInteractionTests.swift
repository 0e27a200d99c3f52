import Foundation
import XCTest
import ContractKit
import MockSupabase
@testable import Aura

/// Replays Contracts/aura/interactions/*.json over the wire (URLSession through the mock's
/// URLProtocol transport), in the documented-interactions format of the common brief.
///
/// This is the Aura suite's own small replayer; the shared engine of ContractKit replaces it once
/// it lands on main. Each file runs on a fresh backend at 2026-01-01T00:00:00Z.
final class AuraInteractionTests: XCTestCase {
    struct Request { var method: String; var path: String; var query: String?; var headers: [(String, String)]; var body: JSONValue? }
    struct Expected { var status: Int; var headers: [(String, String)]; var body: JSONValue?; var subset: Bool }
    struct Step { var actor: String; var request: Request; var response: Expected; var capture: [(String, String)]; var model: String? }
    struct Interaction { var file: String; var name: String; var steps: [Step] }

    static var folder: URL { ContractsLocator.app(AuraApp.name).appendingPathComponent("interactions") }

    static func load() throws -> [Interaction] {
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }.sorted()
        return try files.map { f in
            let root = try SpecNode.load(folder.appendingPathComponent(f), displayName: "Contracts/aura/interactions/\(f)")
            return try root.object { o in
                _ = o.optional("decision")
                _ = try o.required("source").string()
                let name = try o.required("name").string()
                let steps = try o.required("steps").array().map { s in
                    try s.object { so -> Step in
                        _ = so.optional("doc"); _ = so.optional("decision")
                        func pairs(_ n: SpecNode?) throws -> [(String, String)] { try n?.map().map { ($0.key, try $0.node.string()) } ?? [] }
                        let req = try so.required("request").object { r in
                            Request(method: try r.required("method").string(), path: try r.required("path").string(), query: try r.optional("query")?.string(),
                                    headers: try pairs(r.optional("headers")), body: r.optional("body")?.value)
                        }
                        let res = try so.required("response").object { r -> Expected in
                            let match = try r.optional("bodyMatch")?.string() ?? "exact"
                            guard ["exact", "subset"].contains(match) else { throw r.this.fail("bodyMatch is exact or subset") }
                            return Expected(status: try r.required("status").int(), headers: try pairs(r.optional("headers")),
                                            body: r.has("body") ? (r.optional("body")?.value ?? .null) : nil, subset: match == "subset")
                        }
                        return Step(actor: try so.required("as").string(), request: req, response: res,
                                    capture: try pairs(so.optional("capture")), model: try so.optional("model")?.string())
                    }
                }
                return Interaction(file: f, name: name, steps: steps)
            }
        }
    }

    // MARK: Templates, matching, capture

    static func substitute(_ s: String, _ b: MockSupabase, _ captures: [String: JSONValue]) -> JSONValue {
        if s.hasPrefix("{{capture."), s.hasSuffix("}}"), s.components(separatedBy: "{{").count == 2 {
            let key = String(s.dropFirst("{{capture.".count).dropLast(2))
            if let v = captures[key] { return v }
        }
        var out = s
        for p in b.configuration.spec.fixtures.personas {
            out = out.replacingOccurrences(of: "{{persona.\(p.name).id}}", with: p.id).replacingOccurrences(of: "{{persona.\(p.name).email}}", with: p.email)
        }
        for (k, v) in captures { out = out.replacingOccurrences(of: "{{capture.\(k)}}", with: v.stringValue ?? v.serialized()) }
        return .string(out)
    }

    static func substitute(_ v: JSONValue, _ b: MockSupabase, _ captures: [String: JSONValue]) -> JSONValue {
        switch v {
        case .string(let s): return substitute(s, b, captures)
        case .array(let a): return .array(a.map { substitute($0, b, captures) })
        case .object(let o): return .object(o.mapValues { substitute($0, b, captures) })
        default: return v
        }
    }

    static let matchers: [String: @Sendable (JSONValue) -> Bool] = [
        "<uuid>": { $0.stringValue.map { SQLValue.canonicalUUID($0) == $0 } ?? false },
        "<timestamptz>": { $0.stringValue.map { PGTime.parseTimestamp($0, assumeUTC: false) != nil && $0.contains("T") } ?? false },
        "<date>": { $0.stringValue.map { $0.count == 10 && PGTime.parseDate($0) != nil } ?? false },
        "<string>": { $0.stringValue != nil },
        "<number>": { $0.doubleValue != nil },
        "<any>": { _ in true },
        "<jwt>": { $0.stringValue.map { $0.split(separator: ".", omittingEmptySubsequences: false).count == 3 && $0.hasPrefix("eyJ") } ?? false },
    ]

    static func match(_ expected: JSONValue, _ actual: JSONValue, subset: Bool, at path: String) -> [String] {
        if case .string(let s) = expected, let m = matchers[s] { return m(actual) ? [] : ["\(path): expected \(s), got \(actual)"] }
        switch (expected, actual) {
        case (.object(let e), .object(let a)):
            var out: [String] = []
            for k in e.keys.sorted() {
                guard let av = a[k] else { out.append("\(path).\(k): missing"); continue }
                out += match(e[k]!, av, subset: subset, at: "\(path).\(k)")
            }
            if !subset { for k in a.keys.sorted() where e[k] == nil { out.append("\(path).\(k): unexpected key") } }
            return out
        case (.array(let e), .array(let a)):
            guard e.count == a.count else { return ["\(path): expected \(e.count) elements, got \(a.count): \(actual)"] }
            return zip(e, a).enumerated().flatMap { match($1.0, $1.1, subset: subset, at: "\(path)[\($0)]") }
        default:
            if let x = expected.doubleValue, let y = actual.doubleValue { return x == y ? [] : ["\(path): expected \(expected), got \(actual)"] }
            return expected == actual ? [] : ["\(path): expected \(expected), got \(actual)"]
        }
    }

    /// `$.body.reading.id`, `$.body[0].id`.
    static func extract(_ path: String, from root: JSONValue) -> JSONValue? {
        var v: JSONValue? = root
        var rest = Substring(path.hasPrefix("$") ? String(path.dropFirst()) : path)
        while !rest.isEmpty, let cur = v {
            if rest.hasPrefix(".") {
                rest = rest.dropFirst()
                let key = rest.prefix { $0 != "." && $0 != "[" }
                rest = rest.dropFirst(key.count)
                v = cur[String(key)]
            } else if rest.hasPrefix("["), let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]) {
                rest = rest[rest.index(after: close)...]
                v = cur.arrayValue.flatMap { i < $0.count ? $0[i] : nil }
            } else { return nil }
        }
        return v
    }

    /// Decodes a body with a named model and re-encodes it to equal JSON.
    static func modelViolations(_ name: String, _ body: JSONValue) -> [String] {
        let isArray = name.hasSuffix("[]")
        let base = isArray ? String(name.dropLast(2)) : name
        func rt<T: Codable>(_: T.Type) -> [String] {
            guard let rows = isArray ? body.arrayValue : [body] else { return ["model \(name): the body is not an array"] }
            return rows.enumerated().flatMap { i, row -> [String] in
                do {
                    // Numbers compare by value: a jsonb -80 and a Double -80.0 are the same number.
                    return match(row, try AuraJSON.encode(try AuraJSON.decode(T.self, from: row)), subset: false, at: "model \(name)[\(i)]")
                } catch {
                    return ["model \(name)[\(i)]: does not decode: \(error)"]
                }
            }
        }
        switch base {
        case "AuraUser": return rt(AuraUser.self)
        case "DailyReading": return rt(DailyReading.self)
        case "MBTIResult": return rt(MBTIResult.self)
        case "Subscription": return rt(Subscription.self)
        case "GenerateHoroscopeResponse": return rt(GenerateHoroscopeResponse.self)
        case "MBTICalculateResponse": return rt(MBTICalculateResponse.self)
        default: return ["unknown model \(name)"]
        }
    }

    // MARK: Replay

    static func replay(_ i: Interaction, on b: MockSupabase) throws -> [String] {
        let client = WireClient(b)
        var captures: [String: JSONValue] = [:]
        var out: [String] = []
        for (n, step) in i.steps.enumerated() {
            let label = "\(i.file) step \(n) (\(step.actor) \(step.request.method) \(step.request.path))"
            var headers = HTTPHeaders()
            for (k, v) in step.request.headers { headers.add(k, substitute(v, b, captures).stringValue ?? v) }
            let body = step.request.body.map { substitute($0, b, captures) }
            let r = try client.send(method: step.request.method, path: substitute(step.request.path, b, captures).stringValue!,
                                    query: step.request.query.flatMap { substitute($0, b, captures).stringValue }, headers: headers,
                                    body: body?.data(), as: step.actor == "none" ? nil : step.actor)
            if r.status != step.response.status { out.append("\(label): status \(r.status), expected \(step.response.status): \(r.text)") }
            for (k, v) in step.response.headers where r.headers[k] != substitute(v, b, captures).stringValue {
                out.append("\(label): header \(k) is \(r.headers[k] ?? "absent"), expected \(v)")
            }
            let actual = r.body.isEmpty ? JSONValue.null : (r.jsonBody ?? .string(r.text))
            if let e = step.response.body {
                out += match(substitute(e, b, captures), actual, subset: step.response.subset, at: "\(label) $.body")
            }
            if let m = step.model, r.status < 300 { out += modelViolations(m, actual).map { "\(label): \($0)" } }
            for (name, path) in step.capture {
                guard let v = extract(path, from: ["body": actual]) else { out.append("\(label): capture \(name) \(path) found nothing"); continue }
                captures[name] = v
            }
        }
        return out
    }

    static func backend(rules: AuraRules? = nil) throws -> MockSupabase {
        let b = try MockSupabase(contracts: ContractsLocator.app(AuraApp.name), clock: ManualClock(), ids: SeededIDGenerator(seed: 11))
        if let rules { AuraApp.register(on: b, rules: .success(rules)) } else { AuraApp.register(on: b) }
        return b
    }

    func testEveryInteractionReplays() throws {
        let all = try Self.load()
        XCTAssertGreaterThanOrEqual(all.count, 11)
        for i in all {
            AuraTestSupport.assertNoViolations(try Self.replay(i, on: try Self.backend()), "\(i.file): \(i.name)")
        }
    }

    /// Every endpoint of §3.3 (endpoints.json) is exercised by at least one interaction.
    func testEveryDocumentedEndpointHasAnInteraction() throws {
        let root = try SpecNode.load(ContractsLocator.app(AuraApp.name).appendingPathComponent("endpoints.json"))
        let endpoints = try root.object { o -> [(String, String)] in
            _ = o.optional("app"); _ = o.optional("source"); _ = o.optional("decisions")
            return try o.required("endpoints").array().map { e in
                try e.object { eo in
                    for k in ["doc", "auth", "description", "kind", "query", "request", "response"] { _ = eo.optional(k) }
                    return (try eo.required("method").string(), try eo.required("path").string())
                }
            }
        }
        XCTAssertEqual(endpoints.count, 7, "§3.3 lists seven endpoints")
        let steps = try Self.load().flatMap(\.steps)
        for (method, path) in endpoints {
            XCTAssertTrue(steps.contains { $0.request.method == method && $0.request.path == path }, "\(method) \(path) has no interaction")
        }
    }

    /// The interactions reject a backend whose rules or triggers are wrong.
    func testInteractionsRejectMutantBackends() throws {
        let all = Dictionary(uniqueKeysWithValues: try Self.load().map { ($0.file, $0) })
        var rules = try AuraTestSupport.rules()
        rules.dimensions[1].positive = "S"; rules.dimensions[1].negative = "N"
        AuraTestSupport.assertViolations(try Self.replay(all["mbti-calculate.json"]!, on: try Self.backend(rules: rules)), "S/N sign flipped")

        rules = try AuraTestSupport.rules()
        rules.tiers[.free]!.categories.append(.career)
        AuraTestSupport.assertViolations(try Self.replay(all["generate-horoscope-paywall.json"]!, on: try Self.backend(rules: rules)), "Career open to free users")

        rules = try AuraTestSupport.rules()
        rules.triggers = []
        AuraTestSupport.assertViolations(try Self.replay(all["users-profile.json"]!, on: try Self.backend(rules: rules)), "no updated_at trigger")

        rules = try AuraTestSupport.rules()
        rules.premiumRequiresActive = false
        rules.premiumTierValue = "free"
        AuraTestSupport.assertViolations(try Self.replay(all["generate-horoscope-paywall.json"]!, on: try Self.backend(rules: rules)), "free rows count as premium")
    }

    func testMatcherRejectsWhatItShould() {
        XCTAssertFalse(Self.match(["a": 1], ["a": 1, "b": 2], subset: false, at: "$").isEmpty, "extra key")
        XCTAssertTrue(Self.match(["a": 1], ["a": 1, "b": 2], subset: true, at: "$").isEmpty)
        XCTAssertFalse(Self.match(["<uuid>"], ["F10A0000-0000-4000-8000-000000000001"], subset: false, at: "$").isEmpty, "upper-case uuid")
        XCTAssertFalse(Self.match([1, 2], [1], subset: true, at: "$").isEmpty, "length")
        XCTAssertTrue(Self.match(-80, .double(-80), subset: false, at: "$").isEmpty)
        XCTAssertEqual(Self.extract("$.body.reading.id", from: ["body": ["reading": ["id": "x"]]]), "x")
        XCTAssertEqual(Self.extract("$.body[1].id", from: ["body": [["id": "a"], ["id": "b"]]]), "b")
    }
}
