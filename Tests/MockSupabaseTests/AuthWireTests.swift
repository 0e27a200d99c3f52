import XCTest
import MockBinding
@testable import MockSupabase

/// SHA-256, HMAC and HS256 against published vectors.
final class CryptoVectorTests: XCTestCase {
    func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }

    func testSHA256FIPSVectors() {
        XCTAssertEqual(hex(SHA256.hash(Array("abc".utf8))), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(hex(SHA256.hash([UInt8]())), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(
            hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000))), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func testHMACRFC4231() {
        XCTAssertEqual(
            hex(HMACSHA256.mac(key: [UInt8](repeating: 0x0b, count: 20), message: Array("Hi There".utf8))),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        XCTAssertEqual(
            hex(HMACSHA256.mac(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Case 6: a key longer than the block size is hashed first.
        XCTAssertEqual(
            hex(HMACSHA256.mac(key: [UInt8](repeating: 0xaa, count: 131), message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    func testJWTRFC7515StyleRoundTripAndKnownToken() throws {
        // The widely published HS256 example token (secret "your-256-bit-secret").
        let known =
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
        let claims = try JWT.verify(known, secret: "your-256-bit-secret", now: Date())
        XCTAssertEqual(claims["name"], "John Doe")
        XCTAssertThrowsError(try JWT.verify(known, secret: "another-secret", now: Date())) { XCTAssertEqual($0 as? JWTError, .invalidSignature) }
        let t = JWT.sign(["sub": "x", "exp": 100], secret: "s")
        XCTAssertNoThrow(try JWT.verify(t, secret: "s", now: Date(timeIntervalSince1970: 99)))
        XCTAssertThrowsError(try JWT.verify(t, secret: "s", now: Date(timeIntervalSince1970: 100))) { XCTAssertEqual($0 as? JWTError, .expired) }
    }

    func testBase64URLRejectsForeignAlphabet() {
        XCTAssertNil(Base64URL.decode("ab+c"))
        XCTAssertNil(Base64URL.decode("a"))
        XCTAssertEqual(Base64URL.decode("aGk"), Array("hi".utf8))
    }
}

/// GoTrue over the wire: sessions shaped as GoTrue shapes them, its error shapes, single-use
/// refresh tokens, and forged tokens refused everywhere.
final class GoTrueWireTests: XCTestCase {
    var f: WireFixture!

    override func setUpWithError() throws { f = try WireFixture() }

    func auth(_ method: String, _ path: String, _ query: String? = nil, json: JSONValue? = nil, token: String? = nil) throws -> HTTPResponse {
        var h: HTTPHeaders = ["apikey": f.backend.anonKey]
        if let token { h["Authorization"] = "Bearer \(token)" }
        return try f.wire.send(method: method, path: "/auth/v1" + path, query: query, headers: h, body: json?.data(), as: nil)
    }

    func assertGoTrueError(_ r: HTTPResponse, _ status: Int, _ code: String, _ msg: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.text, file: file, line: line)
        XCTAssertEqual(
            r.json(),
            ["code": .int(Int64(status)), "error_code": .string(code), "msg": .string(msg)].merging(
                r.json()["weak_password"].map { ["weak_password": $0] } ?? [:]
            ) { a, _ in a }.asJSON, file: file, line: line)
    }

    func testSignupReturnsAGoTrueSessionAndTheUserCanReadPostgREST() throws {
        let r = try auth("POST", "/signup", json: ["email": "Cara@Example.com", "password": "secret-1", "data": ["name": "Cara"]])
        XCTAssertEqual(r.status, 200, r.text)
        let s = r.json()
        XCTAssertEqual(s["token_type"], "bearer")
        XCTAssertEqual(s["expires_in"], 3600)
        XCTAssertEqual(s["expires_at"]?.intValue, Int64(f.clock.now().timeIntervalSince1970) + 3600)
        XCTAssertEqual(s["refresh_token"]?.stringValue?.count, 12)
        XCTAssertEqual(s["user"]?["email"], "cara@example.com")
        XCTAssertEqual(s["user"]?["aud"], "authenticated")
        XCTAssertEqual(s["user"]?["role"], "authenticated")
        XCTAssertEqual(s["user"]?["user_metadata"]?["name"], "Cara")
        let token = try XCTUnwrap(s["access_token"]?.stringValue)
        let claims = try JWT.verify(token, secret: f.backend.configuration.jwtSecret, now: f.clock.now())
        XCTAssertEqual(Set(["sub", "role", "email", "aud", "iat", "exp"]).subtracting(claims.keys), [])
        XCTAssertEqual(claims["sub"], s["user"]?["id"])
        let me = try auth("GET", "/user", token: token)
        XCTAssertEqual(me.json()["id"], s["user"]?["id"])
        let rest = try f.wire.send(
            method: "GET", path: "/rest/v1/saved_cities", headers: ["apikey": f.backend.anonKey, "Authorization": "Bearer \(token)"], as: nil)
        XCTAssertEqual(rest.text, "[]", "a new user owns nothing")
    }

    func testSignupErrors() throws {
        assertGoTrueError(
            try auth("POST", "/signup", json: ["email": "ana@teleportme.test", "password": "whatever1"]), 422, "user_already_exists", "User already registered")
        let weak = try auth("POST", "/signup", json: ["email": "new@example.com", "password": "12345"])
        XCTAssertEqual(weak.status, 422)
        XCTAssertEqual(weak.json()["error_code"], "weak_password")
        XCTAssertEqual(weak.json()["msg"], "Password should be at least 6 characters.")
        XCTAssertEqual(weak.json()["weak_password"], ["reasons": ["length"]])
        assertGoTrueError(
            try auth("POST", "/signup", json: ["email": "not-an-email", "password": "secret-1"]), 400, "validation_failed",
            "Unable to validate email address: invalid format")
        XCTAssertEqual(f.backend.database.count("auth.users"), 2, "no user was created")
    }

    func testPasswordGrantAndWrongPassword() throws {
        let ok = try auth("POST", "/token", "grant_type=password", json: ["email": "ana@teleportme.test", "password": "ana-password-1"])
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(ok.json()["user"]?["id"], .string(f.ana))
        assertGoTrueError(
            try auth("POST", "/token", "grant_type=password", json: ["email": "ana@teleportme.test", "password": "wrong"]), 400, "invalid_credentials",
            "Invalid login credentials")
        assertGoTrueError(
            try auth("POST", "/token", "grant_type=password", json: ["email": "nobody@x.io", "password": "whatever"]), 400, "invalid_credentials",
            "Invalid login credentials")
    }

    func testRefreshTokensAreSingleUse() throws {
        let s = try auth("POST", "/token", "grant_type=password", json: ["email": "ana@teleportme.test", "password": "ana-password-1"]).json()
        let rt = try XCTUnwrap(s["refresh_token"]?.stringValue)
        let r1 = try auth("POST", "/token", "grant_type=refresh_token", json: ["refresh_token": .string(rt)])
        XCTAssertEqual(r1.status, 200)
        let rt1 = try XCTUnwrap(r1.json()["refresh_token"]?.stringValue)
        XCTAssertNotEqual(rt1, rt)
        let r2 = try auth("POST", "/token", "grant_type=refresh_token", json: ["refresh_token": .string(rt1)])
        XCTAssertEqual(r2.status, 200)
        // Reusing a grandparent after GoTrue's reuse interval (RefreshTokenRotationTests has the rest).
        f.clock.advance(by: 11)
        assertGoTrueError(
            try auth("POST", "/token", "grant_type=refresh_token", json: ["refresh_token": .string(rt)]), 400, "refresh_token_already_used",
            "Invalid Refresh Token: Already Used")
        assertGoTrueError(
            try auth("POST", "/token", "grant_type=refresh_token", json: ["refresh_token": "nope"]), 400, "validation_failed", "Refresh token is not valid")
        assertGoTrueError(
            try auth("POST", "/token", "grant_type=refresh_token", json: ["refresh_token": "abcdefghijkl"]), 400, "refresh_token_not_found",
            "Invalid Refresh Token: Refresh Token Not Found")
    }

    func testLogoutEndsTheSession() throws {
        let s = try auth("POST", "/token", "grant_type=password", json: ["email": "ana@teleportme.test", "password": "ana-password-1"]).json()
        let token = try XCTUnwrap(s["access_token"]?.stringValue), rt = try XCTUnwrap(s["refresh_token"]?.stringValue)
        XCTAssertEqual(try auth("POST", "/logout", token: token).status, 204)
        XCTAssertEqual(try auth("POST", "/token", "grant_type=refresh_token", json: ["refresh_token": .string(rt)]).status, 400)
        assertGoTrueError(try auth("GET", "/user", token: token), 403, "session_not_found", "Session from session_id claim in JWT does not exist")
        assertGoTrueError(try auth("GET", "/user"), 401, "no_authorization", "This endpoint requires a valid Bearer token")
    }

    func testUpdateUser() throws {
        let token = f.backend.accessToken(persona: "ana")!
        let r = try auth("PUT", "/user", json: ["data": ["theme": "dark"], "password": "new-password-9"], token: token)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.json()["user_metadata"]?["theme"], "dark")
        XCTAssertEqual(try auth("POST", "/token", "grant_type=password", json: ["email": "ana@teleportme.test", "password": "new-password-9"]).status, 200)
        XCTAssertEqual(try auth("PUT", "/user", json: ["password": "short"], token: token).json()["error_code"], "weak_password")
    }

    func testExpiryIsCheckedAgainstTheInjectedClock() throws {
        let token = f.backend.accessToken(persona: "ana")!
        XCTAssertEqual(
            try f.wire.send(method: "GET", path: "/rest/v1/saved_cities", headers: ["apikey": f.backend.anonKey, "Authorization": "Bearer \(token)"], as: nil)
                .status, 200)
        f.clock.advance(by: 3600)
        let r = try f.wire.send(
            method: "GET", path: "/rest/v1/saved_cities", headers: ["apikey": f.backend.anonKey, "Authorization": "Bearer \(token)"], as: nil)
        r.assertPostgrestError(401, "PGRST303", "JWT expired")
        XCTAssertEqual(r.headers["WWW-Authenticate"], "Bearer error=\"invalid_token\", error_description=\"JWT expired\"")
    }

    /// A forged token — wrong key, `alg: none`, expired, edited payload — is refused with 401
    /// by PostgREST, Functions and GoTrue, and changes nothing.
    func testForgedTokensAreRejectedAndChangeNothing() throws {
        let secret = f.backend.configuration.jwtSecret
        let now = Int64(f.clock.now().timeIntervalSince1970)
        let claims: [String: JSONValue] = ["sub": .string(f.ben), "role": "authenticated", "aud": "authenticated", "iat": .int(now), "exp": .int(now + 3600)]
        let real = JWT.sign(claims, secret: secret)
        let parts = real.split(separator: ".").map(String.init)
        let wrongKey = JWT.sign(claims, secret: "not-the-project-secret-not-the-project-secret")
        let algNone = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "." + parts[1] + "."
        let expired = JWT.sign(claims.merging(["exp": .int(now - 1)]) { _, b in b }, secret: secret)
        var edited = claims
        edited["role"] = "service_role"
        let editedPayload = parts[0] + "." + Base64URL.encode(Array(JSONValue.object(edited).serialized().utf8)) + "." + parts[2]
        f.backend.registerFunction("echo") { call in .json(200, ["sub": call.auth.claims["sub"] ?? .null]) }
        let before = try f.backend.database.rows("saved_cities", as: .serviceRole)
        for (label, token) in [("wrong key", wrongKey), ("alg none", algNone), ("expired", expired), ("edited payload", editedPayload), ("garbage", "abc.def")]
        {
            let h: HTTPHeaders = ["apikey": f.backend.anonKey, "Authorization": "Bearer \(token)"]
            let read = try f.wire.send(method: "GET", path: "/rest/v1/saved_cities", headers: h, as: nil)
            XCTAssertEqual(read.status, 401, label)
            XCTAssertTrue(["PGRST301", "PGRST303"].contains(read.json()["code"]?.stringValue ?? ""), "\(label): \(read.text)")
            let write = try f.wire.send(
                method: "POST", path: "/rest/v1/saved_cities", headers: h, body: JSONValue.object(["user_id": .string(f.ben), "city_id": "paris"]).data(),
                as: nil)
            XCTAssertEqual(write.status, 401, label)
            let del = try f.wire.send(method: "DELETE", path: "/rest/v1/saved_cities", query: "city_id=eq.tokyo", headers: h, as: nil)
            XCTAssertEqual(del.status, 401, label)
            let fn = try f.wire.send(method: "POST", path: "/functions/v1/echo", headers: h, as: nil)
            XCTAssertEqual(fn.status, 401, label)
            XCTAssertEqual(fn.json()["message"], "Invalid JWT", label)
            XCTAssertEqual(try auth("GET", "/user", token: token).status == 403 || token == "abc.def", true, label)
        }
        XCTAssertEqual(try f.backend.database.rows("saved_cities", as: .serviceRole), before, "nothing changed")
    }
}

/// Edge functions: dispatch, JWT verification, and the caller handed to the handler.
final class FunctionsWireTests: XCTestCase {
    func testDispatchAndCaller() throws {
        let f = try WireFixture()
        f.backend.registerFunction("whoami") { call in
            .json(200, ["role": .string(call.auth.role), "sub": call.auth.claims["sub"] ?? .null, "body": try call.json()])
        }
        f.backend.registerFunction("open", verifyJWT: false) { call in .json(200, ["role": .string(call.auth.role)]) }
        let r = try f.send("POST", "/functions/v1/whoami", json: ["x": 1])
        XCTAssertEqual(r.json(), ["role": "authenticated", "sub": .string(f.ana), "body": ["x": 1]])
        XCTAssertEqual(try f.send("POST", "/functions/v1/whoami", as: "anon").json()["role"], "anon")
        let missing = try f.wire.send(method: "POST", path: "/functions/v1/whoami", headers: ["apikey": f.backend.anonKey], as: nil)
        XCTAssertEqual(missing.status, 401)
        XCTAssertEqual(missing.json(), ["code": 401, "message": "Missing authorization header"])
        XCTAssertEqual(try f.wire.send(method: "GET", path: "/functions/v1/open", as: nil).json()["role"], "anon")
        let unknown = try f.send("POST", "/functions/v1/nope")
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(unknown.json(), ["code": "NOT_FOUND", "message": "Requested function was not found"])
    }

    func testInjectedNetworkFaultFailsTheTransport() throws {
        let f = try WireFixture()
        f.backend.inject(InjectedFault(pathPrefix: "/rest/v1/saved_cities", kind: .networkError, remaining: 1))
        XCTAssertThrowsError(try f.send("GET", "/rest/v1/saved_cities")) { XCTAssertTrue($0 is WireClient.TransportError) }
        XCTAssertEqual(try f.send("GET", "/rest/v1/saved_cities").status, 200, "the fault was used up")
    }

    func testIsolatedBackendsAndReset() throws {
        let a = try WireFixture(), b = try WireFixture()
        XCTAssertNotEqual(a.backend.baseURL, b.backend.baseURL)
        try a.send("DELETE", "/rest/v1/saved_cities", "city_id=eq.berlin")
        XCTAssertEqual(a.backend.database.count("saved_cities"), 2)
        XCTAssertEqual(b.backend.database.count("saved_cities"), 3, "backends share nothing")
        try a.backend.reset()
        XCTAssertEqual(a.backend.database.count("saved_cities"), 3, "reset restores the fixtures")
    }

    func testRequestsToUnknownHostsNeverLeaveTheProcess() throws {
        let f = try WireFixture()
        let session = f.backend.makeURLSession()
        let sem = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var error: Error? }
        let box = Box()
        session.dataTask(with: URL(string: "https://example.com/")!) { _, _, e in
            box.error = e; sem.signal()
        }.resume()
        sem.wait()
        XCTAssertEqual((box.error as? URLError)?.code, .cannotFindHost)
    }
}

private extension Dictionary where Key == String, Value == JSONValue {
    var asJSON: JSONValue { .object(self) }
}
