import Foundation

/// A documented interaction: one file of `Contracts/<app>/interactions/`, a request/response pair
/// or a short flow of them (format in Contracts/FORMAT.md, "interactions/*.json").
package struct InteractionFile: Sendable {
    /// The file, for messages (`Contracts/teleportme/interactions/saved-city-duplicate.json`).
    package var file: String
    /// What it documents.
    package var name: String
    /// Where the document states it (`000 §5.3`).
    package var source: String
    /// Where the backend's clock stands when the file starts (`"startTime"`; nil: the replay's
    /// default, `InteractionReplay.defaultStartTime`, 2026-03-01T12:00:00Z).
    package var startTime: Date?
    /// Why the outcome needs the backend's clock at `startTime` (`"clockBound"`): what the file
    /// expects is computed from that moment (a 90-day window, an expiry, today's date), so a live
    /// backend, whose clock cannot be set, cannot run it (`contracts verify --target` shows it as
    /// not applicable with this reason). Nil: the file holds at any time after the fixtures.
    package var clockBound: String? = nil
    /// The steps, in order; later steps see earlier steps' captures.
    package var steps: [InteractionStep]
}

/// One request and the response it must get.
package struct InteractionStep: Sendable {
    /// JSON path of the step in its file (`$.steps[1]`).
    package var path: String
    /// Who sends it: a persona name of fixtures.json, `anon`, `service_role`, or `none` (no
    /// apikey and no Authorization header).
    package var actor: String
    /// The request (templates not yet expanded).
    package var request: InteractionRequest
    /// The expected response (templates not yet expanded).
    package var response: ExpectedResponse
    /// Values to remember: name → JSONPath into `{status, headers, body}` (`$.body[0].id`).
    package var captures: [(name: String, path: String)]
    /// The model that must decode the response body and re-encode it to an equal JSON.
    package var model: String?
    /// The model that must decode the request body and re-encode it to an equal JSON.
    package var requestModel: String?
    /// Seconds the backend's clock moves forward before this step is sent (`"advanceClock"`).
    package var advanceClock: Double?
}

package struct InteractionRequest: Sendable {
    /// `GET`, `POST`, …
    package var method: String
    /// `/rest/v1/saved_cities`.
    package var path: String
    /// The query string without `?` (`select=*&order=created_at.desc`).
    package var query: String?
    /// Header fields sent in addition to the actor's `apikey` and `Authorization` (and
    /// overriding them when named).
    package var headers: [(name: String, value: String)]
    /// A JSON body, serialised compactly.
    package var body: JSONValue?
    /// A body sent byte for byte (for malformed-JSON cases); exclusive with `body`.
    package var rawBody: String?
}

/// How an expected body compares with the actual one.
package enum BodyMatch: String, Sendable, CaseIterable {
    /// Objects must have exactly the expected keys.
    case exact
    /// Objects may have keys the expectation does not list (at every depth).
    case subset
}

/// The response a step must get.
package struct ExpectedResponse: Sendable {
    package var status: Int
    /// Header fields that must be present (names case-insensitive; values may be matchers).
    package var headers: [(name: String, value: String)]
    /// The body (nil: not checked; `"<empty>"`: no body bytes).
    package var body: JSONValue?
    /// Object comparison.
    package var bodyMatch: BodyMatch
}

extension InteractionFile {
    /// Reads an interaction file strictly: unknown keys, wrong types and unknown `bodyMatch`
    /// values are errors naming the file and JSON path.
    package static func load(_ url: URL, displayName: String) throws -> InteractionFile {
        try SpecNode.load(url, displayName: displayName).decode(InteractionFile.self)
    }
}

extension KeyedDecodingContainer {
    /// A map of strings as (name, value) pairs sorted by name (none when absent).
    fileprivate func pairs(_ key: Key) throws -> [(name: String, value: String)] {
        try (decodeIfPresent([String: String].self, forKey: key) ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

extension InteractionFile: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case decision, name, source, startTime, clockBound, steps }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        file = decoder.contractState?.file ?? ""
        name = try c.decode(String.self, forKey: .name)
        source = try c.decode(String.self, forKey: .source)
        if let t = try c.decodeIfPresent(String.self, forKey: .startTime) {
            guard let us = PGTime.parseTimestamp(t, assumeUTC: true) else { throw c.fail(.startTime, "not a timestamp: \(JSONValue.string(t))") }
            startTime = PGTime.date(micros: us)
        }
        clockBound = try c.decodeIfPresent(String.self, forKey: .clockBound)
        steps = try c.decode([InteractionStep].self, forKey: .steps)
        if steps.isEmpty { throw c.fail(.steps, "an interaction has at least one step") }
    }
}

