import Foundation

/// GoTrue's mutable state: refresh tokens and one-time passwords.
final class GoTrueState: @unchecked Sendable {
    let lock = NSLock()
    var refreshTokens: [String: (userID: String, sessionID: String, revoked: Bool)] = [:]
    func reset() { lock.lock(); refreshTokens = [:]; lock.unlock() }
    static func hashPassword(_ password: String, salt: String) -> String {
        "sha256$" + salt + "$" + SHA256.hash(Array((salt + ":" + password).utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

extension MockSupabase {
    func handleAuth(_ request: HTTPRequest) -> HTTPResponse {
        .json(501, ["message": "not yet"])
    }
}
