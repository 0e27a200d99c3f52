import Foundation

/// GoTrue's sessions and (v1, 12-character) refresh tokens, with the lookups GoTrue's tables have
/// indexes for: a token by its value, a session by id, a user's sessions. Every operation is O(1)
/// amortised; nothing scans all tokens.
///
/// Refresh-token rotation follows supabase/auth `internal/tokens/service.go` (RefreshTokenGrant)
/// and `internal/models/refresh_token.go`:
/// - a live token is revoked and swapped for a child (`parent` = the old token) in the same session;
/// - a revoked token that is the parent of the session's active token (the newest live one,
///   `FindCurrentlyActiveRefreshToken`) gets that active token back: the client lost the answer;
/// - a revoked token reused within the reuse interval after its revocation gets a new child
///   (concurrent refreshes);
/// - any later reuse is refused with `refresh_token_already_used` and ends the session: all its
///   refresh tokens go (`RevokeTokenFamily`), and so does the session itself, as v2 rotation does
///   (`LogoutSession` on reuse). Decision: v1 would leave the session row, so access tokens already
///   issued would keep working until they expire; a detected reuse is treated as a stolen chain,
///   so every token of that session stops working at once.
///
/// Ending a session (logout, reuse) deletes it with its refresh tokens, as `DELETE FROM
/// auth.sessions` cascades to `auth.refresh_tokens`; the session id is remembered until its last
/// access token has expired, so such a token is answered `session_not_found`.
///
/// Pruning follows GoTrue's cleanup (`internal/models/cleanup.go`), which runs piecemeal on
/// requests: revoked tokens are dropped once revoked longer than the retention (24 hours), at
/// most a batch per call; and, so that memory stays bounded under load, the oldest revoked
/// tokens are also dropped once more than `revokedCap` are kept. Reusing a pruned token answers
/// `refresh_token_not_found`, as GoTrue does once its cleanup deleted the row.
struct SessionStore {
    /// One refresh token (a row of `auth.refresh_tokens`).
    struct RefreshToken: Equatable {
        let userID: String
        let sessionID: String
        let parent: String?
        var revoked: Bool
        /// Issue time, then revocation time (`updated_at`).
        var updatedAt: Date
    }

    /// One session (a row of `auth.sessions`) and the tokens it owns.
    struct Session: Equatable {
        let userID: String
        /// Live (not revoked) tokens in issue order; the last is the active one.
        var live: [String]
        /// Every token of the session still stored, live or revoked.
        var tokens: Set<String>
    }

    /// Tunables, from `MockConfiguration`.
    struct Settings {
        /// `GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL`, seconds.
        var reuseInterval: TimeInterval
        /// How long a revoked token is kept (GoTrue's cleanup: 24 hours).
        var revokedRetention: TimeInterval
        /// Most revoked tokens kept at once.
        var revokedCap: Int
        /// How long an ended session is remembered: the access-token lifetime.
        var endedRetention: TimeInterval
        /// Entries pruned per call at most (GoTrue's cleanup: `limit 100`).
        var pruneBatch = 100
    }

    /// What a refresh-token grant decided.
    enum Refresh: Equatable {
        /// Answer with a session for this user, session and refresh token.
        case issue(userID: String, sessionID: String, token: String)
        /// `refresh_token_not_found`.
        case notFound
        /// `refresh_token_already_used`: the session has been ended.
        case alreadyUsed
    }

    let settings: Settings
    private(set) var tokens: [String: RefreshToken] = [:]
    private(set) var sessions: [String: Session] = [:]
    private var sessionsByUser: [String: Set<String>] = [:]
    private var ended: [String: Date] = [:]
    private var endedOrder = FIFO<(id: String, at: Date)>()
    private var revokedOrder = FIFO<(token: String, at: Date)>()
    private var revokedCount = 0

    init(settings: Settings) { self.settings = settings }

    /// Revoked tokens currently kept (for tests and the benchmark).
    var revokedTokens: Int { revokedCount }

    // MARK: Sessions

    /// Starts a session with its first refresh token (sign-in, sign-up, OTP).
    mutating func startSession(id: String, userID: String, token: String, now: Date) {
        prune(now: now)
        tokens[token] = RefreshToken(userID: userID, sessionID: id, parent: nil, revoked: false, updatedAt: now)
        sessions[id] = Session(userID: userID, live: [token], tokens: [token])
        sessionsByUser[userID, default: []].insert(id)
    }

