import XCTest
import MockBinding
@testable import MockSupabase

/// Strict where the real services are strict, over the wire (`handle`): JWTs only in canonical
/// unpadded base64url, an unknown `crit` header refused, and `apikey` only the project's anon or
/// service-role key. Each check takes the implementation under test and is shown rejecting a
/// lenient mutant.
final class GatewayStrictnessTests: XCTestCase {
    typealias Send = @Sendable (HTTPRequest) throws -> HTTPResponse

    var f: WireFixture!
    override func setUpWithError() throws {
        f = try WireFixture()
        f.backend.registerFunction("echo-auth", verifyJWT: true) { call in .json(200, ["role": .string(call.auth.role)]) }
    }

    var secret: String { f.backend.configuration.jwtSecret }

    /// `header.payload.signature` with the signature computed over the segments as given.
    func signSegments(_ header: String, _ payload: String) -> String {
        let input = header + "." + payload
        return input + "." + Base64URL.encode(HMACSHA256.mac(key: Array(secret.utf8), message: Array(input.utf8)))
    }

    func segment(_ json: JSONValue) -> String { Base64URL.encode(Array(json.serialized(.compact).utf8)) }

    var userClaims: JSONValue {
        let now = Int64(f.clock.now().timeIntervalSince1970)
        return ["sub": .string(f.ana), "role": "authenticated", "aud": "authenticated", "exp": .int(now + 3600), "iat": .int(now)]
    }

    /// The value of a base64url character.
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// The same bytes spelled with non-zero unused bits in the last character.
    static func nonCanonical(_ s: String) -> String? {
        guard let last = s.last, let v = alphabet.firstIndex(of: last) else { return nil }
        let unused = [0: 0, 2: 4, 3: 2][s.count % 4]!
        guard unused > 0 else { return nil }
        return String(s.dropLast()) + String(alphabet[v | 1])
    }

