import Foundation
import MockBinding
import TeleportMe

/// GoTrue's session store under growth: `GET /auth/v1/user` latency at the start and after
/// `count` password sign-ins (each followed by a refresh, so revoked tokens pile up and pruning
/// runs), through `backend.handle`. The store is indexed (token, session, user) and pruned, so
/// the end figure should stay near the start one; it used to grow with every token ever issued.
/// `swift run -c release contracts-bench sessions [count]` (default 200000).
func runSessionBenchmark(count: Int = 200_000) {
    func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
    do {
        let clock = ManualClock()
        let backend = try TeleportMeApp.makeBackend(clock: clock, ids: SeededIDGenerator(seed: 11))
        let anon = backend.anonKey
        func send(_ method: String, _ target: String, token: String? = nil, json: JSONValue? = nil) throws -> HTTPResponse {
            var h: HTTPHeaders = ["apikey": anon]
            if let token { h["Authorization"] = "Bearer \(token)" }
            if json != nil { h["Content-Type"] = "application/json" }
            return try backend.handle(HTTPRequest(method: method, target: target, headers: h, body: json?.data() ?? Data()))
        }
        let login: JSONValue = ["email": "ana@teleportme.test", "password": "ana-password-1"]
        guard let access = try send("POST", "/auth/v1/token?grant_type=password", json: login).jsonBody?["access_token"]?.stringValue else {
            print("sign-in failed"); return
        }
        /// Median microseconds of `/user` over `n` calls.
        func userLatency(_ n: Int) throws -> Double {
            var samples: [Double] = []
            samples.reserveCapacity(n)
            for _ in 0..<n {
                let t = now()
                let r = try send("GET", "/auth/v1/user", token: access)
                samples.append(Double(now() - t) / 1000)
                precondition(r.status == 200, "/user answered \(r.status): \(r.text)")
            }
            return median(samples)
        }
        let start = try userLatency(3_000)
        let t0 = now()
        for i in 0..<count {
            let s = try send("POST", "/auth/v1/token?grant_type=password", json: login)
            guard let rt = s.jsonBody?["refresh_token"]?.stringValue else { print("sign-in \(i) answered \(s.status)"); return }
            let r = try send("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": .string(rt)])
            guard r.status == 200 else { print("refresh \(i) answered \(r.status): \(r.text)"); return }
            if i % 1000 == 999 { clock.advance(by: 1) }
        }
        let growSeconds = Double(now() - t0) / 1e9
        let end = try userLatency(3_000)
        let kept = backend.sessionCounts
        print("Session store: GET /auth/v1/user (median of 3000, µs) at start and after \(count) password sign-ins, each refreshed once")
        print(String(format: "  at start           %8.1f µs", start))
        print(String(format: "  after %7d       %8.1f µs   (x%.2f)", count, end, end / start))
        print(String(format: "  sign-in + refresh  %8.1f µs each (%.1f s)", growSeconds * 1e6 / Double(count), growSeconds))
        print(
            "  kept: \(kept.sessions) sessions, \(kept.refreshTokens) refresh tokens (\(kept.revoked) revoked; cap \(backend.configuration.revokedRefreshTokenCap))"
        )
    } catch {
        FileHandle.standardError.write(Data("session benchmark failed: \(error)\n".utf8))
        exit(1)
    }
}
