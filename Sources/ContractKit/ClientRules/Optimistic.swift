import Foundation

/// A client service that saves and unsaves items of a per-user list optimistically (TeleportMe
/// §5.3 `SavedCitiesService`): what `OptimisticSuite` checks. It starts from the list in its
/// cache entry; `onUpdate` receives every state the screen would show, in order.
///
/// Rows are the client's own model; the suite reads them through their JSON encoding, which must
/// use the table's column names (`id`, `city_id`, `created_at`), as PostgREST sends them.
public protocol OptimisticSaveService: Sendable {
    /// The list's row model.
    associatedtype Row: Codable & Sendable
    /// Saves an item: shown and cached at once, confirmed (or rolled back) by the server.
    func save(_ itemID: String, onUpdate: @escaping @Sendable ([Row]) -> Void) async
    /// Unsaves an item: gone at once, confirmed (or rolled back) by the server.
    func unsave(_ itemID: String, onUpdate: @escaping @Sendable ([Row]) -> Void) async
    /// The rows shown now.
    var rows: [Row] { get async }
}

/// The reference optimistic service (§3.6 optimistic steps 1-4, §5.3) over PostgREST rows.
public actor OptimisticListService: OptimisticSaveService {
    private let cache: any ClientCacheStore
    private let key: CacheKey
    private let resource: OptimisticResource
    private let userID: String
    private let client: PostgRESTClient
    private let clock: WallClock
    private var current: [JSONValue]
    private var loaded = false

    /// A service for the resource of `rules`, acting as `userID` over `transport`.
    public init(
        resource: OptimisticResource, rules: CacheRules, userID: String, cache: any ClientCacheStore,
        transport: any RESTTransport, clock: WallClock
    ) {
        self.cache = cache
        self.key = rules.entry(resource.cacheKey)!.key(user: userID, freshness: rules.freshness)
        self.resource = resource
        self.userID = userID
        self.client = PostgRESTClient(transport: transport)
        self.clock = clock
        self.current = []
    }

    private func restore() async {
        guard !loaded else { return }
        loaded = true
        current = await cache.load([JSONValue].self, for: key)?.value ?? []
    }

    public var rows: [JSONValue] {
        get async {
            await restore()
            return current
        }
    }

    private func item(_ row: JSONValue) -> String? { row[resource.itemColumn]?.stringValue }

    private func show(_ onUpdate: @Sendable ([JSONValue]) -> Void) async {
        try? await cache.save(current, for: key)
        onUpdate(current)
    }

    public func save(_ itemID: String, onUpdate: @escaping @Sendable ([JSONValue]) -> Void) async {
        await restore()
        guard !current.contains(where: { item($0) == itemID }) else { return }
        let before = current
        // 1. Local state and cache at once; the optimistic row has no server id yet.
        let optimistic: JSONValue = .object([
            "id": .null, resource.ownerColumn: .string(userID), resource.itemColumn: .string(itemID),
            "created_at": .string(PGTime.timestamptz(clock.now()))
        ])
        current.append(optimistic)
        await show(onUpdate)
        // 2. The request.
        do {
            let row = try await client.insert(
                table: resource.table,
                row: [resource.ownerColumn: .string(userID), resource.itemColumn: .string(itemID)])
            // 3. The server's row replaces the optimistic one.
            current = current.map { item($0) == itemID ? row : $0 }
        } catch {
            // 4. Rollback.
            current = before
        }
        await show(onUpdate)
    }

    public func unsave(_ itemID: String, onUpdate: @escaping @Sendable ([JSONValue]) -> Void) async {
        await restore()
        guard current.contains(where: { item($0) == itemID }) else { return }
        let before = current
        current.removeAll { item($0) == itemID }
        await show(onUpdate)
        do {
            try await client.delete(table: resource.table, matching: [(resource.ownerColumn, userID), (resource.itemColumn, itemID)])
        } catch {
            current = before
            await show(onUpdate)
        }
    }
}

