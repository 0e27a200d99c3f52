import XCTest
import MockBinding
@testable import MockSupabase
import NaarsCars
import TeleportMe

/// Many clients at once against every service of the mock, through `MockSupabase.handle`: no
/// crash, every answer well-formed, RLS holding under load, and every write a client was told
/// succeeded present exactly once when read back with the service role. Also runs under
/// ThreadSanitizer (`.ci/run`: `swift test --sanitize=thread --filter ConcurrencyTests`), which
/// turns any unguarded access into a failure. Work is bounded by counts, not time.
final class ConcurrencyTests: XCTestCase {
    let teleport = ["ana": ("ana@teleportme.test", "ana-password-1"), "ben": ("ben@teleportme.test", "ben-password-2")]

    func makeTeleportMe() throws -> MockSupabase { try TeleportMeApp.makeBackend(clock: SystemClock(), ids: SystemIDGenerator()) }
    func makeNaarsCars() throws -> MockSupabase { try NaarsCarsApp.makeBackend(clock: SystemClock(), ids: SystemIDGenerator(), apns: FakeAPNs()) }

    func assertNone(_ findings: Findings, file: StaticString = #filePath, line: UInt = #line) {
        let all = findings.all
        XCTAssertTrue(all.isEmpty, "\(all.count) violations, first: \(all.prefix(5).joined(separator: "\n"))", file: file, line: line)
    }

    // MARK: Regressions of the reported crash

    /// Two clients looping password sign-in crashed the server within seconds ("Bad pointer
    /// dereference": `Database.update(_:set:where:)` read the tables without the lock).
    func testTwoClientsLoopingPasswordSignIn() throws {
        let backend = try makeTeleportMe()
        let findings = Findings()
        let tokens = Guarded<Set<String>>([])
        let rounds = 120
        onThreads(2) { i in
            let (email, password) = i == 0 ? ("ana@teleportme.test", "ana-password-1") : ("ben@teleportme.test", "ben-password-2")
            let c = HammerClient(backend, findings: findings, label: "sign-in \(i)")
            for _ in 0..<rounds {
                let r = c.call("POST", "/auth/v1/token?grant_type=password", json: ["email": .string(email), "password": .string(password)], expect: [200])
                if let s = HammerClient.session(r) { tokens.withLock { _ = $0.insert(s.refresh) } }
            }
        }
        assertNone(findings)
        XCTAssertEqual(tokens.withLock { $0.count }, 2 * rounds, "every sign-in got a refresh token of its own")
    }

    /// Sixteen sign-up loops at once (plus two clients racing for one email): every sign-up
    /// answered, each new user stored exactly once, and the race won by exactly one client.
    func testSixteenSignUpLoops() throws {
        let backend = try makeTeleportMe()
        let findings = Findings()
        let before = backend.database.count("auth.users")
        let rounds = 10
        let raceWins = Guarded(0)
        onThreads(18) { i in
            let c = HammerClient(backend, findings: findings, label: "sign-up \(i)")
            if i >= 16 {
                let r = c.call("POST", "/auth/v1/signup", json: ["email": "same@race.test", "password": "race-password"], expect: [200, 422])
                if r?.status == 200 { raceWins.withLock { $0 += 1 } }
                return
            }
            for n in 0..<rounds {
                c.call("POST", "/auth/v1/signup", json: ["email": .string("loop\(i)-\(n)@signup.test"), "password": "signup-password"], expect: [200])
            }
        }
        assertNone(findings)
        XCTAssertEqual(raceWins.withLock { $0 }, 1)
        XCTAssertEqual(backend.database.count("auth.users"), before + 16 * rounds + 1)
        let emails = try backend.database.rows("auth.users").compactMap { $0["email"]?.stringValue }
        XCTAssertEqual(emails.count, Set(emails).count, "no email stored twice")
    }

