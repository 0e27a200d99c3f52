import Foundation

/// What writes a cache entry (TeleportMe §3.6's "Write Trigger" column): the client operation
/// and when in it the entry is written.
package struct CacheWriteTrigger: Sendable, Equatable, Decodable {
    /// When the operation writes its entry.
    package enum Moment: String, Sendable, Equatable, CaseIterable {
        /// Only once the operation's network call has succeeded, with what the server answered
        /// ("`fetchAllCities()` network success", "`generateReport()` success"): a failed call
        /// leaves the entry as it was.
        case networkSuccess
        /// As soon as the operation is called, before any request, whatever the network does
        /// afterwards ("`savePreferences()`", "`selectCity()`").
        case call
        /// Before the request and again after it, rolled back on failure ("Every save/unsave
        /// (optimistic + confirmed)"): checked by `OptimisticSuite` on the optimistic resource.
        case everyChange
    }
    /// The operation's name without brackets (`generateReport`).
    package var operation: String
    /// When it writes.
    package var on: Moment
}

/// A client whose operations write the cache (TeleportMe's services): what
/// `CacheWriteTriggerSuite` drives. Requirements are `async` so actors conform.
public protocol CacheWritingClient: Sendable {
    /// Performs an operation named by a write trigger (`generateReport`) as the signed-in user and
    /// returns the value it leaves in the operation's cache entry (what the screen shows); throws
    /// when the operation fails.
    func perform(_ operation: String) async throws -> JSONValue
}

/// The conformance suite of §3.6's write triggers: for every cache entry with a `write` trigger
/// (except `everyChange`, the optimistic suite's), the operation is performed against the mock
/// with every other entry already cached, once with a working network and once with every
/// request failing. A `networkSuccess` entry must be written after a response and hold what the
/// operation returned, and stay unwritten when the network fails; a `call` entry must be written
/// before any request is sent, and also when the network fails; no other entry may change.
///
/// ```swift
/// let rules = try ClientRules.load(app: "teleportme")!
/// let report = await CacheWriteTriggerSuite.run(rules, makeBackend: { try TeleportMeApp.makeBackend() }) { env in
///     MyServices(cache: env.cache, transport: env.transport, userID: env.userID)
/// }
/// ```
public enum CacheWriteTriggerSuite {
    /// What a client under test is built from.
    public struct Environment: Sendable {
        /// The backend (fixtures loaded).
        public let backend: any BackendUnderTest
        /// The network: the client must send its requests through it.
        public let transport: any RESTTransport
        /// The cache store: the client must write its entries here.
        public let cache: any ClientCacheStore
        public let clock: ManualClock
        /// The signed-in persona's user id.
        public let userID: String
        /// The rules (keys, TTLs, freshness).
        public let rules: CacheRules
    }

    /// Runs the checks for every entry with a trigger; the client acts as `persona`.
    /// - Parameters:
    ///   - makeCache: the cache store (default: the reference file or memory store).
    ///   - make: builds the client under test.
    public static func run<C: CacheWritingClient>(
        _ rules: ClientRules, persona: String, makeBackend: @escaping @Sendable () throws -> any BackendUnderTest,
        makeCache: CacheStoreSuite.Factory? = nil, make: @escaping @Sendable (Environment) async -> C
    ) async -> SuiteReport {
        let r = SuiteRecorder(suite: "cache-writes")
        guard let cacheRules = rules.cache else { return r.report }
        let makeCache = makeCache ?? ClientRulesReference.cacheFactory(cacheRules)
        for entry in cacheRules.entries {
            guard let trigger = entry.write, trigger.on != .everyChange else { continue }
            for failing in [false, true] {
                await scenario(
                    entry, trigger, failing: failing, rules: rules, cacheRules: cacheRules, persona: persona, recorder: r,
                    makeBackend: makeBackend, makeCache: makeCache, make: make)
            }
        }
        return r.report
    }

