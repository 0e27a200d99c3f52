import Foundation

/// One replayed step: what was sent and what came back.
package struct StepTranscript: Sendable {
    package var step: InteractionStep
    /// The request as sent (templates filled).
    package var request: InteractionCall
    /// The request body as JSON, when it had one.
    package var requestBody: JSONValue?
    package var response: HTTPResponse
    /// The response body as JSON, when it parsed.
    package var responseBody: JSONValue?
}

/// A step asked to move a clock the replay was not given.
struct ClockError: Error, CustomStringConvertible {
    var description: String { "advanceClock needs the backend's ManualClock (pass clock: to replay)" }
}

/// A request as the replay sent it (templates filled, before the transport adds credentials).
package struct InteractionCall: Sendable {
    package var method: String
    package var path: String
    /// Query string without `?`.
    package var query: String?
    /// Header fields of the step.
    package var headers: HTTPHeaders
    package var body: Data?
}

/// The outcome of replaying one interaction file.
package struct InteractionResult: Sendable {
    package var file: InteractionFile
    /// Every difference found, each naming the step and JSON path; empty when it passed.
    package var failures: [String]
    /// The steps replayed (up to and including the first failing one).
    package var transcript: [StepTranscript]

    /// Whether every step got its documented response.
    package var passed: Bool { failures.isEmpty }
}