    /// Eight clients calling generate-report at once: each answered 200 with a report, and each
    /// signed-in call saved exactly one report.
    func testEightClientsCallingGenerateReport() throws {
        let backend = try makeTeleportMe()
        let findings = Findings()
        let ana = try XCTUnwrap(backend.accessToken(persona: "ana")), ben = try XCTUnwrap(backend.accessToken(persona: "ben"))
        let body: JSONValue = ["current_city_id": "san-francisco", "preferences": ["cost": 7, "climate": 6, "culture": 8, "job_market": 5]]
        let before = backend.database.count("city_reports")
        let rounds = 3
        onThreads(8) { i in
            let c = HammerClient(backend, findings: findings, label: "report \(i)")
            for _ in 0..<rounds {
                let token = i % 4 == 3 ? nil : (i % 2 == 0 ? ana : ben)
                let r = c.call("POST", "/functions/v1/generate-report", token: token ?? c.anonKey, json: body, expect: [200])
                if r != nil, HammerClient.json(r)["matches"]?.arrayValue == nil {
                    findings.add("report \(i): no matches in \(r!.text.prefix(200))")
                }
            }
        }
        assertNone(findings)
        XCTAssertEqual(backend.database.count("city_reports"), before + 6 * rounds, "one saved report per signed-in call")
    }

    // MARK: Every service at once

    func testEveryServiceAtOnceKeepsEveryAcknowledgedWrite() throws {
        let teleportMe = try makeTeleportMe(), naarsCars = try makeNaarsCars()
        let findings = Findings(), ledger = Ledger()
        let cities = try teleportMe.database.rows("cities", order: [OrderTerm(column: "id")]).compactMap { $0["id"]?.stringValue }
        let rounds = 12
        onThreads(10) { w in
            if w < 5 {
                ConcurrencyTests.teleportMeClient(teleportMe, worker: w, rounds: rounds, cities: cities, findings: findings, ledger: ledger)
            } else {
                ConcurrencyTests.naarsCarsClient(naarsCars, worker: w, rounds: rounds, findings: findings, ledger: ledger)
            }
        }
        assertNone(findings)
        XCTAssertGreaterThan(ledger.count, 10 * rounds / 3, "the clients wrote")
        let lost = ledger.reconcile(["teleportme": teleportMe, "naarscars": naarsCars])
        XCTAssertEqual(lost, [], "every acknowledged write is stored exactly once")
    }

    /// The reconciliation is a real check: a backend that acknowledges a write it never stores,
    /// and a client stack that sends a write twice, are both caught.
    func testReconciliationCatchesLostAndDuplicatedWrites() throws {
        for mutant in ["lost", "duplicated"] {
            let backend = try makeNaarsCars()
            let findings = Findings(), ledger = Ledger()
            if mutant == "lost" {
                backend.inject(
                    InjectedFault(
                        method: "POST", pathPrefix: "/rest/v1/town_hall_posts",
                        kind: .response(HTTPResponse(status: 201, headers: ["Content-Range": "*/*"])), remaining: 1))
            }
            let send: @Sendable (HTTPRequest) throws -> HTTPResponse = { r in
                if mutant == "duplicated", r.method == "POST", r.path == "/rest/v1/town_hall_posts" { _ = try backend.handle(r) }
                return try backend.handle(r)
            }
            ConcurrencyTests.naarsCarsClient(backend, worker: 0, rounds: 3, findings: findings, ledger: ledger, send: send)
            assertNone(findings)
            let problems = ledger.reconcile(["naarscars": backend])
            XCTAssertTrue(
                problems.contains { $0.contains("town_hall_posts") && $0.contains(mutant == "lost" ? "found 0" : "found 2") },
                "\(mutant): \(problems)")
        }
    }

    // MARK: Clients