/// The conformance suite of optimistic save/unsave (TeleportMe §3.6, §5.3) over the mock
/// backend: what is shown and cached at the instant each request leaves, what replaces the
/// optimistic row, and the exact rollback after a network error or an error status injected by
/// the mock.
public enum OptimisticSuite {
    package static let behaviourIDs: Set<String> = [
        "optimistic.save-immediate", "optimistic.unsave-immediate", "optimistic.server-row-replaces",
        "optimistic.unsave-confirmed", "optimistic.rollback"
    ]

    /// What a service under test is built from.
    public struct Environment: Sendable {
        public let backend: any BackendUnderTest
        /// The network: the service must send its requests through it.
        public let transport: any RESTTransport
        /// The cache, holding the persona's current list under `key`.
        public let cache: any ClientCacheStore
        public let clock: ManualClock
        public let key: CacheKey
        public let userID: String
        public let resource: OptimisticResource
    }

    /// Runs every check the rules call for.
    public static func run<S: OptimisticSaveService>(
        _ rules: ClientRules, makeBackend: @escaping @Sendable () throws -> any BackendUnderTest,
        makeCache: CacheStoreSuite.Factory? = nil, make: @escaping @Sendable (Environment) async -> S
    ) async -> SuiteReport {
        let r = SuiteRecorder(suite: "optimistic")
        guard let o = rules.optimistic, let cacheRules = rules.cache, let entry = cacheRules.entry(o.resource.cacheKey) else { return r.report }
        let res = o.resource
        let makeCache = makeCache ?? ClientRulesReference.cacheFactory(cacheRules)
        guard let timeout = rules.timeout("timeout.rest") else { r.fail(res.id, "\(rules.file) has no timeout.rest rule"); return r.report }

        let backend: any BackendUnderTest
        do { backend = try makeBackend() } catch { r.fail(res.id, "the backend could not be built: \(error)"); return r.report }
        guard let userID = backend.served.spec.fixtures.persona(res.persona)?.id else {
            r.fail(res.id, "no persona '\(res.persona)' in the fixtures"); return r.report
        }
        let serverRows = { () -> [JSONValue] in
            ((try? backend.served.rows(res.table, (res.ownerColumn, userID))) ?? []).map { JSONValue.object($0) }
        }
        let fixtureRows = serverRows()

        /// One tap against a fresh cache, the persona's rows restored to the fixtures' first.
        func tap(save: Bool, failure: OptimisticFailure?) async -> (OptimisticRun, String)? {
            backend.clearFaults()
            defer { backend.clearFaults() }
            do {
                try backend.served.replaceRows(res.table, (res.ownerColumn, userID), fixtureRows.compactMap(\.objectValue))
            } catch { r.fail(res.id, "the persona's rows could not be restored: \(error)"); return nil }
            let initial = serverRows()
            let savedItems = Set(initial.compactMap { $0[res.itemColumn]?.stringValue })
            // The item: one the persona has saved (unsave) or a referenced item it has not (save).
            let itemID: String
            if save {
                guard let fk = backend.served.spec.schema.table(res.table)?.foreignKeys.first(where: { $0.columns == [res.itemColumn] }),
                    let candidates = try? backend.served.rows(fk.refTable, nil),
                    let pick = candidates.compactMap({ $0[fk.refColumns[0]]?.stringValue }).sorted().first(where: { !savedItems.contains($0) })
                else { r.fail(res.id, "no unsaved \(res.itemColumn) to save for \(res.persona)"); return nil }
                itemID = pick
            } else {
                guard let pick = savedItems.sorted().first else { r.fail(res.id, "\(res.persona) has no saved rows to unsave"); return nil }
                itemID = pick
            }
            let scratch = ScratchFolder("optimistic")
            defer { scratch.remove() }
            let dir = scratch.url.appendingPathComponent("store", isDirectory: true)
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let clock = ManualClock(suiteEpoch)
            let key = entry.key(user: userID, freshness: cacheRules.freshness)
            let cache: any ClientCacheStore
            do {
                cache = try await makeCache(CacheStoreSuite.Environment(clock: clock, directory: dir))
                try await cache.save(initial, for: key)
            } catch { r.fail(res.id, "the cache could not be prepared: \(error)"); return nil }
            let method = save ? "POST" : "DELETE"
            switch failure {
            case nil: break
            case .networkError?: backend.inject(InjectedFault(method: method, pathPrefix: "/rest/v1/\(res.table)", kind: .networkError))
            case .status(let s)?:
                backend.inject(
                    InjectedFault(
                        method: method, pathPrefix: "/rest/v1/\(res.table)",
                        kind: .response(.json(s, ["code": "XX000", "message": "injected failure", "details": .null, "hint": .null]))))
            }
            let timeline = Timeline()
            let spy: SpyTransport
            do { spy = SpyTransport(inner: try URLSessionTransport(backend: backend, persona: res.persona, timeout: timeout), timeline: timeline) } catch {
                r.fail(res.id, "\(error)"); return nil
            }
            let box = OptimisticRunBox()
            spy.setProbe { request in
                guard request.method == method, request.path.hasPrefix("/rest/v1/\(res.table)") else { return }
                let cached = await cache.load([JSONValue].self, for: key)?.value
                box.with { run in
                    if run.atRequest == nil {
                        run.atRequest = run.shown.last ?? []
                        run.cacheAtRequest = cached
                    }
                }
            }
            let service = await make(Environment(backend: backend, transport: spy, cache: cache, clock: clock, key: key, userID: userID, resource: res))
            let before = await service.rows.compactMap { jsonValue($0) }
            let update: @Sendable ([S.Row]) -> Void = { rows in box.with { $0.shown.append(rows.compactMap { jsonValue($0) }) } }
            if save { await service.save(itemID, onUpdate: update) } else { await service.unsave(itemID, onUpdate: update) }
            let final = await service.rows.compactMap { jsonValue($0) }
            let cacheAfter = await cache.load([JSONValue].self, for: key)?.value
            box.with { run in
                run.before = before
                run.final = final
                run.cacheAfter = cacheAfter
                run.server = serverRows()
                run.requests = timeline.requests
            }
            return (box.run, itemID)
        }

        func items(_ rows: [JSONValue]?) -> [String] { (rows ?? []).compactMap { $0[res.itemColumn]?.stringValue } }
        func sameSet(_ a: [JSONValue]?, _ b: [JSONValue]?) -> Bool {
            guard let a, let b else { return a == nil && b == nil }
            return a.map { $0.serialized() }.sorted() == b.map { $0.serialized() }.sorted()
        }
        func list(_ rows: [JSONValue]?) -> String { rows == nil ? "nothing" : "[\(items(rows).joined(separator: ", "))]" }

        // Save, success.
        if let (run, item) = await tap(save: true, failure: nil) {
            if o.has("optimistic.save-immediate") {
                let id = "optimistic.save-immediate"
                if let at = run.atRequest {
                    r.expect(items(at).contains(item), id, "save \(item): when the insert was sent the screen showed \(list(at))")
                    r.expect(items(run.cacheAtRequest).contains(item), id, "save \(item): when the insert was sent the cache held \(list(run.cacheAtRequest))")
                } else {
                    r.fail(id, "save \(item): no insert reached the server (requests: \(run.requests.joined(separator: ", ")))")
                }
            }
            if o.has("optimistic.server-row-replaces") {
                let id = "optimistic.server-row-replaces"
                let serverRow = run.server.first { $0[res.itemColumn]?.stringValue == item }
                let shownRows = run.final.filter { $0[res.itemColumn]?.stringValue == item }
                let cachedRows = (run.cacheAfter ?? []).filter { $0[res.itemColumn]?.stringValue == item }
                if let serverRow {
                    r.expect(shownRows.count == 1, id, "save \(item): the list shows it \(shownRows.count) times after success")
                    r.expect(cachedRows.count == 1, id, "save \(item): the cache holds it \(cachedRows.count) times after success")
                    for (what, row) in [("shown", shownRows.first), ("cached", cachedRows.first)] {
                        guard let row else { continue }
                        r.expect(
                            row["id"] == serverRow["id"], id,
                            "save \(item): the \(what) row has id \(row["id"]?.serialized() ?? "none"), the server's row \(serverRow["id"]?.serialized() ?? "none")"
                        )
                        r.expect(
                            row["created_at"] == serverRow["created_at"], id,
                            "save \(item): the \(what) row has created_at \(row["created_at"]?.serialized() ?? "none"), the server's row \(serverRow["created_at"]?.serialized() ?? "none")"
                        )
                    }
                } else {
                    r.fail(id, "save \(item): the server has no row for it after the save (requests: \(run.requests.joined(separator: ", ")))")
                }
            }
        }
        // Unsave, success.
        if let (run, item) = await tap(save: false, failure: nil) {
            if o.has("optimistic.unsave-immediate") {
                let id = "optimistic.unsave-immediate"
                if let at = run.atRequest {
                    r.expect(!items(at).contains(item), id, "unsave \(item): when the delete was sent the screen still showed it (\(list(at)))")
                    r.expect(
                        !items(run.cacheAtRequest).contains(item), id,
                        "unsave \(item): when the delete was sent the cache still held it (\(list(run.cacheAtRequest)))")
                } else {
                    r.fail(id, "unsave \(item): no delete reached the server (requests: \(run.requests.joined(separator: ", ")))")
                }
            }
            if o.has("optimistic.unsave-confirmed") {
                let id = "optimistic.unsave-confirmed"
                r.expect(!items(run.final).contains(item), id, "unsave \(item): after success the screen shows \(list(run.final))")
                r.expect(!items(run.cacheAfter).contains(item), id, "unsave \(item): after success the cache holds \(list(run.cacheAfter))")
                r.expect(!items(run.server).contains(item), id, "unsave \(item): the server still has it")
            }
        }
        // Failures: exact rollback.
        if o.has("optimistic.rollback") {
            let id = "optimistic.rollback"
            for failure in o.failures {
                let what: String
                switch failure {
                case .networkError: what = "a network error"
                case .status(let s): what = "HTTP \(s)"
                }
                for save in [true, false] {
                    guard let (run, item) = await tap(save: save, failure: failure) else { continue }
                    let verb = save ? "save" : "unsave"
                    r.expect(run.atRequest != nil, id, "\(verb) \(item): no request was sent (requests: \(run.requests.joined(separator: ", ")))")
                    r.expect(
                        sameSet(run.final, run.before), id,
                        "\(verb) \(item) failed with \(what): the screen shows \(list(run.final)), before the tap \(list(run.before))")
                    r.expect(
                        sameSet(run.cacheAfter, run.before), id,
                        "\(verb) \(item) failed with \(what): the cache holds \(list(run.cacheAfter)), before the tap \(list(run.before))")
                    r.expect(
                        sameSet(run.shown.last, run.before), id,
                        "\(verb) \(item) failed with \(what): the last state shown was \(list(run.shown.last)), before the tap \(list(run.before))")
                }
            }
        }
        return r.report
    }
}

/// What one optimistic tap produced, as JSON rows.
private struct OptimisticRun {
    var shown: [[JSONValue]] = []
    var atRequest: [JSONValue]?
    var cacheAtRequest: [JSONValue]?
    var final: [JSONValue] = []
    var cacheAfter: [JSONValue]?
    var before: [JSONValue] = []
    var server: [JSONValue] = []
    var requests: [String] = []
}

/// Shared between the service's callbacks and the suite while a tap runs.
private final class OptimisticRunBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value = OptimisticRun()
    func with(_ f: (inout OptimisticRun) -> Void) { lock.lock(); f(&value); lock.unlock() }
    var run: OptimisticRun { lock.lock(); defer { lock.unlock() }; return value }
}