/// Replays documented interactions against a backend and compares every response with the
/// document.
package enum InteractionReplay {
    /// The transport every replay uses: over the wire (URLSession through the mock's URLProtocol).
    /// Switching to in-process dispatch (`.mock(backend, inProcess: true)`) is this one line.
    package static func transport(for backend: any BackendUnderTest) -> any InteractionTransport { InteractionEndpoint.mock(backend) }

    /// `Contracts/<app>/interactions/*.json`, sorted by file name (none: empty).
    package static func load(folder: URL, displayPrefix: String) throws -> [InteractionFile] {
        let dir = folder.appendingPathComponent("interactions")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return try names.filter { $0.hasSuffix(".json") }.sorted().map {
            try InteractionFile.load(dir.appendingPathComponent($0), displayName: "\(displayPrefix)/interactions/\($0)")
        }
    }

    package static func load(app: any AppModule.Type) throws -> [InteractionFile] {
        try load(folder: ContractsLocator.app(app.name), displayPrefix: "Contracts/\(app.name)")
    }

    /// Where a replay's clock starts unless the file sets `startTime`: 2026-03-01T12:00:00Z,
    /// after every fixture timestamp, so a `now()` written during a replay is told apart from
    /// seeded values. Files written against the fixtures' own time set
    /// `"startTime": "2026-01-01T00:00:00+00:00"` (`ManualClock`'s default).
    package static let defaultStartTime = Date(timeIntervalSince1970: 1_772_366_400)

    /// A fresh backend for one file: a stopped clock at the file's start time and seeded ids,
    /// so a replay is reproducible. Returns the clock too, for `advanceClock`.
    package static func makeBackend(_ app: any AppModule.Type, for file: InteractionFile) throws -> (any BackendUnderTest, ManualClock) {
        let clock = ManualClock(file.startTime ?? defaultStartTime)
        return (try app.makeBackendUnderTest(clock: clock, ids: SeededIDGenerator(seed: 0x1D_7E2A_C710), folder: nil), clock)
    }

    /// Replays every file of an app, each on a fresh backend.
    package static func run(app: any AppModule.Type) throws -> [InteractionResult] {
        try load(app: app).map { file in
            let (backend, clock) = try makeBackend(app, for: file)
            return replay(file, over: transport(for: backend), clock: clock)
        }
    }

    /// `run(app:)` once per process: a replay starts from a fresh backend, a stopped clock and
    /// seeded ids, so its results are a pure function of the app's contract files, which the
    /// `interactions` kind, the `models` kind (`ModelSuite`) and the gate's suites all read.
    package static func sharedRun(app: any AppModule.Type) throws -> [InteractionResult] {
        try sharedRuns.value("\(app.name) \(ContractsLocator.app(app.name).standardizedFileURL.path)") { try run(app: app) }
    }

    /// The replays made so far in this process, by app and contract folder.
    private static let sharedRuns = ProcessMemo<[InteractionResult]>()

    /// Replays one file step by step; stops at the first step that differs (later steps build on it).
    /// - Parameter clock: the backend's clock, moved by steps' `advanceClock` (a step that asks
    ///   for it without a clock fails).
    /// - Parameter shapes: against a backend that generates its own ids and timestamps (a live
    ///   URL), the expected values it would generate are matched by shape (`GeneratedValueShapes`).
    package static func replay(
        _ file: InteractionFile, over transport: any InteractionTransport, clock: ManualClock? = nil,
        shapes: GeneratedValueShapes? = nil
    ) -> InteractionResult {
        var templates = InteractionTemplates(personas: transport.personas, mailbox: transport.mailbox, emailTokens: transport.emailTokens)
        var transcript: [StepTranscript] = []
        for (n, step) in file.steps.enumerated() {
            let label = "\(file.file): step \(n + 1) of \(file.steps.count) (\(step.request.method) \(step.request.path) as \(step.actor))"
            do {
                if let seconds = step.advanceClock {
                    guard let clock else { throw ClockError() }
                    clock.advance(by: seconds)
                }
                let (request, requestBody) = try build(step, templates)
                let response = try transport.send(
                    WireRequest(
                        method: request.method, path: request.path, query: .written(request.query ?? ""),
                        headers: request.headers, body: request.body ?? Data(), actor: WireActor(name: step.actor)))
                let responseBody = response.body.isEmpty ? nil : try? JSONValue.parse(response.body)
                transcript.append(StepTranscript(step: step, request: request, requestBody: requestBody, response: response, responseBody: responseBody))
                let problems = try compare(step, response, responseBody, templates, shapes: shapes)
                if !problems.isEmpty {
                    return InteractionResult(file: file, failures: problems.map { "\(label): \($0)" }, transcript: transcript)
                }
                var rootObject: [String: JSONValue] = [
                    "status": .int(Int64(response.status)),
                    "headers": .object(Dictionary(response.headers.map { ($0.name, JSONValue.string($0.value)) }, uniquingKeysWith: { a, _ in a })),
                    "body": responseBody ?? .null
                ]
                if let location = response.headers["Location"] { rootObject["location"] = RedirectLocation.parse(location) }
                let root: JSONValue = .object(rootObject)
                for (name, path) in step.captures {
                    guard let v = try RedirectLocation.capture(path, in: root) else {
                        return InteractionResult(file: file, failures: ["\(label): capture '\(name)': nothing at \(path)"], transcript: transcript)
                    }
                    templates.captures[name] = v
                }
            } catch {
                return InteractionResult(file: file, failures: ["\(label): \(error)"], transcript: transcript)
            }
        }
        return InteractionResult(file: file, failures: [], transcript: transcript)
    }

    /// The request of a step with its templates filled.
    static func build(_ step: InteractionStep, _ t: InteractionTemplates) throws -> (InteractionCall, JSONValue?) {
        let r = step.request
        let p = step.path + ".request"
        let path = try t.fillText(r.path, at: p + ".path")
        let query = try r.query.map { try t.fillText($0, at: p + ".query") }
        var headers = HTTPHeaders()
        for (name, value) in r.headers { headers.add(name, try t.fillText(value, at: SpecNodePath.child(p + ".headers", name))) }
        var body: Data?
        var json: JSONValue?
        if let b = r.body {
            let filled = try t.fill(b, at: p + ".body")
            json = filled
            body = filled.data()
        } else if let raw = r.rawBody {
            body = Data(try t.fillText(raw, at: p + ".rawBody").utf8)
        }
        if body != nil, headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return (InteractionCall(method: r.method, path: path, query: query, headers: headers, body: body), json)
    }

    /// Differences between a response and the step's expectation.
    static func compare(
        _ step: InteractionStep, _ response: HTTPResponse, _ body: JSONValue?, _ t: InteractionTemplates,
        shapes: GeneratedValueShapes? = nil
    ) throws -> [String] {
        let e = step.response
        let p = step.path + ".response"
        var out: [String] = []
        if response.status != e.status {
            let snippet = response.text.count > 300 ? String(response.text.prefix(297)) + "..." : response.text
            out.append("\(p).status: expected \(e.status), got \(response.status) (body: \(snippet))")
        }
        for (name, raw) in e.headers {
            let hp = SpecNodePath.child(p + ".headers", name)
            let expected = try t.fillText(raw, at: hp)
            guard let actual = response.headers[name] else { out.append("\(hp): missing (expected \"\(expected)\")"); continue }
            if let m = JSONMatch.matchers[expected] {
                if !m(.string(actual)) { out.append("\(hp): expected \(expected), got \"\(actual)\"") }
            } else if actual != expected {
                out.append("\(hp): expected \"\(expected)\", got \"\(actual)\"")
            }
        }
        if let expectedBody = e.body {
            if expectedBody == .string("<empty>") {
                if !response.body.isEmpty { out.append("\(p).body: expected no body, got \(response.text.prefix(120))") }
            } else if let body {
                var filled = try t.fill(expectedBody, at: p + ".body")
                if let shapes { filled = shapes.relax(filled) }
                out += JSONMatch.differences(expected: filled, actual: body, path: p + ".body", subset: e.bodyMatch == .subset)
            } else {
                out.append("\(p).body: expected JSON, got \(response.body.isEmpty ? "no body" : "\"\(response.text.prefix(120))\"")")
            }
        }
        return out
    }

    /// The `interactions` rule kind of `contracts verify`: every file of every app, replayed.
    package static func verifySuite() -> VerifySuite {
        VerifySuite(kind: "interactions") { app in
            try sharedRun(app: app).map { r in
                CaseResult(
                    app: app.name, kind: "interactions", name: "\(r.file.file.split(separator: "/").last ?? "") · \(r.file.name)",
                    passed: r.passed, message: r.failures.joined(separator: "\n"))
            }
        }
    }
}