    /// A TeleportMe user: signs up, then mixes sign-in, refresh, RLS reads and writes, RPC and
    /// generate-report.
    static func teleportMeClient(_ backend: MockSupabase, worker w: Int, rounds: Int, cities: [String], findings: Findings, ledger: Ledger) {
        let c = HammerClient(backend, findings: findings, label: "teleportme \(w)")
        let email = "hammer\(w)@teleportme.test", password = "hammer-password-\(w)"
        guard var s = HammerClient.session(c.call("POST", "/auth/v1/signup", json: ["email": .string(email), "password": .string(password)], expect: [200]))
        else { return }
        ledger.signedUp("teleportme", email)
        var cityIndex = 0
        for r in 0..<rounds {
            switch (w + r) % 6 {
            case 0:
                if let n = HammerClient.session(
                    c.call("POST", "/auth/v1/token?grant_type=password", json: ["email": .string(email), "password": .string(password)], expect: [200]))
                {
                    s = n
                }
            case 1:
                guard
                    let n = HammerClient.session(
                        c.call("POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": .string(s.refresh)], expect: [200]))
                else { break }
                if n.refresh == s.refresh { findings.add("teleportme \(w): refresh returned the same token") }
                s = n
                c.call("GET", "/auth/v1/user", token: s.access, expect: [200])
            case 2:
                let city = cities[cityIndex % cities.count]
                cityIndex += 1
                let row: JSONValue = ["user_id": .string(s.user), "city_id": .string(city)]
                if c.call("POST", "/rest/v1/saved_cities", token: s.access, json: row, expect: [201])?.status == 201 {
                    ledger.wrote("teleportme", "saved_cities", "user_id=eq.\(s.user)&city_id=eq.\(city)")
                }
            case 3:
                let rows = HammerClient.json(c.call("GET", "/rest/v1/saved_cities?select=user_id,city_id", token: s.access, expect: [200])).arrayValue ?? []
                if rows.contains(where: { $0["user_id"]?.stringValue != s.user }) { findings.add("teleportme \(w): RLS let another user's saved city through") }
            case 4:
                c.call("POST", "/rest/v1/rpc/search_cities", token: s.access, json: ["search_term": "san"], expect: [200])
            default:
                let body: JSONValue = ["current_city_id": "berlin", "preferences": ["cost": 5, "climate": 5, "culture": 5, "job_market": 5]]
                if c.call("POST", "/functions/v1/generate-report", token: s.access, json: body, expect: [200])?.status == 200 {
                    ledger.wrote("teleportme", "city_reports", "user_id=eq.\(s.user)", accumulate: true)
                }
            }
        }
    }

    /// A NaarsCars member (an approved fixture persona), or for odd workers a new sign-up too:
    /// sign-in, town-hall posts, push tokens, the leaderboard RPC, the push edge function, and
    /// avatar uploads and downloads.
    static func naarsCarsClient(
        _ backend: MockSupabase, worker w: Int, rounds: Int, findings: Findings, ledger: Ledger,
        send: (@Sendable (HTTPRequest) throws -> HTTPResponse)? = nil
    ) {
        let c = HammerClient(backend, findings: findings, label: "naarscars \(w)", send: send)
        let personas = ["alice@test.com", "bob@test.com", "carol@test.com", "dave@test.com"]
        let email = personas[w % personas.count], password = "TestPassword123!"
        if w % 2 == 1 {
            let newEmail = "hammer\(w)@naarscars.test"
            if c.call(
                "POST", "/auth/v1/signup", json: ["email": .string(newEmail), "password": "hammer-password", "data": ["name": .string("Hammer \(w)")]],
                expect: [200]) != nil
            {
                ledger.signedUp("naarscars", newEmail)
                ledger.wrote("naarscars", "profiles", "email=eq.\(newEmail)")
            }
        }
        guard
            var s = HammerClient.session(
                c.call("POST", "/auth/v1/token?grant_type=password", json: ["email": .string(email), "password": .string(password)], expect: [200]))
        else { return }
        let eve = "e4e00000-0000-4000-8000-000000000005" // no push tokens: the push function reaches APNs for nobody
        for r in 0..<rounds {
            let marker = "hammer-\(w)-\(r)-\(UUID().uuidString.prefix(8))"
            switch (w + r) % 6 {
            case 0:
                if let n = HammerClient.session(
                    c.call("POST", "/auth/v1/token?grant_type=password", json: ["email": .string(email), "password": .string(password)], expect: [200]))
                {
                    s = n
                }
            case 1:
                if c.call("POST", "/rest/v1/town_hall_posts", token: s.access, json: ["user_id": .string(s.user), "content": .string(marker)], expect: [201])?
                    .status == 201
                {
                    ledger.wrote("naarscars", "town_hall_posts", "content=eq.\(marker)")
                }
            case 2:
                if c.call(
                    "POST", "/rest/v1/push_tokens", token: s.access, json: ["user_id": .string(s.user), "token": .string(marker), "device_id": .string(marker)],
                    expect: [201])?.status == 201
                {
                    ledger.wrote("naarscars", "push_tokens", "device_id=eq.\(marker)")
                }
                let mine = HammerClient.json(c.call("GET", "/rest/v1/push_tokens?select=user_id", token: s.access, expect: [200])).arrayValue ?? []
                if mine.contains(where: { $0["user_id"]?.stringValue != s.user }) { findings.add("naarscars \(w): RLS let another user's push token through") }
            case 3:
                c.call("POST", "/rest/v1/rpc/get_leaderboard", token: s.access, json: [:], expect: [200])
            case 4:
                c.call(
                    "POST", "/functions/v1/send-push-notification", token: s.access, json: ["user_id": .string(eve), "title": "t", "body": .string(marker)],
                    expect: [200])
            default:
                let name = "\(s.user)/\(marker).png"
                let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(marker.utf8)
                if c.call("POST", "/storage/v1/object/avatars/\(name)", token: s.access, body: png, headers: ["Content-Type": "image/png"], expect: [200])?
                    .status == 200
                {
                    ledger.uploaded("naarscars", bucket: "avatars", name: name, data: png)
                    let got = c.call("GET", "/storage/v1/object/public/avatars/\(name)", expect: [200])
                    if got?.status == 200, got?.body != png { findings.add("naarscars \(w): downloaded bytes differ from the upload") }
                }
            }
        }
    }
}

