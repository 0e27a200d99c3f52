import Foundation

/// Properties of the JSON body decoder for every input, checked by the `fuzz-json` target
/// (`scripts/fuzz-json`) and replayed over Tests/Fuzz/json-corpus and json-crashes by
/// `swift test`. The input is a request body.
package enum JSONFuzzProperties {
    /// A JSON parser under test.
    package typealias Parse = @Sendable (Data) throws -> JSONValue

    /// `JSONValue.parse`, the decoder of every request body.
    package static let standardParse: Parse = { try JSONValue.parse($0) }

    /// One input in this many also goes through the write paths (property 3) when fuzzing
    /// (`FuzzDriver.takesDeepPath`); the replay tests run every property on every input.
    package static let deepOneIn: UInt64 = 32

    /// The fuzz target's check: properties 1 and 2 on every input, 3 on the inputs
    /// `FuzzDriver.takesDeepPath` picks.
    package static func fuzzViolations(ofBody input: [UInt8], backend: MockSupabase) -> [String] {
        violations(ofBody: input, backend: backend, deep: FuzzDriver.takesDeepPath(input, oneIn: deepOneIn))
    }

    /// Checks one body; returns one line per violated property (empty when all hold). Without
    /// `deep`, only properties 1 and 2 (the parser and printer alone).
    ///
    /// 1. `JSONValue.parse` returns a value or throws `JSONParseError` (offset within the input).
    /// 2. A parsed value printed in each style (compact, jsonb, pretty) parses back to the same
    ///    value (numbers compared by value: `7.0` prints as `7`), and printing that again gives
    ///    the same text.
    /// 3. The body through PostgREST's write paths (service role): `POST /rest/v1/sink` (every
    ///    column type; its CHECK never holds, so nothing is stored), `PATCH /rest/v1/sink?id=eq.…`
    ///    and `POST /rest/v1/rpc/fuzz_rows` (typed arguments): no 5xx, JSON bodies parse, error
    ///    bodies have PostgREST's four keys; a body that does not parse is answered 400 PGRST102;
    ///    the sink never stores a row.
    package static func violations(ofBody input: [UInt8], backend: MockSupabase, parse: Parse = standardParse, deep: Bool = true) -> [String] {
        var problems: [String] = []
        let data = Data(input)
        var parsed: JSONValue?
        do {
            parsed = try parse(data)
        } catch let e as JSONParseError {
            if e.offset < 0 || e.offset > input.count { problems.append("parse error offset \(e.offset) outside the \(input.count)-byte input") }
        } catch {
            problems.append("parse threw \(type(of: error)): \(error)")
        }
        if let value = parsed {
            for style in [JSONStyle.compact, .jsonb, .pretty] {
                let text = value.serialized(style)
                guard let again = try? parse(Data(text.utf8)) else {
                    problems.append("\(style): printed text does not parse: \(text.prefix(300))")
                    continue
                }
                if !JSONValue.sameValue(value, again) { problems.append("\(style): \(text.prefix(300)) parses back as \(again.serialized().prefix(300))") }
                if again.serialized(style) != text {
                    problems.append("\(style): printing is not stable: \(text.prefix(200)) then \(again.serialized(style).prefix(200))")
                }
            }
        }

        guard deep else { return problems }
        var headers = FuzzBackend.serviceHeaders(backend)
        headers["Content-Type"] = "application/json"
        headers["Prefer"] = "return=representation"
        let requests = [
            ("POST sink", HTTPRequest(method: "POST", path: "/rest/v1/sink", headers: headers, body: data)),
            (
                "PATCH sink",
                HTTPRequest(method: "PATCH", path: "/rest/v1/sink", query: [("id", "eq.0000000c-0000-4000-8000-000000000001")], headers: headers, body: data)
            ),
            ("POST rpc/fuzz_rows", HTTPRequest(method: "POST", path: "/rest/v1/rpc/fuzz_rows", headers: headers, body: data))
        ]
        let blank = input.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        for (label, request) in requests {
            let r: HTTPResponse
            do { r = try backend.handle(request) } catch {
                problems.append("\(label): handle threw \(error)")
                continue
            }
            problems += FuzzBackend.responseProblems(r, label: label)
            let code = (try? JSONValue.parse(r.body))?["code"]?.stringValue
            if parsed == nil && !blank && (r.status != 400 || code != "PGRST102") {
                problems.append("\(label): the body is not JSON but the answer is \(r.status) \(code ?? "without a code")")
            }
            if label == "POST sink", r.status == 201, (try? JSONValue.parse(r.body))?.arrayValue?.isEmpty != true {
                problems.append("POST sink: a row was stored (its CHECK never holds)")
            }
        }
        return problems
    }
}
