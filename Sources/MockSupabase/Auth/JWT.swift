import Foundation

/// SHA-256 (FIPS 180-4), hand-written because Foundation on Linux has no CryptoKit.
package struct SHA256 {
    private var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
    ]

    package init() { buffer.reserveCapacity(64) }

    package mutating func update<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for b in bytes {
            buffer.append(b)
            length &+= 1
            if buffer.count == 64 { compress(buffer); buffer.removeAll(keepingCapacity: true) }
        }
    }

    /// The 32-byte digest.
    package mutating func finalize() -> [UInt8] {
        let bitLength = length &* 8
        buffer.append(0x80)
        if buffer.count > 56 {
            while buffer.count < 64 { buffer.append(0) }
            compress(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
        while buffer.count < 56 { buffer.append(0) }
        for i in (0..<8).reversed() { buffer.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        compress(buffer)
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for v in h { out += [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
        return out
    }

    /// One-shot digest.
    package static func hash<S: Sequence>(_ bytes: S) -> [UInt8] where S.Element == UInt8 {
        var s = SHA256()
        s.update(bytes)
        return s.finalize()
    }

    private mutating func compress(_ block: [UInt8]) {
        var w = [UInt32](repeating: 0, count: 64)
        for i in 0..<16 {
            w[i] = UInt32(block[i * 4]) << 24 | UInt32(block[i * 4 + 1]) << 16 | UInt32(block[i * 4 + 2]) << 8 | UInt32(block[i * 4 + 3])
        }
        for i in 16..<64 {
            let s0 = w[i - 15].rotr(7) ^ w[i - 15].rotr(18) ^ (w[i - 15] >> 3)
            let s1 = w[i - 2].rotr(17) ^ w[i - 2].rotr(19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
        for i in 0..<64 {
            let s1 = e.rotr(6) ^ e.rotr(11) ^ e.rotr(25)
            let ch = (e & f) ^ (~e & g)
            let t1 = hh &+ s1 &+ ch &+ SHA256.k[i] &+ w[i]
            let s0 = a.rotr(2) ^ a.rotr(13) ^ a.rotr(22)
            let maj = (a & b) ^ (a & c) ^ (b & c)
            let t2 = s0 &+ maj
            hh = g; g = f; f = e; e = d &+ t1; d = c; c = b; b = a; a = t1 &+ t2
        }
        h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
    }
}

extension UInt32 {
    @inline(__always) fileprivate func rotr(_ n: UInt32) -> UInt32 { (self >> n) | (self << (32 - n)) }
}

/// HMAC-SHA256 (RFC 2104).
package enum HMACSHA256 {
    /// The 32-byte MAC of `message` under `key`.
    package static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var k = key.count > 64 ? SHA256.hash(key) : key
        k += [UInt8](repeating: 0, count: 64 - k.count)
        var inner = SHA256()
        inner.update(k.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(k.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }
}

/// Base64url without padding (RFC 7515 §2), canonical only: a decoder accepts exactly the texts
/// the encoder produces (RFC 4648 §3.5: the unused low bits of the last character must be zero),
/// as the JOSE libraries behind GoTrue and PostgREST do, so one token has one spelling.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
        let input = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((input.count * 4 + 2) / 3)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)], alphabet[Int(n & 63)]]
            i += 3
        }
        switch input.count - i {
        case 1:
            let n = UInt32(input[i]) << 16
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)]]
        case 2:
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
            out += [alphabet[Int(n >> 18)], alphabet[Int(n >> 12 & 63)], alphabet[Int(n >> 6 & 63)]]
        default: break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes canonical unpadded base64url only; nil on any character outside the URL-safe
    /// alphabet (`+`, `/` and the `=` padding included), on an impossible length, and on a last
    /// character whose unused low bits are not zero (a second spelling of the same bytes).
    ///
    /// PostgREST verifies JWTs with jose, which decodes with base64-bytestring's strict
    /// (canonical-only) decoder; RFC 7515 §2 defines the encoding without padding.
    package static func decode(_ s: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count * 3 / 4)
        var acc: UInt32 = 0, bits = 0
        for c in s.utf8 {
            let v: UInt32
            switch c {
            case 0x41...0x5A: v = UInt32(c - 0x41)
            case 0x61...0x7A: v = UInt32(c - 0x61 + 26)
            case 0x30...0x39: v = UInt32(c - 0x30 + 52)
            case 0x2D: v = 62
            case 0x5F: v = 63
            default: return nil
            }
            acc = (acc << 6) | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: acc >> UInt32(bits)))
                acc &= (1 << UInt32(bits)) - 1
            }
        }
        // 6 leftover bits: a length of 4n+1 encodes no whole byte. 2 or 4 leftover bits must be zero.
        if bits == 6 || acc != 0 { return nil }
        return out
    }
}

