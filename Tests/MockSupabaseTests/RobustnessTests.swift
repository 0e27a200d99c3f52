import XCTest
import MockBinding
@testable import MockSupabase

/// Nothing a client sends may crash the backend or corrupt its state: seeded random requests
/// (grammar-shaped and raw noise) against a TeleportMe backend. Every error response has the
/// service's error shape, and a request answered with an error changes nothing.
final class RobustnessTests: XCTestCase {
    /// A seeded generator built on the backend's own SplitMix64 id source.
    struct RNG: RandomNumberGenerator {
        let source: SeededIDGenerator
        init(s: UInt64) { source = SeededIDGenerator(seed: s) }
        mutating func next() -> UInt64 { source.bytes(8).reduce(0) { $0 << 8 | UInt64($1) } }
    }

    /// The stored rows of every table. Row arrays are copy-on-write, so comparing an unchanged
    /// snapshot is cheap.
    func snapshot(_ db: Database) throws -> [String: [[SQLValue]]] {
        db.exclusive { $0.tables.mapValues { $0.rows } }
    }

    func testRandomRequestsNeverCrashAndErrorsChangeNothing() throws {
        let backend = try MockSupabase(contracts: ContractsLocator.app("teleportme"), clock: ManualClock(), ids: SeededIDGenerator(seed: 9))
        backend.registerRPC(RPCFunction(name: "echo", parameters: [RPCParameter("x", .integer)], returns: .scalar(.integer)) { $0.arguments["x"] ?? .null })
        var rng = RNG(s: 20261121)
        let ana = backend.accessToken(persona: "ana")!
        let tables = ["cities", "city_scores", "saved_cities", "profiles", "user_preferences", "city_reports", "vibe_tags", "nope", ""]
        let columns = ["id", "user_id", "city_id", "name", "population", "latitude", "created_at", "preferences", "selected_vibe_tags", "x", "id->>a"]
        let ops = ["eq", "neq", "gt", "lt", "like", "ilike", "in", "is", "cs", "cd", "ov", "match", "fts", "", "not.eq", "not"]
        let values = [
            "berlin", "1", "-9223372036854775808", "99999999999999999999", "1e400", "NaN", "(a,b)", "(\"x,y\",null)", "null", "true",
            "{1,2}", "{\"a\":1}", "2026-01-01", "2026-13-40", "a11ce000-0000-4000-8000-000000000001", "%", "*", "\u{0}", "é😀", "(", ")", "\"", ""
        ]
        let prefers = [
            "return=representation", "return=minimal", "count=exact", "resolution=merge-duplicates", "resolution=ignore-duplicates", "missing=default",
            "return=bogus", ""
        ]
        let accepts = ["application/json", "application/vnd.pgrst.object+json", "text/csv", "image/png", "*/*"]
        func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
        func randomJSON(_ depth: Int) -> JSONValue {
            switch rng.next() % (depth > 2 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(rng.next() % 2 == 0)
            case 2: return .int(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64))
            case 3: return .double(Double(Int64(bitPattern: rng.next() % 100000)) / 7)
            case 4: return .string(pick(values))
            case 5: return .array((0..<Int(rng.next() % 4)).map { _ in randomJSON(depth + 1) })
            default:
                var o: [String: JSONValue] = [:]
                for _ in 0..<Int(rng.next() % 5) { o[pick(columns)] = randomJSON(depth + 1) }
                return .object(o)
            }
        }
        var before = try snapshot(backend.database)
        var errors = 0, successes = 0
        for n in 0..<15000 {
            var headers: HTTPHeaders = [:]
            switch rng.next() % 6 {
            case 0: break
            case 1: headers["apikey"] = "garbage"
            default: headers["apikey"] = backend.anonKey
            }
            switch rng.next() % 5 {
            case 0: headers["Authorization"] = "Bearer \(ana)"
            case 1: headers["Authorization"] = "Bearer \(backend.serviceRoleKey)"
            case 2: headers["Authorization"] = pick(["Bearer", "Bearer x.y.z", "Basic abc", "Bearer \(ana.dropLast(3))", ""])
            default: break
            }
            if rng.next() % 3 == 0 { headers["Prefer"] = (0..<Int(rng.next() % 3 + 1)).map { _ in pick(prefers) }.joined(separator: ",") }
            if rng.next() % 3 == 0 { headers["Accept"] = pick(accepts) }
            if rng.next() % 7 == 0 { headers["Range"] = pick(["0-1", "5-2", "-1-3", "9223372036854775807-9223372036854775807", "x"]) }
            var query: [String] = []
            for _ in 0..<Int(rng.next() % 4) {
                switch rng.next() % 6 {
                case 0: query.append("select=" + pick(["*", "id,name", "id,cities(name)", "a:b::text", "(", "id,saved_cities!inner(*)", "x(y(z))"]))
                case 1: query.append("order=" + pick(["id", "id.desc.nullslast", "name.asc,id.desc", "x.y.z", ""]))
                case 2: query.append(pick(["limit", "offset"]) + "=" + pick(["0", "1", "9223372036854775807", "-1", "x"]))
                case 3: query.append(pick(["or", "and", "not.or"]) + "=" + pick(["(id.eq.berlin,id.eq.paris)", "(id.eq.berlin", "(and(a.eq.1))", "()", "x"]))
                default: query.append(pick(columns) + "=" + pick(ops) + "." + pick(values))
                }
            }
            let method = pick(["GET", "HEAD", "POST", "PATCH", "DELETE", "PUT", "OPTIONS", "TRACE"])
            let path: String
            switch rng.next() % 8 {
            case 0: path = "/rest/v1/rpc/" + pick(["echo", "nope", ""])
            case 1: path = "/auth/v1/" + pick(["signup", "token", "user", "logout", "otp", "verify", "x"])
            case 2: path = "/functions/v1/" + pick(["a", ""])
            case 3: path = pick(["/", "/rest/v1", "/rest/v1/cities/extra", "/storage/v1/object/x", "//rest/v1/cities"])
            default: path = "/rest/v1/" + pick(tables)
            }
            if path.hasPrefix("/auth/v1/token") { query.append("grant_type=" + pick(["password", "refresh_token", "x"])) }
            var body = Data()
            switch rng.next() % 4 {
            case 0: break
            case 1: body = Data((0..<Int(rng.next() % 64)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            default: body = randomJSON(0).data()
            }
            let request = HTTPRequest(method: method, target: path + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), headers: headers, body: body)
            let response = try backend.handle(request)
            XCTAssertTrue((100...599).contains(response.status), "request \(n)")
            if response.status >= 400 {
                errors += 1
                if path.hasPrefix("/rest/v1"), response.status != 401 || response.jsonBody?["code"] != nil {
                    let keys = Set(response.jsonBody?.objectValue?.keys.map { $0 } ?? [])
                    XCTAssertTrue(
                        keys == ["code", "message", "details", "hint"] || keys == ["message", "hint"],
                        "request \(n) \(method) \(path)?\(query.joined(separator: "&")): \(response.status) \(response.text)")
                }
                let after = try snapshot(backend.database)
                if after != before {
                    XCTFail(
                        "request \(n) answered \(response.status) but changed state: \(method) \(path)?\(query.joined(separator: "&")) \(String(decoding: body, as: UTF8.self))"
                    )
                    before = after
                }
            } else {
                successes += 1
                before = try snapshot(backend.database)
            }
        }
        XCTAssertGreaterThan(errors, 5000, "the generator must reach error paths")
        XCTAssertGreaterThan(successes, 1500, "the generator must reach success paths")
    }
}