/// What clients were told was written, and the check that each write is stored exactly once.
final class Ledger: Sendable {
    private struct Entries {
        var rows: [String: Int] = [:] // "app|table|filter" -> rows expected
        var users: [(String, String)] = [] // (app, email)
        var objects: [(String, String, String, Data)] = [] // (app, bucket, name, bytes)
    }
    private let entries = Guarded(Entries())

    /// Writes recorded.
    var count: Int { entries.withLock { $0.rows.values.reduce(0, +) + $0.users.count + $0.objects.count } }

    /// A row write acknowledged: `filter` (a PostgREST query) must then match exactly one row, or
    /// with `accumulate` exactly as many rows as such writes were acknowledged.
    func wrote(_ app: String, _ table: String, _ filter: String, accumulate: Bool = false) {
        entries.withLock { e in
            let key = "\(app)|\(table)|\(filter)"
            e.rows[key] = accumulate ? (e.rows[key] ?? 0) + 1 : 1
        }
    }

    /// A sign-up acknowledged.
    func signedUp(_ app: String, _ email: String) { entries.withLock { $0.users.append((app, email)) } }

    /// An upload acknowledged.
    func uploaded(_ app: String, bucket: String, name: String, data: Data) { entries.withLock { $0.objects.append((app, bucket, name, data)) } }

    /// Reads every acknowledged write back as the service role; returns the discrepancies.
    func reconcile(_ backends: [String: MockSupabase]) -> [String] {
        let e = entries.withLock { $0 }
        var problems: [String] = []
        for (key, expected) in e.rows.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "|", maxSplits: 2).map(String.init)
            guard let b = backends[parts[0]] else { continue }
            let r = try? b.handle(
                HTTPRequest(
                    method: "GET", target: "/rest/v1/\(parts[1])?\(parts[2])",
                    headers: ["apikey": b.serviceRoleKey, "Authorization": "Bearer \(b.serviceRoleKey)"]))
            let found = r.flatMap { try? JSONValue.parse($0.body) }?.arrayValue?.count ?? -1
            if found != expected { problems.append("\(parts[0]) \(parts[1]) \(parts[2]): expected \(expected), found \(found)") }
        }
        for (app, email) in e.users {
            let n = (try? backends[app]?.database.rows("auth.users", where: .eq("email", email)).count) ?? -1
            if n != 1 { problems.append("\(app) auth.users \(email): expected 1, found \(n)") }
        }
        for (app, bucket, name, data) in e.objects {
            guard let b = backends[app] else { continue }
            let r = try? b.handle(
                HTTPRequest(method: "GET", target: "/storage/v1/object/\(bucket)/\(name)", headers: ["Authorization": "Bearer \(b.serviceRoleKey)"]))
            if r?.status != 200 || r?.body != data { problems.append("\(app) storage \(bucket)/\(name): answered \(r?.status ?? -1)") }
        }
        return problems
    }
}