    /// Whether a session id was issued here and has ended since (logout, detected reuse).
    func hasEnded(_ sessionID: String) -> Bool { sessions[sessionID] == nil && ended[sessionID] != nil }

    /// Ends a session: it and its refresh tokens are deleted.
    mutating func endSession(_ id: String, now: Date) {
        guard let s = sessions.removeValue(forKey: id) else { return }
        for t in s.tokens {
            if tokens.removeValue(forKey: t)?.revoked == true { revokedCount -= 1 }
        }
        sessionsByUser[s.userID]?.remove(id)
        if sessionsByUser[s.userID]?.isEmpty == true { sessionsByUser[s.userID] = nil }
        ended[id] = now
        endedOrder.push((id, now))
    }

    /// Ends the sessions of a user that `include` selects (logout scopes).
    mutating func endSessions(ofUser userID: String, now: Date, where include: (String) -> Bool) {
        prune(now: now)
        for id in sessionsByUser[userID] ?? [] where include(id) { endSession(id, now: now) }
    }

    // MARK: Refresh

    /// The refresh-token grant: decides, and records the new token `fresh` when one is issued.
    mutating func refresh(_ token: String, fresh: String, now: Date) -> Refresh {
        prune(now: now)
        guard let t = tokens[token], let session = sessions[t.sessionID] else { return .notFound }
        if t.revoked {
            if let active = session.live.last, tokens[active]?.parent == token {
                return .issue(userID: t.userID, sessionID: t.sessionID, token: active)
            }
            if now.timeIntervalSince(t.updatedAt) > settings.reuseInterval {
                endSession(t.sessionID, now: now)
                return .alreadyUsed
            }
        } else {
            revoke(token, now: now)
        }
        tokens[fresh] = RefreshToken(userID: t.userID, sessionID: t.sessionID, parent: token, revoked: false, updatedAt: now)
        sessions[t.sessionID]?.live.append(fresh)
        sessions[t.sessionID]?.tokens.insert(fresh)
        return .issue(userID: t.userID, sessionID: t.sessionID, token: fresh)
    }

    private mutating func revoke(_ token: String, now: Date) {
        guard var t = tokens[token], !t.revoked else { return }
        t.revoked = true
        t.updatedAt = now
        tokens[token] = t
        sessions[t.sessionID]?.live.removeAll { $0 == token }
        revokedCount += 1
        revokedOrder.push((token, now))
    }

    // MARK: Pruning

    /// Drops, at most a batch at a time, revoked tokens past their retention (or beyond the cap)
    /// and ended sessions whose access tokens have all expired.
    mutating func prune(now: Date) {
        var budget = settings.pruneBatch
        while budget > 0, let head = revokedOrder.first {
            // Over the cap, or the queue itself (stale entries of ended sessions) grew past twice it.
            let overCap = revokedCount > settings.revokedCap || revokedOrder.count > 2 * settings.revokedCap
            guard overCap || now.timeIntervalSince(head.at) > settings.revokedRetention else { break }
            revokedOrder.popFirst()
            budget -= 1
            // Skip entries whose token has gone with its session, or was re-stamped since.
            guard let t = tokens[head.token], t.revoked, t.updatedAt == head.at else { continue }
            tokens[head.token] = nil
            sessions[t.sessionID]?.tokens.remove(head.token)
            revokedCount -= 1
        }
        budget = settings.pruneBatch
        while budget > 0, let head = endedOrder.first, now.timeIntervalSince(head.at) > settings.endedRetention {
            endedOrder.popFirst()
            budget -= 1
            if ended[head.id] == head.at { ended[head.id] = nil }
        }
    }
}

/// A first-in first-out queue with O(1) amortised push and pop.
struct FIFO<Element> {
    private var items: [Element] = []
    private var head = 0

    /// The oldest element.
    var first: Element? { head < items.count ? items[head] : nil }
    /// Elements queued.
    var count: Int { items.count - head }

    mutating func push(_ e: Element) { items.append(e) }

    /// Removes the oldest element.
    mutating func popFirst() {
        guard head < items.count else { return }
        head += 1
        if head >= 1024 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}

extension MockSupabase {
    /// How much GoTrue's session store holds (for reports and the benchmark).
    package var sessionCounts: (sessions: Int, refreshTokens: Int, revoked: Int) {
        auth.store.withLock { ($0.sessions.count, $0.tokens.count, $0.revokedTokens) }
    }
}
