import Foundation

/// Properties the PostgREST query-string path has for every input, checked by the `fuzz-query`
/// target (`scripts/fuzz-query`) and replayed over Tests/Fuzz/query-corpus and query-crashes by
/// `swift test`. The input is the raw query string of a request (`select=…&or=(…)&order=…`).
///
/// This is the harness's one entry point into the query parser: it calls
/// `QueryParser.parse(_:forRPC:)` (the function every PostgREST handler calls on
/// `HTTPRequest.query`) and then sends the same query through the whole handler.
package enum QueryFuzzProperties {
    /// A query parser under test: the decoded query items (and whether they address an RPC) to
    /// nothing, or a thrown error.
    package typealias Parse = @Sendable (_ items: [(name: String, value: String)], _ forRPC: Bool) throws -> Void

    /// `QueryParser.parse(_:forRPC:)`, the parser every PostgREST handler calls.
    package static let standardParse: Parse = { items, forRPC in _ = try QueryParser.parse(items, forRPC: forRPC) }

    /// One input in this many also goes through the handlers (properties 2 and 3) when fuzzing
    /// (`FuzzDriver.takesDeepPath`); the replay tests run every property on every input.
    package static let deepOneIn: UInt64 = 32

    /// The fuzz target's check: property 1 on every input, 2 and 3 on the inputs
    /// `FuzzDriver.takesDeepPath` picks.
    package static func fuzzViolations(ofQuery input: [UInt8], backend: MockSupabase) -> [String] {
        violations(ofQuery: input, backend: backend, deep: FuzzDriver.takesDeepPath(input, oneIn: deepOneIn))
    }

    /// Checks one query string; returns one line per violated property (empty when all hold).
    /// Without `deep`, only property 1 (the parser alone).
    ///
    /// 1. Parsing the decoded items (as a table read and as an RPC call) either succeeds or fails
    ///    with a `PostgresError` whose status is a client error (4xx: PGRST1xx, or 22P02 for a
    ///    malformed literal as PostgreSQL answers it); anything else is a violation.
    /// 2. `GET /rest/v1/rides?<input>` (service role): when parsing failed, the answer is that
    ///    error with its status; in every case no 5xx, JSON bodies parse, error bodies have
    ///    PostgREST's four keys.
    /// 3. The same for `HEAD` with `count=exact`, a singular read of `owners`, and
    ///    `GET /rest/v1/rpc/fuzz_rows?<input>` (filters over a set-returning function).
    package static func violations(ofQuery input: [UInt8], backend: MockSupabase, parse: Parse = standardParse, deep: Bool = true) -> [String] {
        var problems: [String] = []
        let text = String(decoding: input, as: UTF8.self)
        let (_, items) = HTTPRequest.splitTarget("/?" + text)

        var parseError: PostgresError?
        for forRPC in [false, true] {
            do {
                try parse(items, forRPC)
            } catch let e as PostgresError {
                // PGRST1xx, or what PostgreSQL itself answers a bad literal with (22P02 for
                // `eq(any).{1,2}x`): a client error either way, never a server one.
                let status = postgrestStatus(for: e.code, anonymous: false)
                if !(400..<500).contains(status) {
                    problems.append("parse(forRPC: \(forRPC)) failed with \(e.code) (status \(status)), not a client error: \(e.message)")
                }
                if !forRPC { parseError = e }
            } catch {
                problems.append("parse(forRPC: \(forRPC)) threw \(type(of: error)): \(error)")
            }
        }

        guard deep else { return problems }
        let headers = FuzzBackend.serviceHeaders(backend)
        func send(_ method: String, _ path: String, extra: HTTPHeaders = [:], label: String) -> HTTPResponse? {
            var h = headers
            for (name, value) in extra.fields { h[name] = value }
            var request = HTTPRequest(method: method, path: path, query: items, headers: h)
            if method == "HEAD" { request.query.append(("count", "exact")) }
            do {
                let r = try backend.handle(request)
                problems += FuzzBackend.responseProblems(r, label: label)
                return r
            } catch {
                problems.append("\(label): handle threw \(error)")
                return nil
            }
        }
        if let r = send("GET", "/rest/v1/rides", label: "GET rides"), let e = parseError {
            let status = postgrestStatus(for: e.code, anonymous: false)
            let code = (try? JSONValue.parse(r.body))?["code"]?.stringValue
            if r.status != status || code != e.code {
                problems.append("GET rides: the query does not parse (\(e.code)) but the answer is \(r.status) \(code ?? "without a code")")
            }
        }
        _ = send("HEAD", "/rest/v1/rides", extra: ["Prefer": "count=exact"], label: "HEAD rides")
        _ = send("GET", "/rest/v1/owners", extra: ["Accept": "application/vnd.pgrst.object+json"], label: "GET owners (singular)")
        _ = send("GET", "/rest/v1/rpc/fuzz_rows", label: "GET rpc/fuzz_rows")
        return problems
    }
}