    private static func scenario<C: CacheWritingClient>(
        _ entry: CacheEntryRule, _ trigger: CacheWriteTrigger, failing: Bool, rules: ClientRules, cacheRules: CacheRules,
        persona: String, recorder r: SuiteRecorder, makeBackend: @escaping @Sendable () throws -> any BackendUnderTest,
        makeCache: CacheStoreSuite.Factory, make: @escaping @Sendable (Environment) async -> C
    ) async {
        let label = "\(trigger.operation)() [\(trigger.on.rawValue)]\(failing ? " with every request failing" : "")"
        let backend: any BackendUnderTest
        do { backend = try makeBackend() } catch { r.fail(entry.id, "the backend could not be built: \(error)"); return }
        guard let userID = backend.served.spec.fixtures.persona(persona)?.id else {
            r.fail(entry.id, "no persona '\(persona)' in the fixtures"); return
        }
        guard let timeout = rules.timeout("timeout.rest") else { r.fail(entry.id, "\(rules.file) has no timeout.rest rule"); return }
        let scratch = ScratchFolder("writes")
        defer { scratch.remove() }
        let dir = scratch.url.appendingPathComponent("store", isDirectory: true)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let clock = ManualClock(suiteEpoch)
        let inner: any ClientCacheStore
        do { inner = try await makeCache(CacheStoreSuite.Environment(clock: clock, directory: dir)) } catch {
            r.fail(entry.id, "the cache store could not be created: \(error)"); return
        }
        // Every other entry is cached already; the trigger's own entry is not (a fresh copy would
        // rightly make a cache-then-network operation skip the network).
        let seededAt = clock.now()
        var others: [(CacheKey, JSONValue)] = []
        for e in cacheRules.entries where e.key != entry.key && e.qualifiers.isEmpty {
            let k = e.key(user: userID, freshness: cacheRules.freshness)
            let v: JSONValue = ["sentinel": .string(e.key)]
            do { try await inner.save(v, for: k) } catch { r.fail(entry.id, "seeding \(k) failed: \(error)"); return }
            others.append((k, v))
        }
        clock.advance(by: 1)
        let key = entry.key(user: userID, freshness: cacheRules.freshness)
        let log = WriteLog()
        let cache = LoggingCacheStore(inner: inner, log: log)
        let transport: any RESTTransport
        do { transport = LoggingTransport(inner: try URLSessionTransport(backend: backend, persona: persona, timeout: timeout), log: log) } catch {
            r.fail(entry.id, "\(error)"); return
        }
        if failing { backend.inject(InjectedFault(pathPrefix: "/", kind: .networkError)) }
        defer { backend.clearFaults() }
        let client = await make(Environment(backend: backend, transport: transport, cache: cache, clock: clock, userID: userID, rules: cacheRules))
        let outcome: Result<JSONValue, Error>
        do { outcome = .success(try await client.perform(trigger.operation)) } catch { outcome = .failure(error) }
        backend.clearFaults()

        let written = await inner.load(JSONValue.self, for: key)
        let events = log.events
        let firstRequest = events.firstIndex {
            if case .request = $0 { return true }; return false
        }
        let firstWrite = events.firstIndex {
            if case .save(let k) = $0 { return k == key }; return false
        }

        switch (trigger.on, failing) {
        case (.networkSuccess, false):
            if case .failure(let e) = outcome { r.fail(entry.id, "\(label) threw: \(e)"); break }
            r.expect(firstRequest != nil, entry.id, "\(label) sent no request, but \(entry.key) is written on network success")
            guard let written else { r.fail(entry.id, "\(label) succeeded but \(key) is not written"); break }
            r.expect(abs(written.savedAt.timeIntervalSince(clock.now())) <= 0.001, entry.id, "\(label): \(key) was not stamped with the time of the call")
            if case .success(let shown) = outcome {
                r.expect(
                    written.value.sameJSON(shown), entry.id, "\(label): \(key) holds \(written.value.compactText) but the operation gave \(shown.compactText)")
            }
            if let firstRequest, let firstWrite {
                r.expect(firstWrite > firstRequest, entry.id, "\(label): \(key) was written before any request was answered (written on network success only)")
            }
        case (.networkSuccess, true):
            r.expect(written == nil, entry.id, "\(label): \(key) was written (\(written.map { $0.value.compactText } ?? "")) although the network call failed")
        case (.call, _):
            guard let written else { r.fail(entry.id, "\(label): \(key) is not written, but \(trigger.operation)() writes it when called"); break }
            r.expect(abs(written.savedAt.timeIntervalSince(clock.now())) <= 0.001, entry.id, "\(label): \(key) was not stamped with the time of the call")
            if let firstRequest, let firstWrite {
                r.expect(
                    firstWrite < firstRequest, entry.id,
                    "\(label): \(key) was written only after a request was sent (it is written when the operation is called)")
            }
            if !failing, case .success(let shown) = outcome {
                r.expect(
                    written.value.sameJSON(shown), entry.id, "\(label): \(key) holds \(written.value.compactText) but the operation gave \(shown.compactText)")
            }
        case (.everyChange, _):
            break
        }
        for (k, v) in others {
            let got = await inner.load(JSONValue.self, for: k)
            r.expect(
                got.map { $0.value.sameJSON(v) } == true && got.map { abs($0.savedAt.timeIntervalSince(seededAt)) <= 0.001 } == true, entry.id,
                "\(label) also changed \(k) (now \(got.map { $0.value.compactText } ?? "nothing")); its trigger writes \(entry.key) only")
        }
    }
}

/// Requests sent and entries saved, in order.
final class WriteLog: @unchecked Sendable {
    enum Event: Sendable { case request(String), save(CacheKey) }
    private let lock = NSLock()
    private var list: [Event] = []
    func append(_ e: Event) { lock.lock(); list.append(e); lock.unlock() }
    var events: [Event] { lock.lock(); defer { lock.unlock() }; return list }
}

/// A transport that logs each request before sending it.
struct LoggingTransport: RESTTransport {
    let inner: any RESTTransport
    let log: WriteLog
    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        log.append(.request("\(request.method) \(request.path)"))
        return try await inner.send(request)
    }
}

/// A cache store that logs each save.
struct LoggingCacheStore: ClientCacheStore {
    let inner: any ClientCacheStore
    let log: WriteLog
    func save<T: Codable & Sendable>(_ value: T, for key: CacheKey) async throws {
        log.append(.save(key))
        try await inner.save(value, for: key)
    }
    func load<T: Codable & Sendable>(_ type: T.Type, for key: CacheKey) async -> CachedData<T>? { await inner.load(type, for: key) }
    func remove(_ key: CacheKey) async { await inner.remove(key) }
    func removeAll(userID: String) async { await inner.removeAll(userID: userID) }
    func fileURL(for key: CacheKey) async -> URL? { await inner.fileURL(for: key) }
}

extension JSONValue {
    /// Equal as JSON texts are (a number read back from a file as an integer equals the double
    /// it was saved from).
    func sameJSON(_ other: JSONValue) -> Bool {
        guard let a = try? JSONValue.parse(data()), let b = try? JSONValue.parse(other.data()) else { return false }
        return a == b
    }

    /// At most 160 characters of the value's JSON, for messages.
    var compactText: String {
        let s = serialized(.compact)
        return s.count > 160 ? String(s.prefix(160)) + "…" : s
    }
}
