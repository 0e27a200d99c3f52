import Foundation

/// Why Realtime refuses a token, with the texts it sends (supabase/realtime:
/// lib/realtime_web/channels/auth/channels_authorization.ex `authorize_conn/3`, user_socket.ex
/// `error_response/1`, realtime_channel.ex `join/3` and `handle_in("access_token", …)`).
package enum RealtimeTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a JWT (three base64url parts of JSON).
    case malformed
    /// The signature does not match the project's secret.
    case signature
    /// `exp` is not after now; Joken reports how long ago, in whole seconds.
    case expired(secondsAgo: Int)
    /// `role` or `exp` is absent.
    case missingClaims

    /// The message without its code (what `shutdown_response` sends in a `system` error).
    package var message: String {
        switch self {
        case .malformed: return "The token provided is not a valid JWT"
        case .signature: return "Failed to validate JWT signature"
        case .expired(let s): return "Token has expired \(s) seconds ago"
        case .missingClaims: return "Fields `role` and `exp` are required in JWT"
        }
    }

    /// `"Code: message"`, the `reason` of a refused `phx_join` (RealtimeChannel.Logging.build_msg).
    package var joinReason: String {
        switch self {
        case .malformed: return "MalformedJWT: " + message
        case .signature: return "JwtSignatureError: " + message
        case .expired, .missingClaims: return "InvalidJWTToken: " + message
        }
    }

    /// The `{"error": …}` text of a refused WebSocket upgrade (always 401 for a token).
    package var upgradeMessage: String {
        switch self {
        case .expired: return "Token has expired"
        default: return message
        }
    }

    package var description: String { joinReason }

    /// Verifies an HS256 token as Realtime does: signature first, then the required claims, then
    /// `exp` strictly after `now` (Joken's default `exp` validation).
    package static func verify(_ token: String, secret: String, now: Date) throws -> [String: JSONValue] {
        let claims: [String: JSONValue]
        do {
            // `exp` is judged below, with Realtime's wording: verify as of the epoch's start.
            claims = try JWT.verify(token.filter { !$0.isWhitespace }, secret: secret, now: Date(timeIntervalSince1970: 0))
        } catch JWTError.invalidSignature {
            throw RealtimeTokenError.signature
        } catch {
            throw RealtimeTokenError.malformed
        }
        guard claims["role"] != nil, let exp = claims["exp"]?.doubleValue else { throw RealtimeTokenError.missingClaims }
        let t = now.timeIntervalSince1970.rounded(.down)
        if exp <= t { throw RealtimeTokenError.expired(secondsAgo: Int(t - exp)) }
        return claims
    }
}
