import Foundation

/// Properties of the JWT verifier for every input, checked by the `fuzz-jwt` target
/// (`scripts/fuzz-jwt`) and replayed over Tests/Fuzz/jwt-corpus and jwt-crashes by `swift test`.
///
/// An input is either a token as sent (`header.payload.signature`), or, when it holds a line
/// feed, a header JSON text and a payload JSON text (`{"alg":"HS256"}\n{"exp":1}`) that the
/// harness encodes and signs with the fuzzing secret, so the claim checks behind the signature
/// are reached too (a fuzzer cannot forge an HMAC).
package enum JWTFuzzProperties {
    /// A verifier under test: token, secret and now to the claims, or a thrown error.
    package typealias Verify = @Sendable (_ token: String, _ secret: String, _ now: Date) throws -> [String: JSONValue]

    /// `JWT.verify`, the verifier of every bearer token and API key.
    package static let standardVerify: Verify = { try JWT.verify($0, secret: $1, now: $2) }

    /// The token an input stands for: the input itself, or its two lines encoded and signed.
    package static func token(for input: [UInt8]) -> String {
        guard let nl = input.firstIndex(of: 0x0A) else { return String(decoding: input, as: UTF8.self) }
        let signingInput = Base64URL.encode(input[..<nl]) + "." + Base64URL.encode(input[(nl + 1)...])
        let sig = HMACSHA256.mac(key: Array(FuzzBackend.jwtSecret.utf8), message: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(sig)
    }

    /// One input in this many also goes through the backend (properties 4 and 5) when fuzzing
    /// (`FuzzDriver.takesDeepPath`); the replay tests run every property on every input.
    package static let deepOneIn: UInt64 = 32

    /// The fuzz target's check: properties 1–3 on every input, 4 and 5 on the inputs
    /// `FuzzDriver.takesDeepPath` picks.
    package static func fuzzViolations(of input: [UInt8], backend: MockSupabase) -> [String] {
        violations(of: input, backend: backend, deep: FuzzDriver.takesDeepPath(input, oneIn: deepOneIn))
    }

    /// Checks one input; returns one line per violated property (empty when all hold). Without
    /// `deep`, only properties 1–3 (the verifier alone).
    ///
    /// 1. `JWT.verify` (secret and clock of `FuzzBackend`) returns claims or throws `JWTError`.
    /// 2. An accepted token has three canonical base64url parts (each is exactly the encoding of
    ///    the bytes it decodes to), a JSON object header with `alg` HS256, the HMAC-SHA256 of its
    ///    first two parts as signature, an object payload, numeric `exp` after now and `nbf` not
    ///    after now when present, and a string `role` when present.
    /// 3. A signed header and payload that are exactly `{"alg":"HS256","typ":"JWT"}` and an object
    ///    with no `exp`, `nbf` or `role` are accepted (the verifier is not simply refusing all).
    /// 4. The backend (`MockSupabase.verify(token:)`, twice: the second answer comes from its
    ///    token cache) agrees with `JWT.verify`.
    /// 5. As a bearer token on `GET /rest/v1/rides` and `GET /auth/v1/user` (anon `apikey`): no
    ///    5xx, JSON bodies parse; a refused token gets 401 from PostgREST in its error shape.
    package static func violations(of input: [UInt8], backend: MockSupabase, verify: Verify = standardVerify, deep: Bool = true) -> [String] {
        var problems: [String] = []
        let token = token(for: input)
        var claims: [String: JSONValue]?
        do {
            claims = try verify(token, FuzzBackend.jwtSecret, FuzzBackend.now)
        } catch is JWTError {
        } catch {
            problems.append("verify threw \(type(of: error)): \(error)")
        }

        if let claims {
            problems += acceptedProblems(token, claims: claims).map { "accepted \(token.prefix(200)): \($0)" }
        }
        if claims == nil, let nl = input.firstIndex(of: 0x0A), Array(input[..<nl]) == Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8),
            case .object(let o)? = try? JSONValue.parse(Data(input[(nl + 1)...])), o["exp"] == nil, o["nbf"] == nil, o["role"] == nil
        {
            problems.append("a well-formed signed token without exp, nbf or role was refused: \(token.prefix(200))")
        }

        guard deep else { return problems }
        for round in 1...2 {
            let viaBackend = (try? backend.verify(token: token)) != nil
            if viaBackend != (claims != nil) {
                problems.append(
                    "MockSupabase.verify (call \(round)) \(viaBackend ? "accepts" : "refuses") what JWT.verify \(claims != nil ? "accepts" : "refuses")")
            }
        }

        let headers: HTTPHeaders = ["apikey": backend.anonKey, "Authorization": "Bearer \(token)"]
        for (label, path) in [("GET rides", "/rest/v1/rides"), ("GET user", "/auth/v1/user")] {
            do {
                let r = try backend.handle(HTTPRequest(method: "GET", path: path, query: path.hasPrefix("/rest") ? [("limit", "1")] : [], headers: headers))
                if path.hasPrefix("/rest") {
                    problems += FuzzBackend.responseProblems(r, label: label)
                    if claims == nil && r.status != 401 { problems.append("\(label): a refused token is answered \(r.status), not 401") }
                } else if r.status >= 500 {
                    problems.append("\(label): status \(r.status)")
                }
            } catch {
                problems.append("\(label): handle threw \(error)")
            }
        }
        return problems
    }

    static func acceptedProblems(_ token: String, claims: [String: JSONValue]) -> [String] {
        var problems: [String] = []
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return ["\(parts.count) parts"] }
        for (name, part) in zip(["header", "payload", "signature"], parts) {
            guard let bytes = Base64URL.decode(part) else { problems.append("\(name) is not canonical base64url (it does not decode)"); continue }
            if Base64URL.encode(bytes) != part {
                problems.append("\(name) is not canonical base64url (\(part.suffix(8)) re-encodes as \(Base64URL.encode(bytes).suffix(8)))")
            }
        }
        let header = Base64URL.decode(parts[0]).flatMap { try? JSONValue.parse(Data($0)) }
        if header?["alg"] != .string("HS256") { problems.append("header \(header?.serialized().prefix(100) ?? "not JSON") has no alg HS256") }
        let expected = HMACSHA256.mac(key: Array(FuzzBackend.jwtSecret.utf8), message: Array((parts[0] + "." + parts[1]).utf8))
        if Base64URL.decode(parts[2]) != expected { problems.append("the signature is not the HMAC of the first two parts") }
        guard case .object(let payload)? = Base64URL.decode(parts[1]).flatMap({ try? JSONValue.parse(Data($0)) }) else {
            return problems + ["the payload is not a JSON object"]
        }
        if payload != claims { problems.append("the claims returned differ from the payload") }
        let now = FuzzBackend.now.timeIntervalSince1970
        if let exp = payload["exp"], !(exp.doubleValue.map { now < $0 } ?? false) { problems.append("exp \(exp) is not a number after now") }
        if let nbf = payload["nbf"], !(nbf.doubleValue.map { $0 <= now } ?? false) { problems.append("nbf \(nbf) is not a number before now") }
        if let role = payload["role"], role.stringValue == nil { problems.append("role \(role) is not a string") }
        return problems
    }
}