/// Why a JWT was refused. The descriptions are PostgREST's messages.
package enum JWTError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Not three base64url parts, or not JSON.
    case malformed
    /// `alg` is not HS256 (including `none`).
    case algorithmNotAllowed(String)
    /// The signature does not match.
    case invalidSignature
    /// `exp` is in the past.
    case expired
    /// A claim has the wrong type.
    case invalidClaim(String)
    /// The header's `crit` names extensions this verifier does not understand (it understands
    /// none), or is not a non-empty list of names; RFC 7515 §4.1.11 requires rejecting the token.
    case unsupportedCritical

    package var description: String {
        switch self {
        case .malformed: return "Expected 3 parts in JWT; got 1"
        case .algorithmNotAllowed: return "Wrong or unsupported encoding algorithm"
        case .invalidSignature: return "JWSError JWSInvalidSignature"
        case .expired: return "JWT expired"
        case .invalidClaim(let c): return "JWT claim \(c) is invalid"
        case .unsupportedCritical: return "JWSError (JSONDecodeError \"crit key is not understood\")"
        }
    }
}

/// HS256 JSON Web Tokens, as GoTrue issues them and PostgREST verifies them.
package enum JWT {
    /// Signs claims with HS256. Key order in the payload is stable (sorted) so tokens are reproducible.
    package static func sign(_ claims: [String: JSONValue], secret: String) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(JSONValue.object(claims).serialized(.compact).utf8))
        let input = header + "." + payload
        let sig = HMACSHA256.mac(key: Array(secret.utf8), message: Array(input.utf8))
        return input + "." + Base64URL.encode(sig)
    }

    /// Decodes the payload without verifying (for display only).
    package static func unverifiedClaims(_ token: String) -> [String: JSONValue]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let p = Base64URL.decode(parts[1]), case .object(let o)? = try? JSONValue.parse(Data(p)) else { return nil }
        return o
    }

    /// Verifies structure, algorithm (HS256 only: `none` and others are refused), signature
    /// (constant-time compare) and `exp`/`nbf` against `now`. Returns the claims.
    package static func verify(_ token: String, secret: String, now: Date, leeway: TimeInterval = 0) throws -> [String: JSONValue] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw JWTError.malformed }
        guard let hb = Base64URL.decode(parts[0]), case .object(let header)? = try? JSONValue.parse(Data(hb)) else { throw JWTError.malformed }
        guard header["alg"] == .string("HS256") else { throw JWTError.algorithmNotAllowed(header["alg"]?.stringValue ?? "?") }
        // jose (PostgREST) parses `crit` as a non-empty list and fails on any name it does not
        // know (Crypto.JOSE.Header.parseCrit); it knows no extensions for HS256 JWTs.
        if header["crit"] != nil { throw JWTError.unsupportedCritical }
        guard let pb = Base64URL.decode(parts[1]), case .object(let claims)? = try? JSONValue.parse(Data(pb)) else { throw JWTError.malformed }
        guard let sig = Base64URL.decode(parts[2]) else { throw JWTError.invalidSignature }
        let expected = HMACSHA256.mac(key: Array(secret.utf8), message: Array((parts[0] + "." + parts[1]).utf8))
        guard sig.count == expected.count else { throw JWTError.invalidSignature }
        var diff: UInt8 = 0
        for (a, b) in zip(sig, expected) { diff |= a ^ b }
        guard diff == 0 else { throw JWTError.invalidSignature }
        let t = now.timeIntervalSince1970
        if let exp = claims["exp"] {
            guard let e = exp.doubleValue else { throw JWTError.invalidClaim("exp") }
            if t >= e + leeway { throw JWTError.expired }
        }
        if let nbf = claims["nbf"] {
            guard let n = nbf.doubleValue else { throw JWTError.invalidClaim("nbf") }
            if t + leeway < n { throw JWTError.invalidClaim("nbf") }
        }
        if let role = claims["role"], role.stringValue == nil { throw JWTError.invalidClaim("role") }
        return claims
    }
}