    /// Tokens each service must refuse although their signature verifies over what was sent (or
    /// the bytes it spells are the right ones).
    func refusedTokens() -> [(String, String)] {
        let header = segment(["alg": "HS256", "typ": "JWT"])
        let good = signSegments(header, segment(userClaims))
        var out: [(String, String)] = []
        // The signature's last character with other unused low bits: the same 32 bytes.
        let parts = good.split(separator: ".").map(String.init)
        if let odd = Self.nonCanonical(parts[2]) { out.append(("non-canonical signature", parts[0] + "." + parts[1] + "." + odd)) }
        out.append(("padded signature", good + "="))
        // A payload spelled non-canonically, then signed as sent.
        var nonce = 0
        var payload = segment(userClaims)
        while Self.nonCanonical(payload) == nil {
            nonce += 1
            payload = segment(.object(userClaims.objectValue!.merging(["n": .int(Int64(nonce))]) { a, _ in a }))
        }
        out.append(("non-canonical payload", signSegments(header, Self.nonCanonical(payload)!)))
        // The standard alphabet ('+' or '/') in the payload, signed as sent.
        var std = ""
        for n in 0..<500 {
            let json = JSONValue.object(userClaims.objectValue!.merging(["pad": .string(String(repeating: "?", count: n % 7) + ">~")]) { a, _ in a })
            std = Data(json.serialized(.compact).utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
            if std.contains("+") || std.contains("/") { break }
        }
        out.append(("standard-alphabet payload", signSegments(header, std)))
        out.append(("padded payload", signSegments(header, segment(userClaims) + "==")))
        // Critical header parameters nobody here understands.
        out.append(
            ("crit naming an unknown extension", signSegments(segment(["alg": "HS256", "typ": "JWT", "crit": ["x-bank"], "x-bank": true]), segment(userClaims)))
        )
        out.append(("crit naming a registered claim", signSegments(segment(["alg": "HS256", "typ": "JWT", "crit": ["exp"]]), segment(userClaims))))
        out.append(("empty crit", signSegments(segment(["alg": "HS256", "typ": "JWT", "crit": []]), segment(userClaims))))
        return out
    }

    /// Every refused token is refused by PostgREST (401), GoTrue (403) and a JWT-verifying
    /// function (401); the canonical token is accepted by all three.
    func jwtViolations(_ send: Send) throws -> [String] {
        let anon = f.backend.anonKey
        func statuses(_ token: String) throws -> [Int] {
            let h: HTTPHeaders = ["apikey": anon, "Authorization": "Bearer \(token)"]
            return [
                try send(HTTPRequest(method: "GET", target: "/rest/v1/cities?select=id&limit=1", headers: h)).status,
                try send(HTTPRequest(method: "GET", target: "/auth/v1/user", headers: h)).status,
                try send(HTTPRequest(method: "POST", target: "/functions/v1/echo-auth", headers: h)).status
            ]
        }
        var out: [String] = []
        let good = signSegments(segment(["alg": "HS256", "typ": "JWT"]), segment(userClaims))
        if try statuses(good) != [200, 200, 200] { out.append("canonical token refused: \(try statuses(good))") }
        for (name, token) in refusedTokens() {
            let s = try statuses(token)
            if s != [401, 403, 401] { out.append("\(name) answered \(s)") }
        }
        return out
    }

    func testJWTsAreCanonicalAndCritIsRefused() throws {
        XCTAssertEqual(refusedTokens().count, 8)
        let backend = f.backend
        XCTAssertEqual(try jwtViolations { try backend.handle($0) }, [])
    }

    /// A verifier that decodes leniently and ignores `crit` (re-spelling the token canonically
    /// before the real one sees it) must be caught on every refused token.
    func testJWTCheckRejectsALenientVerifier() throws {
        let backend = f.backend, secret = self.secret
        let lenient: Send = { r in
            var r = r
            if let a = r.headers["Authorization"], a.hasPrefix("Bearer ") {
                let parts = a.dropFirst(7).split(separator: ".", omittingEmptySubsequences: false)
                func loose(_ s: Substring) -> Data? {
                    var b = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/").replacingOccurrences(of: "=", with: "")
                    while b.count % 4 != 0 { b += "=" }
                    return Data(base64Encoded: b)
                }
                if parts.count == 3, let h = loose(parts[0]), case .object(var header)? = try? JSONValue.parse(h), let p = loose(parts[1]),
                    loose(parts[2]) != nil
                {
                    header["crit"] = nil
                    let input = Base64URL.encode(Array(JSONValue.object(header).serialized(.compact).utf8)) + "." + Base64URL.encode(p)
                    r.headers["Authorization"] = "Bearer " + input + "." + Base64URL.encode(HMACSHA256.mac(key: Array(secret.utf8), message: Array(input.utf8)))
                }
            }
            return try backend.handle(r)
        }
        let violations = try jwtViolations(lenient)
        XCTAssertEqual(violations.count, 8, violations.joined(separator: "\n"))
    }

    // MARK: Base64url

    /// Canonical unpadded base64url: each input decodes to the bytes given, or is refused.
    func base64Violations(_ decode: (Substring) -> [UInt8]?) -> [String] {
        let cases: [(String, [UInt8]?)] = [
            ("", []), ("aGk", Array("hi".utf8)), ("aGl", nil), ("aGm", nil), ("aGn", nil), ("aGo", Array("hj".utf8)), // 2 unused bits
            ("YQ", [0x61]), ("YR", nil), ("YW", nil), // 4 unused bits
            ("-_8", [0xFB, 0xFF]), ("+/8", nil), ("aGk=", nil), ("YQ==", nil), ("a", nil), ("aGk ", nil), ("aG.k", nil),
            ("AAAA", [0, 0, 0]), ("_____w", [0xFF, 0xFF, 0xFF, 0xFF]), ("_____x", nil)
        ]
        return cases.compactMap { input, expected in
            let got = decode(Substring(input))
            return got == expected ? nil : "\"\(input)\": expected \(expected.map { "\($0)" } ?? "refusal"), got \(got.map { "\($0)" } ?? "refusal")"
        }
    }

    func testBase64URLDecodesOnlyCanonicalSpellings() {
        XCTAssertEqual(base64Violations(Base64URL.decode), [])
        // Round trip of every length and byte.
        for n in 0..<40 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ n) }
            XCTAssertEqual(Base64URL.decode(Substring(Base64URL.encode(bytes))), bytes)
        }
    }

    func testBase64CheckRejectsFoundationsLenientDecoder() {
        let lenient: (Substring) -> [UInt8]? = { s in
            guard !s.contains("+"), !s.contains("/"), s.count % 4 != 1 else { return nil }
            var b = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while b.count % 4 != 0 { b += "=" }
            return Data(base64Encoded: b).map { [UInt8]($0) }
        }
        XCTAssertFalse(base64Violations(lenient).isEmpty)
    }

    // MARK: apikey

    /// The gateway lets through only the anon and service-role keys; any other JWT, however
    /// valid, is answered 401 `Invalid API key` on both PostgREST and GoTrue routes.
    func apikeyViolations(_ send: Send) throws -> [String] {
        let b = f.backend
        let userToken = b.accessToken(persona: "ana") ?? ""
        let otherAnon = JWT.sign(["iss": "supabase-demo", "role": "anon", "exp": 4_102_444_800, "iat": 1], secret: b.configuration.jwtSecret)
        var out: [String] = []
        for path in ["/rest/v1/cities?select=id&limit=1", "/auth/v1/settings"] {
            for key in [b.anonKey, b.serviceRoleKey] {
                let r = try send(HTTPRequest(method: "GET", target: path, headers: ["apikey": key]))
                if r.status != 200 { out.append("\(path): a project key answered \(r.status)") }
            }
            for (name, key) in [("a user's access token", userToken), ("another anon-role JWT", otherAnon)] {
                let r = try send(HTTPRequest(method: "GET", target: path, headers: ["apikey": key, "Authorization": "Bearer \(userToken)"]))
                let body = r.jsonBody
                if r.status != 401 || body?["message"] != "Invalid API key" || body?["hint"] != "Double check your Supabase `anon` or `service_role` API key." {
                    out.append("\(path): \(name) as apikey answered \(r.status) \(r.text.prefix(120))")
                }
            }
        }
        return out
    }

    func testAPIKeyMustBeAProjectKey() throws {
        let backend = f.backend
        XCTAssertEqual(try apikeyViolations { try backend.handle($0) }, [])
    }

    func testAPIKeyCheckRejectsAGatewayThatAcceptsAnyJWT() throws {
        let backend = f.backend
        let anyJWT: Send = { r in
            var r = r
            if let k = r.headers["apikey"], (try? backend.verify(token: k)) != nil { r.headers["apikey"] = backend.anonKey }
            return try backend.handle(r)
        }
        XCTAssertEqual(try apikeyViolations(anyJWT).count, 4)
    }
}
