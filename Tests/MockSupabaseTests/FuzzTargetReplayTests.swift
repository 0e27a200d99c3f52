import XCTest
@testable import MockSupabase

/// The query, JSON-body and JWT fuzz targets' seed corpora and every input they ever crashed on
/// (Tests/Fuzz/<target>-corpus and <target>-crashes) replayed through the same property checks
/// the targets trap on, and each check shown rejecting a deliberately wrong implementation.
final class FuzzTargetReplayTests: XCTestCase {
    static let backend: MockSupabase = { try! FuzzBackend.make() }()

    private static var fuzzFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")
    }

    /// Every input of `<target>-corpus` and `<target>-crashes`, by folder and name.
    func inputs(_ target: String) throws -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        for folder in ["\(target)-corpus", "\(target)-crashes"] {
            let dir = Self.fuzzFolder.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                out.append(("\(folder)/\(name)", [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))))
            }
        }
        return out
    }

    func testQueryCorpusAndCrashesReplay() throws {
        let all = try inputs("query")
        XCTAssertGreaterThanOrEqual(all.count, 20, "the seed corpus is in Tests/Fuzz/query-corpus")
        for (name, input) in all { XCTAssertEqual(QueryFuzzProperties.violations(ofQuery: input, backend: Self.backend), [], name) }
    }

    func testJSONCorpusAndCrashesReplay() throws {
        let all = try inputs("json")
        XCTAssertGreaterThanOrEqual(all.count, 20, "the seed corpus is in Tests/Fuzz/json-corpus")
        for (name, input) in all { XCTAssertEqual(JSONFuzzProperties.violations(ofBody: input, backend: Self.backend), [], name) }
    }

    func testJWTCorpusAndCrashesReplay() throws {
        let all = try inputs("jwt")
        XCTAssertGreaterThanOrEqual(all.count, 20, "the seed corpus is in Tests/Fuzz/jwt-corpus")
        for (name, input) in all { XCTAssertEqual(JWTFuzzProperties.violations(of: input, backend: Self.backend), [], name) }
    }

    // MARK: The checks can fail

    func testQueryCheckRejectsAParserThatRefusesNestedLogic() {
        // Mutant: refuses any nested or(…) inside a logic tree that the handlers accept.
        let refusesNesting: QueryFuzzProperties.Parse = { items, forRPC in
            if items.contains(where: { $0.value.contains("or(") }) { throw PostgresError("PGRST100", "\"failed to parse logic tree\"") }
            _ = try QueryParser.parse(items, forRPC: forRPC)
        }
        let input = Array("or=(seats.gt.2,or(paid.is.true,seats.eq.1))".utf8)
        XCTAssertEqual(QueryFuzzProperties.violations(ofQuery: input, backend: Self.backend), [])
        let problems = QueryFuzzProperties.violations(ofQuery: input, backend: Self.backend, parse: refusesNesting)
        XCTAssertTrue(problems.contains { $0.hasPrefix("GET rides: the query does not parse") }, "\(problems)")
    }

    func testQueryCheckRejectsAServerErrorForABadQuery() {
        let wrongCode: QueryFuzzProperties.Parse = { items, forRPC in
            do { _ = try QueryParser.parse(items, forRPC: forRPC) } catch { throw PostgresError("XX000", "internal error") }
        }
        let problems = QueryFuzzProperties.violations(ofQuery: Array("limit=-1".utf8), backend: Self.backend, parse: wrongCode)
        XCTAssertTrue(problems.contains { $0.contains("not a client error") }, "\(problems)")
    }

    func testJSONCheckRejectsAParserThatDropsTheLastElement() {
        let dropsLast: JSONFuzzProperties.Parse = { data in
            let v = try JSONValue.parse(data)
            if case .array(let a) = v { return .array(Array(a.dropLast())) }
            return v
        }
        let input = Array("[1,2.5,\"x\"]".utf8)
        XCTAssertEqual(JSONFuzzProperties.violations(ofBody: input, backend: Self.backend), [])
        let problems = JSONFuzzProperties.violations(ofBody: input, backend: Self.backend, parse: dropsLast)
        XCTAssertTrue(problems.contains { $0.contains("parses back as") }, "\(problems)")
    }

    func testJSONCheckRejectsAParserThatThrowsAnUntypedError() {
        struct Oops: Error {}
        let untyped: JSONFuzzProperties.Parse = { data in
            do { return try JSONValue.parse(data) } catch { throw Oops() }
        }
        let problems = JSONFuzzProperties.violations(ofBody: Array("[1,".utf8), backend: Self.backend, parse: untyped)
        XCTAssertTrue(problems.contains { $0.hasPrefix("parse threw Oops") }, "\(problems)")
    }

    func testJWTCheckRejectsAVerifierThatIgnoresTheSignature() throws {
        let ignoresSignature: JWTFuzzProperties.Verify = { token, _, _ in
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let p = Base64URL.decode(parts[1]), case .object(let o)? = try? JSONValue.parse(Data(p)) else { throw JWTError.malformed }
            return o
        }
        let input = try XCTUnwrap(try inputs("jwt").first { $0.0.hasSuffix("/wrong-signature") }).1
        XCTAssertEqual(JWTFuzzProperties.violations(of: input, backend: Self.backend), [])
        let problems = JWTFuzzProperties.violations(of: input, backend: Self.backend, verify: ignoresSignature)
        XCTAssertTrue(problems.contains { $0.contains("the signature is not the HMAC") }, "\(problems)")
    }

    func testJWTCheckRejectsAVerifierThatIgnoresExpiry() {
        let ignoresExpiry: JWTFuzzProperties.Verify = { token, secret, _ in try JWT.verify(token, secret: secret, now: Date(timeIntervalSince1970: 0)) }
        let input = Array("{\"alg\":\"HS256\",\"typ\":\"JWT\"}\n{\"role\":\"anon\",\"exp\":1000}".utf8)
        XCTAssertEqual(JWTFuzzProperties.violations(of: input, backend: Self.backend), [])
        let problems = JWTFuzzProperties.violations(of: input, backend: Self.backend, verify: ignoresExpiry)
        XCTAssertTrue(problems.contains { $0.contains("is not a number after now") }, "\(problems)")
    }

    func testJWTCheckRejectsAVerifierThatRefusesEverything() {
        let refusesAll: JWTFuzzProperties.Verify = { _, _, _ in throw JWTError.invalidSignature }
        let problems = JWTFuzzProperties.violations(
            of: Array("{\"alg\":\"HS256\",\"typ\":\"JWT\"}\n{\"sub\":\"x\"}".utf8), backend: Self.backend, verify: refusesAll)
        XCTAssertTrue(problems.contains { $0.hasPrefix("a well-formed signed token") }, "\(problems)")
    }

    func testJWTCheckRejectsNonCanonicalBase64() throws {
        // A verifier that accepts what the real one refuses shows the canonical-encoding property:
        // the signature's last character changed in bits the decoder drops.
        let signed = JWTFuzzProperties.token(for: Array("{\"alg\":\"HS256\",\"typ\":\"JWT\"}\n{\"role\":\"anon\"}".utf8))
        var chars = Array(signed)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = try XCTUnwrap(alphabet.firstIndex(of: chars[chars.count - 1]))
        chars[chars.count - 1] = alphabet[last ^ 1] // 32-byte signature: 43 characters, the last carries 4 bits and 2 unused
        // Mutant: ignores the unused bits of the signature's last character (clears them first).
        let lenient: JWTFuzzProperties.Verify = { token, secret, now in
            var t = Array(token)
            if let i = alphabet.firstIndex(of: t[t.count - 1]) { t[t.count - 1] = alphabet[i & ~3] }
            return try JWT.verify(String(t), secret: secret, now: now)
        }
        let problems = JWTFuzzProperties.violations(of: Array(String(chars).utf8), backend: Self.backend, verify: lenient)
        XCTAssertTrue(problems.contains { $0.contains("not canonical base64url") }, "\(problems)")
    }

    func testWebSocketCorpusAndCrashesReplay() throws {
        let all = try inputs("ws")
        XCTAssertGreaterThanOrEqual(all.count, 15, "the seed corpus is in Tests/Fuzz/ws-corpus")
        for (name, input) in all { XCTAssertEqual(WebSocketFuzzProperties.violations(of: input, backend: Self.backend), [], name) }
    }

    func testWebSocketCheckRejectsAParserThatForgetsPartialFrames() throws {
        // A parser that starts afresh with every read loses a frame cut in two.
        let forgetful: WebSocketFuzzProperties.Parse = { peer, pieces, max in
            pieces.flatMap { WebSocketFuzzProperties.standardParse(peer, [$0], max) }
        }
        let input = try XCTUnwrap(try inputs("ws").first { $0.0.hasSuffix("/fragmented-text") }).1
        XCTAssertFalse(WebSocketFuzzProperties.violations(of: input, backend: Self.backend, parse: forgetful).isEmpty)
    }

    func testWebSocketCheckRejectsAParserThatIgnoresTheSizeLimit() throws {
        let unlimited: WebSocketFuzzProperties.Parse = { peer, pieces, _ in WebSocketFuzzProperties.standardParse(peer, pieces, Int.max) }
        let input = try XCTUnwrap(try inputs("ws").first { $0.0.hasSuffix("/too-big") }).1
        XCTAssertEqual(WebSocketFuzzProperties.violations(of: input, backend: Self.backend), [])
        XCTAssertFalse(WebSocketFuzzProperties.violations(of: input, backend: Self.backend, parse: unlimited).isEmpty)
    }

    // MARK: The fuzz targets' sampled check

    func testDeepPathSelectionIsReproducibleAndAboutOneInN() {
        var random = SeededRandom(seed: 11)
        let inputs = (0..<4096).map { _ in (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        let picked = inputs.filter { FuzzDriver.takesDeepPath($0, oneIn: 32) }
        XCTAssertTrue((64...192).contains(picked.count), "\(picked.count) of 4096 inputs picked, about 128 expected")
        XCTAssertEqual(inputs.filter { FuzzDriver.takesDeepPath($0, oneIn: 32) }.count, picked.count)
        XCTAssertTrue(inputs.allSatisfy { FuzzDriver.takesDeepPath($0, oneIn: 1) })
    }

    /// Without the deep path, each target's parser-level properties still reject a wrong parser
    /// (so the inputs the fuzzer does not send through the backend check something).
    func testParserLevelChecksRejectMutantsWithoutTheDeepPath() throws {
        let wrongCode: QueryFuzzProperties.Parse = { items, forRPC in
            do { _ = try QueryParser.parse(items, forRPC: forRPC) } catch { throw PostgresError("XX000", "internal error") }
        }
        XCTAssertFalse(QueryFuzzProperties.violations(ofQuery: Array("limit=-1".utf8), backend: Self.backend, parse: wrongCode, deep: false).isEmpty)

        let dropsLast: JSONFuzzProperties.Parse = { data in
            let v = try JSONValue.parse(data)
            if case .array(let a) = v { return .array(Array(a.dropLast())) }
            return v
        }
        XCTAssertFalse(JSONFuzzProperties.violations(ofBody: Array("[1,2.5,\"x\"]".utf8), backend: Self.backend, parse: dropsLast, deep: false).isEmpty)

        let ignoresExpiry: JWTFuzzProperties.Verify = { token, secret, _ in try JWT.verify(token, secret: secret, now: Date(timeIntervalSince1970: 0)) }
        let expired = Array("{\"alg\":\"HS256\",\"typ\":\"JWT\"}\n{\"role\":\"anon\",\"exp\":1000}".utf8)
        XCTAssertEqual(JWTFuzzProperties.violations(of: expired, backend: Self.backend, deep: false), [])
        XCTAssertFalse(JWTFuzzProperties.violations(of: expired, backend: Self.backend, verify: ignoresExpiry, deep: false).isEmpty)

        let forgetful: WebSocketFuzzProperties.Parse = { peer, pieces, max in
            pieces.flatMap { WebSocketFuzzProperties.standardParse(peer, [$0], max) }
        }
        let fragmented = try XCTUnwrap(try inputs("ws").first { $0.0.hasSuffix("/fragmented-text") }).1
        XCTAssertFalse(WebSocketFuzzProperties.violations(of: fragmented, backend: Self.backend, parse: forgetful, deep: false).isEmpty)
    }

    /// The fuzz targets' sampled checks pass over every corpus and crash input (what libFuzzer
    /// runs first), and the parser-only part of each is a subset of the full check.
    func testSampledChecksPassOverTheCorpora() throws {
        for (name, input) in try inputs("query") { XCTAssertEqual(QueryFuzzProperties.fuzzViolations(ofQuery: input, backend: Self.backend), [], name) }
        for (name, input) in try inputs("json") { XCTAssertEqual(JSONFuzzProperties.fuzzViolations(ofBody: input, backend: Self.backend), [], name) }
        for (name, input) in try inputs("jwt") { XCTAssertEqual(JWTFuzzProperties.fuzzViolations(of: input, backend: Self.backend), [], name) }
        for (name, input) in try inputs("ws") { XCTAssertEqual(WebSocketFuzzProperties.fuzzViolations(of: input, backend: Self.backend), [], name) }
    }
}