extension InteractionStep: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case decision, doc, `as`, request, response, capture, advanceClock, model, requestModel }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = decoder.jsonPath
        actor = try c.decode(String.self, forKey: .as)
        request = try c.decode(InteractionRequest.self, forKey: .request)
        response = try c.decode(ExpectedResponse.self, forKey: .response)
        captures = []
        if let map = try c.decodeIfPresent([String: SpecNode].self, forKey: .capture) {
            for (k, n) in map.sorted(by: { $0.key < $1.key }) {
                let p = try n.string()
                do { _ = try JSONPath.parse(String(p.prefix { $0 != "?" })) } catch let e as JSONPath.SyntaxError { throw n.fail(e.description) }
                captures.append((k, p))
            }
        }
        advanceClock = try c.decodeIfPresent(Double.self, forKey: .advanceClock)
        if let v = advanceClock, v < 0 { throw c.fail(.advanceClock, "the clock only moves forward (seconds >= 0)") }
        model = try c.decodeIfPresent(String.self, forKey: .model)
        requestModel = try c.decodeIfPresent(String.self, forKey: .requestModel)
    }
}

extension InteractionRequest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case method, path, body, rawBody, query, headers }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(String.self, forKey: .method)
        guard ["GET", "HEAD", "POST", "PATCH", "PUT", "DELETE", "OPTIONS"].contains(method) else { throw c.fail(.method, "unknown method '\(method)'") }
        path = try c.decode(String.self, forKey: .path)
        if !path.hasPrefix("/") || path.contains("?") { throw c.fail(.path, "a path starts with '/' and has no query (put it in \"query\")") }
        body = try c.decodeIfPresent(JSONValue.self, forKey: .body)
        if body != nil, try !c.decodeNil(forKey: .rawBody) { throw c.fail(.rawBody, "give either body or rawBody, not both") }
        rawBody = try c.decodeIfPresent(String.self, forKey: .rawBody)
        query = try c.decodeIfPresent(String.self, forKey: .query)
        headers = try c.pairs(.headers)
    }
}

extension ExpectedResponse: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case status, bodyMatch, headers, body }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decode(Int.self, forKey: .status)
        if !(100...599).contains(status) { throw c.fail(.status, "not an HTTP status: \(status)") }
        if let v = try c.decodeIfPresent(String.self, forKey: .bodyMatch) {
            guard let bm = BodyMatch(rawValue: v) else {
                throw c.fail(.bodyMatch, "unknown bodyMatch '\(v)' (one of: \(BodyMatch.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            bodyMatch = bm
        } else {
            bodyMatch = .exact
        }
        headers = try c.pairs(.headers)
        body = c.contains(.body) ? (try c.decodeIfPresent(JSONValue.self, forKey: .body) ?? .null) : JSONValue?.none
    }
}

/// The subset of JSONPath captures use: `$`, `.name`, `[n]`, `["name"]`.
package enum JSONPath {
    /// One step of a path.
    package enum Segment: Equatable, Sendable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
    }

    /// A path that does not parse.
    package struct SyntaxError: Error, CustomStringConvertible, Sendable {
        package var path: String
        /// What is wrong.
        package var reason: String
        package var description: String { "invalid JSONPath '\(path)': \(reason)" }
    }

    package static func parse(_ path: String) throws -> [Segment] {
        let chars = Array(path)
        guard chars.first == "$" else { throw SyntaxError(path: path, reason: "must start with '$'") }
        var i = 1
        var out: [Segment] = []
        while i < chars.count {
            if chars[i] == "." {
                i += 1
                var name = ""
                while i < chars.count, chars[i] != ".", chars[i] != "[" { name.append(chars[i]); i += 1 }
                if name.isEmpty { throw SyntaxError(path: path, reason: "empty member name") }
                out.append(.key(name))
            } else if chars[i] == "[" {
                guard let close = chars[i...].firstIndex(of: "]") else { throw SyntaxError(path: path, reason: "unclosed '['") }
                let inner = String(chars[(i + 1)..<close])
                if inner.count >= 2, inner.hasPrefix("\""), inner.hasSuffix("\"") {
                    out.append(.key(String(inner.dropFirst().dropLast())))
                } else if let n = Int(inner), n >= 0 {
                    out.append(.index(n))
                } else {
                    throw SyntaxError(path: path, reason: "'[\(inner)]' is neither an index nor a quoted name")
                }
                i = close + 1
            } else {
                throw SyntaxError(path: path, reason: "unexpected '\(chars[i])'")
            }
        }
        return out
    }

    /// The value at a path; a key under `headers` matches case-insensitively.
    package static func value(at path: String, in root: JSONValue) throws -> JSONValue? {
        var cur = root
        var parentKey: String?
        for seg in try parse(path) {
            switch seg {
            case .key(let k):
                guard case .object(let o) = cur else { return nil }
                if let v = o[k] {
                    cur = v
                } else if parentKey == "headers", let hit = o.first(where: { $0.key.lowercased() == k.lowercased() }) {
                    cur = hit.value
                } else {
                    return nil
                }
                parentKey = k
            case .index(let n):
                guard case .array(let a) = cur, n < a.count else { return nil }
                cur = a[n]
                parentKey = nil
            }
        }
        return cur
    }
}
