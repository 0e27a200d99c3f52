import Foundation

// Contracts/<app>/client-rules.json: the rules a client of the app's backend follows on the
// device (cache keys and TTLs, cache-then-network loading, optimistic updates, rate limits,
// realtime limits, image presets, timeouts). Decoded strictly: unknown keys, wrong types,
// dangling references and rule ids no suite knows are errors naming the file and JSON path.

/// A behaviour the document states, by id; the suites check the ids an app lists.
public struct BehaviourRule: Sendable, Equatable {
    /// Rule id (`cache.corrupt-entry-deleted`), named by every violation of it.
    public var id: String
    /// The rule in words.
    public var doc: String
    /// Where the document states it.
    public var source: String?
}

/// Where a cache entry lives.
public enum CacheScope: String, Sendable, Equatable {
    /// Shared by every user of the device (reference data).
    case global
    /// Private to one signed-in user.
    case user
}

/// When an entry's age makes it stale.
public enum StalenessBoundary: String, Sendable, Equatable {
    /// Stale from the instant its age reaches the TTL (`age >= ttl`).
    case atLeastTTL
    /// Stale only once its age exceeds the TTL (`age > ttl`).
    case moreThanTTL

    /// Whether an entry of this age is stale under this TTL (nil: never stale).
    public func isStale(age: TimeInterval, ttl: TimeInterval?) -> Bool {
        guard let ttl else { return false }
        switch self {
        case .atLeastTTL: return age >= ttl
        case .moreThanTTL: return age > ttl
        }
    }
}

/// The freshness rule of an app's cache.
public struct FreshnessRule: Sendable, Equatable {
    /// The boundary.
    public var staleWhenAge: StalenessBoundary
    /// How far before and after a boundary the suites probe, in seconds.
    public var probeSeconds: TimeInterval
}

/// One row of a cache table (TeleportMe §3.6, Naar's Cars FR-042).
public struct CacheEntryRule: Sendable, Equatable {
    /// Rule id (`cache.savedCities`).
    public var id: String
    /// The key's name (`savedCities`), also its file name.
    public var key: String
    /// Global or per user.
    public var scope: CacheScope
    /// Time to live in seconds; nil means never stale.
    public var ttlSeconds: TimeInterval?
    /// Names of the parts that qualify the key (`category`, `date`), if any.
    public var qualifiers: [String]
    /// What writes the entry, in the document's words.
    public var writeTrigger: String?
    /// The same, structured (`"write": {"operation", "on"}`), checked by `CacheWriteTriggerSuite`.
    public var write: CacheWriteTrigger? = nil
}

/// What an invalidation event removes.
public enum InvalidationTarget: Sendable, Equatable {
    /// Every per-user entry of the user (sign-out, logout).
    case allUserEntries
    /// These keys of the user (or the global ones, for global keys).
    case keys([String])
}

/// An event that invalidates cache entries (Naar's Cars FR-044, TeleportMe sign-out).
public struct InvalidationRule: Sendable, Equatable {
    /// Rule id.
    public var id: String
    /// The event (`signOut`, `mutation:rides`, `pullToRefresh:rides`).
    public var event: String
    /// What it removes.
    public var clears: InvalidationTarget
}

/// How cache files are laid out on disk (TeleportMe §3.2).
public struct CacheLayout: Sendable, Equatable {
    /// The document's root folder.
    public var root: String
    /// Folder of global entries, relative to the root.
    public var global: String
    /// Folder of a user's entries, relative to the root; `{userId}` is replaced.
    public var perUser: String
    /// The version written into every file; files of another version are dropped.
    public var formatVersion: Int
}

/// A speed target, measured by a benchmark (never by a unit test).
public struct PerformanceRule: Sendable, Equatable {
    /// What is timed.
    public enum Operation: String, Sendable, Equatable {
        /// Loading an entry that is there (a cache hit).
        case hit
        /// Reading an entry's file.
        case read
        /// Writing an entry's file (atomically).
        case write
    }
    /// Rule id.
    public var id: String
    /// What is timed.
    public var operation: Operation
    /// The target in milliseconds.
    public var maxMilliseconds: Double
    /// The command that measures it.
    public var measuredBy: String
}

/// An app's cache rules.
public struct CacheRules: Sendable, Equatable {
    /// On disk (`files`) or in memory (`memory`).
    public enum Storage: String, Sendable, Equatable {
        /// JSON files, surviving a relaunch.
        case files
        /// In memory only.
        case memory
    }
    /// Storage kind.
    public var storage: Storage
    /// The file layout (files only).
    public var layout: CacheLayout?
    /// The freshness boundary.
    public var freshness: FreshnessRule
    /// The cache table.
    public var entries: [CacheEntryRule]
    /// Invalidation events.
    public var invalidation: [InvalidationRule]
    /// Behaviours the suite checks.
    public var behaviours: [BehaviourRule]
    /// Speed targets the document states.
    public var performance: [PerformanceRule]
    /// Kinds of event every entry must be cleared by (`mutation`, `pullToRefresh`, `logout`:
    /// Naar's Cars FR-044); an event `kind` or `kind:…` counts. Checked when the file loads.
    public var invalidatedOn: [String] = []

    /// The entry of a key name.
    public func entry(_ key: String) -> CacheEntryRule? { entries.first { $0.key == key } }
    /// Whether a behaviour is listed.
    public func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
}

/// A REST resource loaded cache-then-network.
public struct LoaderResource: Sendable, Equatable {
    /// Rule id.
    public var id: String
    /// The cache entry it is kept in.
    public var cacheKey: String
    /// The PostgREST path (`/rest/v1/cities`).
    public var path: String
    /// The query string (`select=*&order=id.asc`).
    public var query: String
    /// The persona the requests are made as.
    public var persona: String
}

/// The cache-then-network pattern (TeleportMe §3.6).
public struct LoaderRules: Sendable, Equatable {
    /// The document's steps.
    public var steps: [String]
    /// Whether cached data shown after a failed refresh carries a "stale" banner.
    public var staleBanner: Bool
    /// Resources loaded this way.
    public var resources: [LoaderResource]
    /// Behaviours the suite checks.
    public var behaviours: [BehaviourRule]
    /// Whether a behaviour is listed.
    public func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
}

/// The table an optimistic save/unsave writes.
public struct OptimisticResource: Sendable, Equatable {
    /// Rule id.
    public var id: String
    /// The cache entry holding the list.
    public var cacheKey: String
    /// The table (`saved_cities`).
    public var table: String
    /// The column naming the saved item (`city_id`).
    public var itemColumn: String
    /// The column naming the owner (`user_id`).
    public var ownerColumn: String
    /// The persona acting.
    public var persona: String
}

/// A failure the optimistic suite injects.
public enum OptimisticFailure: Sendable, Equatable {
    /// The transport fails.
    case networkError
    /// The server answers with this status.
    case status(Int)
}

/// The optimistic update pattern (TeleportMe §3.6, §5.3).
public struct OptimisticRules: Sendable, Equatable {
    /// The resource.
    public var resource: OptimisticResource
    /// Failures to inject, each checked for rollback.
    public var failures: [OptimisticFailure]
    /// Behaviours the suite checks.
    public var behaviours: [BehaviourRule]
    /// Whether a behaviour is listed.
    public func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
}

/// One rate-limited action (Naar's Cars FR-045).
public struct RateLimitAction: Sendable, Equatable {
    /// Rule id.
    public var id: String
    /// The action's name (`claimUnclaim`).
    public var action: String
    /// The minimum interval between two allowed attempts, in seconds.
    public var minimumInterval: TimeInterval
}

/// Rate limits.
public struct RateLimitRules: Sendable, Equatable {
    /// Whether an attempt exactly one interval later is allowed (`atLeastInterval`) or only a later one.
    public enum Boundary: String, Sendable, Equatable {
        /// elapsed >= interval is allowed.
        case atLeastInterval
        /// elapsed > interval is allowed.
        case moreThanInterval
    }
    /// Which attempts start a new interval.
    public enum Recording: String, Sendable, Equatable {
        /// Only allowed attempts.
        case allowedOnly
        /// Every attempt, blocked ones included.
        case everyAttempt
    }
    /// What an interval is kept per.
    public enum Keying: String, Sendable, Equatable {
        /// Per action and target (ride, conversation).
        case actionAndTarget
        /// Per action only.
        case action
    }
    /// The boundary.
    public var boundary: Boundary
    /// Probe distance around boundaries, in seconds.
    public var probeSeconds: TimeInterval
    /// Recording rule.
    public var recording: Recording
    /// Keying rule.
    public var keying: Keying
    /// What the user sees when limited, in words.
    public var onLimited: String
    /// The actions.
    public var actions: [RateLimitAction]
    /// Behaviours the suite checks.
    public var behaviours: [BehaviourRule]
    /// Whether a behaviour is listed.
    public func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
    /// The interval of an action.
    public func interval(_ action: String) -> TimeInterval? { actions.first { $0.action == action }?.minimumInterval }
}

/// Realtime subscription limits (Naar's Cars FR-049, CivicForge §3).
public struct RealtimeRules: Sendable, Equatable {
    /// Maximum concurrent subscriptions.
    public var maxSubscriptions: Int
    /// Seconds in the background after which every subscription is dropped (0: at once).
    public var backgroundDropAfter: TimeInterval
    /// Probe distance around the delay, in seconds.
    public var probeSeconds: TimeInterval
    /// Behaviours the suite checks.
    public var behaviours: [BehaviourRule]
    /// Whether a behaviour is listed.
    public func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
}

/// An image preset (Naar's Cars FR-047 `ImageCompressor`).
public struct ImagePreset: Sendable, Equatable {
    /// Rule id.
    public var id: String
    /// Preset name (`avatar`).
    public var name: String
    /// Bound of the longer side, in pixels.
    public var maxDimensionPixels: Int
    /// Byte budget of the compressed output.
    public var maxBytes: Int
    /// Storage buckets it is uploaded to.
    public var buckets: [String]
}

/// Offline mutation queue (CivicForge §4, Shvil sync queue). Documented rules; no suite checks
/// them yet.
public struct OfflineQueueRules: Sendable, Equatable {
    /// What a network error during a flush does.
    public enum OnNetworkError: String, Sendable, Equatable {
        /// Keep the item and stop flushing (order preserved).
        case keepAndStop
    }
    /// What a refusal by the server does.
    public enum OnRejected: String, Sendable, Equatable {
        /// Drop the item and tell the user.
        case dropAndReport
    }
    /// How conflicts are resolved.
    public enum Conflicts: String, Sendable, Equatable {
        /// No conflicts can arise (create-only queues).
        case none
        /// The later timestamp wins.
        case lastWriteWins
    }
    /// Queued operations (or tables).
    public var operations: [String]
    /// The cache entry holding the queue.
    public var cacheKey: String
    /// Network-error rule.
    public var onNetworkError: OnNetworkError
    /// Rejection rule.
    public var onRejected: OnRejected
    /// Conflict rule.
    public var conflicts: Conflicts
    /// The timestamp column compared under last-write-wins.
    public var conflictTimestamp: String?
    /// Statuses that are not a refusal of the item but a passing failure (expired session, rate
    /// limit, server error): handled as a network error (`transient`: `statuses` and `from`…`to`).
    public var transientStatuses: [ClosedRange<Int>] = []

    /// Whether `status` is transient (kept and retried later) rather than a refusal.
    public func isTransient(_ status: Int) -> Bool { transientStatuses.contains { $0.contains(status) } }
}

/// A network deadline (TeleportMe §3.7).
public struct TimeoutRule: Sendable, Equatable {
    /// Rule id.
    public var id: String
    /// The operation.
    public var operation: String
    /// Deadline in seconds.
    public var seconds: TimeInterval
}

/// An app's client-rules.json.
public struct ClientRules: Sendable, Equatable {
    /// The app (`teleportme`).
    public var app: String
    /// The file, as named in errors.
    public var file: String
    /// Cache rules.
    public var cache: CacheRules?
    /// Cache-then-network rules.
    public var loader: LoaderRules?
    /// Optimistic-update rules.
    public var optimistic: OptimisticRules?
    /// Rate limits.
    public var rateLimits: RateLimitRules?
    /// Realtime limits.
    public var realtime: RealtimeRules?
    /// Image presets.
    public var images: [ImagePreset]
    /// Network deadlines.
    public var timeouts: [TimeoutRule]
    /// Offline mutation queue.
    public var offlineQueue: OfflineQueueRules?

    /// Every rule id in the file (entries, behaviours, actions, presets, timeouts, …).
    public var ruleIDs: [String] {
        var ids: [String] = []
        if let c = cache {
            ids += c.entries.map(\.id) + c.invalidation.map(\.id) + c.behaviours.map(\.id)
            ids += c.performance.map(\.id)
        }
        if let l = loader { ids += l.resources.map(\.id) + l.behaviours.map(\.id) }
        if let o = optimistic { ids += [o.resource.id] + o.behaviours.map(\.id) }
        if let r = rateLimits { ids += r.actions.map(\.id) + r.behaviours.map(\.id) }
        if let r = realtime { ids += r.behaviours.map(\.id) }
        ids += images.map(\.id) + timeouts.map(\.id)
        return ids
    }

    /// The timeout of an operation id (`timeout.rest`).
    public func timeout(_ id: String) -> TimeInterval? { timeouts.first { $0.id == id }?.seconds }

    /// Loads `Contracts/<app>/client-rules.json`; nil when the app has none.
    public static func load(app: String) throws -> ClientRules? {
        let url = ContractsLocator.app(app).appendingPathComponent("client-rules.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try load(url, displayName: "Contracts/\(app)/client-rules.json")
    }

    /// Loads and validates a client-rules file.
    public static func load(_ url: URL, displayName: String? = nil) throws -> ClientRules {
        try decode(try SpecNode.load(url, displayName: displayName))
    }

    /// Decodes a parsed client-rules file.
    public static func decode(_ root: SpecNode) throws -> ClientRules {
        var seen: [String: String] = [:]
        func claim(_ id: SpecNode) throws -> String {
            let s = try id.string()
            guard s.range(of: #"^[a-z]+(\.[A-Za-z0-9:-]+)+$"#, options: .regularExpression) != nil else {
                throw id.fail("rule id '\(s)' must look like 'area.name' (letters, digits, '-', ':' after the first dot)")
            }
            if let first = seen[s] { throw id.fail("duplicate rule id '\(s)' (first at \(first))") }
            seen[s] = id.path
            return s
        }
        func behaviours(_ n: SpecNode?, known: Set<String>, area: String) throws -> [BehaviourRule] {
            guard let n else { return [] }
            return try n.array().map { b in
                try b.object { o in
                    let idNode = try o.required("id")
                    let id = try claim(idNode)
                    guard known.contains(id) else {
                        throw idNode.fail("no \(area) suite checks '\(id)' (known: \(known.sorted().joined(separator: ", ")))")
                    }
                    return BehaviourRule(id: id, doc: try o.required("doc").string(), source: try o.optional("source")?.string())
                }
            }
        }
        func positive(_ n: SpecNode, allowZero: Bool = false) throws -> Double {
            let d = try n.double()
            guard d.isFinite, allowZero ? d >= 0 : d > 0 else { throw n.fail("expected a \(allowZero ? "non-negative" : "positive") number, found \(d)") }
            return d
        }
        func enumValue<E: RawRepresentable>(_ n: SpecNode, _ type: E.Type, _ allowed: [String]) throws -> E where E.RawValue == String {
            let s = try n.string()
            guard let v = E(rawValue: s) else { throw n.fail("unknown value '\(s)' (expected one of: \(allowed.joined(separator: ", ")))") }
            return v
        }
        func meta(_ o: SpecObject) throws {
            for k in ["source", "decision", "doc"] { _ = try o.optional(k)?.string() }
        }

        return try root.object { o in
            let app = try o.required("app").string()
            _ = try o.required("source").string()
            var rules = ClientRules(app: app, file: root.file, cache: nil, loader: nil, optimistic: nil, rateLimits: nil,
                                    realtime: nil, images: [], timeouts: [], offlineQueue: nil)

            if let c = o.optional("cache") {
                rules.cache = try c.object { co in
                    try meta(co)
                    let storage = try enumValue(try co.required("storage"), CacheRules.Storage.self, ["files", "memory"])
                    var layout: CacheLayout?
                    if let l = co.optional("layout") {
                        guard storage == .files else { throw l.fail("a layout is only meaningful for storage 'files'") }
                        layout = try l.object { lo in
                            try meta(lo)
                            _ = try lo.optional("file")?.string()
                            _ = try lo.optional("envelope")?.string()
                            let v = try lo.required("formatVersion")
                            let version = try v.int()
                            guard version >= 1 else { throw v.fail("formatVersion must be at least 1") }
                            let perUser = try lo.required("perUser")
                            let perUserText = try perUser.string()
                            guard perUserText.contains("{userId}") else { throw perUser.fail("perUser must contain '{userId}'") }
                            return CacheLayout(root: try lo.required("root").string(), global: try lo.required("global").string(),
                                               perUser: perUserText, formatVersion: version)
                        }
                    } else if storage == .files {
                        throw co.this.fail("storage 'files' needs a 'layout'")
                    }
                    let freshness = try co.required("freshness").object { fo in
                        try meta(fo)
                        return FreshnessRule(staleWhenAge: try enumValue(try fo.required("staleWhenAge"), StalenessBoundary.self, ["atLeastTTL", "moreThanTTL"]),
                                             probeSeconds: try positive(try fo.required("probeSeconds")))
                    }
                    var keys: Set<String> = []
                    let entries: [CacheEntryRule] = try co.required("entries").array().map { e in
                        try e.object { eo in
                            try meta(eo)
                            let id = try claim(try eo.required("id"))
                            let keyNode = try eo.required("key")
                            let key = try keyNode.string()
                            guard CacheKey.isSafeComponent(key) else { throw keyNode.fail("key '\(key)' must be letters, digits, '_' or '-' (it names a file)") }
                            guard keys.insert(key).inserted else { throw keyNode.fail("duplicate cache key '\(key)'") }
                            let scope = try enumValue(try eo.required("scope"), CacheScope.self, ["global", "user"])
                            let ttlNode = try eo.required("ttlSeconds")
                            let ttl: Double? = ttlNode.value.isNull ? nil : try positive(ttlNode, allowZero: true)
                            let write = try eo.optional("write")?.object { wo in
                                try meta(wo)
                                let op = try wo.required("operation")
                                let name = try op.string()
                                guard name.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
                                    throw op.fail("an operation is a name without brackets (generateReport), not '\(name)'")
                                }
                                return CacheWriteTrigger(operation: name,
                                                         on: try enumValue(try wo.required("on"), CacheWriteTrigger.Moment.self, CacheWriteTrigger.Moment.allCases.map(\.rawValue)))
                            }
                            return CacheEntryRule(id: id, key: key, scope: scope, ttlSeconds: ttl,
                                                  qualifiers: try eo.optional("qualifiers")?.strings() ?? [],
                                                  writeTrigger: try eo.optional("writeTrigger")?.string(), write: write)
                        }
                    }
                    if entries.isEmpty { throw try co.required("entries").fail("at least one cache entry is needed") }
                    let smallest = entries.compactMap(\.ttlSeconds).filter { $0 > 0 }.min()
                    if let smallest, freshness.probeSeconds * 2 >= smallest {
                        throw try co.required("freshness").fail("probeSeconds \(freshness.probeSeconds) must be under half the smallest TTL (\(smallest) s)")
                    }
                    let invalidation: [InvalidationRule] = try co.optional("invalidation")?.array().map { i in
                        try i.object { io in
                            try meta(io)
                            let id = try claim(try io.required("id"))
                            let event = try io.required("event").string()
                            let cl = try io.required("clears")
                            let target: InvalidationTarget
                            if case .string(let s) = cl.value {
                                guard s == "allUserEntries" else { throw cl.fail("expected \"allUserEntries\" or a list of keys, found '\(s)'") }
                                target = .allUserEntries
                            } else {
                                let ks = try cl.array()
                                for k in ks {
                                    let name = try k.string()
                                    guard let entry = entries.first(where: { $0.key == name }) else { throw k.fail("unknown cache key '\(name)'") }
                                    guard entry.qualifiers.isEmpty else { throw k.fail("'\(name)' is qualified by \(entry.qualifiers); invalidating a qualified entry by name is not supported") }
                                }
                                guard !ks.isEmpty else { throw cl.fail("an invalidation must clear at least one key") }
                                target = .keys(try ks.map { try $0.string() })
                            }
                            return InvalidationRule(id: id, event: event, clears: target)
                        }
                    } ?? []
                    let bs = try behaviours(co.optional("behaviours"), known: CacheStoreSuite.behaviourIDs, area: "cache")
                    for b in bs where storage == .memory && CacheStoreSuite.fileBehaviourIDs.contains(b.id) {
                        throw try co.required("behaviours").fail("'\(b.id)' applies to storage 'files' only")
                    }
                    let perf: [PerformanceRule] = try co.optional("performance")?.array().map { p in
                        try p.object { po in
                            try meta(po)
                            return PerformanceRule(id: try claim(try po.required("id")),
                                                   operation: try enumValue(try po.required("operation"), PerformanceRule.Operation.self, ["hit", "read", "write"]),
                                                   maxMilliseconds: try positive(try po.required("maxMilliseconds")),
                                                   measuredBy: try po.required("measuredBy").string())
                        }
                    } ?? []
                    var rules = CacheRules(storage: storage, layout: layout, freshness: freshness, entries: entries,
                                           invalidation: invalidation, behaviours: bs, performance: perf)
                    if let on = co.optional("invalidatedOn") {
                        rules.invalidatedOn = try on.strings()
                        for kind in rules.invalidatedOn {
                            for e in entries where e.qualifiers.isEmpty {
                                let clearedBy = invalidation.filter { r in
                                    guard r.event == kind || r.event.hasPrefix(kind + ":") else { return false }
                                    if case .keys(let ks) = r.clears { return ks.contains(e.key) }
                                    return e.scope == .user
                                }
                                if clearedBy.isEmpty {
                                    throw on.fail("no '\(kind)' invalidation clears '\(e.key)' (every entry is invalidated on \(rules.invalidatedOn.joined(separator: ", ")))")
                                }
                            }
                        }
                    }
                    return rules
                }
            }

            if let l = o.optional("loader") {
                rules.loader = try l.object { lo in
                    try meta(lo)
                    let resources: [LoaderResource] = try lo.required("resources").array().map { r in
                        try r.object { ro in
                            try meta(ro)
                            let id = try claim(try ro.required("id"))
                            let keyNode = try ro.required("cacheKey")
                            let key = try keyNode.string()
                            guard let cache = rules.cache else { throw keyNode.fail("a loader resource needs a 'cache' section") }
                            guard let entry = cache.entry(key) else { throw keyNode.fail("unknown cache key '\(key)'") }
                            guard entry.qualifiers.isEmpty else { throw keyNode.fail("a loader resource cannot use the qualified entry '\(key)'") }
                            let pathNode = try ro.required("path")
                            let path = try pathNode.string()
                            guard path.hasPrefix("/rest/v1/") else { throw pathNode.fail("expected a PostgREST path (/rest/v1/…), found '\(path)'") }
                            return LoaderResource(id: id, cacheKey: key, path: path, query: try ro.required("query").string(),
                                                  persona: try ro.required("as").string())
                        }
                    }
                    return LoaderRules(steps: try lo.required("steps").strings(), staleBanner: try lo.required("staleBanner").bool(),
                                       resources: resources,
                                       behaviours: try behaviours(lo.optional("behaviours"), known: LoaderSuite.behaviourIDs, area: "loader"))
                }
            }

            if let op = o.optional("optimistic") {
                rules.optimistic = try op.object { oo in
                    try meta(oo)
                    let resource = try oo.required("resource").object { ro in
                        try meta(ro)
                        let id = try claim(try ro.required("id"))
                        let keyNode = try ro.required("cacheKey")
                        let key = try keyNode.string()
                        guard let entry = rules.cache?.entry(key) else { throw keyNode.fail("unknown cache key '\(key)'") }
                        guard entry.scope == .user else { throw keyNode.fail("an optimistic list is per user; '\(key)' is \(entry.scope.rawValue)") }
                        return OptimisticResource(id: id, cacheKey: key, table: try ro.required("table").string(),
                                                  itemColumn: try ro.required("itemColumn").string(),
                                                  ownerColumn: try ro.required("ownerColumn").string(), persona: try ro.required("as").string())
                    }
                    let failures: [OptimisticFailure] = try oo.required("failures").array().map { f in
                        try f.object { fo in
                            try meta(fo)
                            let kind = try fo.required("kind")
                            switch try kind.string() {
                            case "networkError": return .networkError
                            case "status":
                                let s = try fo.required("status")
                                let code = try s.int()
                                guard (400...599).contains(code) else { throw s.fail("a failure status must be 4xx or 5xx, found \(code)") }
                                return .status(code)
                            case let k: throw kind.fail("unknown failure kind '\(k)' (expected networkError or status)")
                            }
                        }
                    }
                    return OptimisticRules(resource: resource, failures: failures,
                                           behaviours: try behaviours(oo.optional("behaviours"), known: OptimisticSuite.behaviourIDs, area: "optimistic"))
                }
            }

            if let r = o.optional("rateLimits") {
                rules.rateLimits = try r.object { ro in
                    try meta(ro)
                    let (boundary, probe) = try ro.required("boundary").object { bo -> (RateLimitRules.Boundary, Double) in
                        try meta(bo)
                        return (try enumValue(try bo.required("allowedWhenElapsed"), RateLimitRules.Boundary.self, ["atLeastInterval", "moreThanInterval"]),
                                try positive(try bo.required("probeSeconds")))
                    }
                    let recording = try ro.required("recording").object { x in
                        try meta(x)
                        return try enumValue(try x.required("records"), RateLimitRules.Recording.self, ["allowedOnly", "everyAttempt"])
                    }
                    let keying = try ro.required("targets").object { x in
                        try meta(x)
                        return try enumValue(try x.required("keyedBy"), RateLimitRules.Keying.self, ["actionAndTarget", "action"])
                    }
                    var names: Set<String> = []
                    let actions: [RateLimitAction] = try ro.required("actions").array().map { a in
                        try a.object { ao in
                            try meta(ao)
                            let id = try claim(try ao.required("id"))
                            let nameNode = try ao.required("action")
                            let name = try nameNode.string()
                            guard names.insert(name).inserted else { throw nameNode.fail("duplicate action '\(name)'") }
                            let iv = try ao.required("minimumIntervalSeconds")
                            let interval = try positive(iv)
                            guard probe * 2 < interval else { throw iv.fail("interval \(interval) s must exceed twice the probe (\(probe) s)") }
                            return RateLimitAction(id: id, action: name, minimumInterval: interval)
                        }
                    }
                    return RateLimitRules(boundary: boundary, probeSeconds: probe, recording: recording, keying: keying,
                                          onLimited: try ro.required("onLimited").string(), actions: actions,
                                          behaviours: try behaviours(ro.optional("behaviours"), known: RateLimiterSuite.behaviourIDs, area: "rate-limit"))
                }
            }

            if let r = o.optional("realtime") {
                rules.realtime = try r.object { ro in
                    try meta(ro)
                    let maxNode = try ro.required("maxSubscriptions")
                    let max = try maxNode.int()
                    guard max >= 1 else { throw maxNode.fail("maxSubscriptions must be at least 1") }
                    let onLimit = try ro.required("onLimit")
                    guard try onLimit.string() == "evictOldest" else { throw onLimit.fail("only 'evictOldest' is defined") }
                    let resub = try ro.required("resubscribe")
                    guard try resub.string() == "viewLifecycle" else { throw resub.fail("only 'viewLifecycle' is defined") }
                    return RealtimeRules(maxSubscriptions: max,
                                         backgroundDropAfter: try positive(try ro.required("backgroundDropAfterSeconds"), allowZero: true),
                                         probeSeconds: try positive(try ro.required("probeSeconds")),
                                         behaviours: try behaviours(ro.optional("behaviours"), known: RealtimeSuite.behaviourIDs, area: "realtime"))
                }
            }

            if let im = o.optional("images") {
                rules.images = try im.object { io in
                    try meta(io)
                    return try io.required("presets").array().map { p in
                        try p.object { po in
                            try meta(po)
                            func positiveInt(_ k: String) throws -> Int {
                                let n = try po.required(k)
                                let v = try n.int()
                                guard v > 0 else { throw n.fail("expected a positive integer, found \(v)") }
                                return v
                            }
                            return ImagePreset(id: try claim(try po.required("id")), name: try po.required("name").string(),
                                               maxDimensionPixels: try positiveInt("maxDimensionPixels"), maxBytes: try positiveInt("maxBytes"),
                                               buckets: try po.optional("buckets")?.strings() ?? [])
                        }
                    }
                }
            }

            if let q = o.optional("offlineQueue") {
                rules.offlineQueue = try q.object { qo in
                    try meta(qo)
                    let keyNode = try qo.required("cacheKey")
                    let key = try keyNode.string()
                    guard let entry = rules.cache?.entry(key) else { throw keyNode.fail("unknown cache key '\(key)'") }
                    guard entry.scope == .user, entry.ttlSeconds == nil else { throw keyNode.fail("the queue's entry '\(key)' must be per user with no TTL (unsent work never expires)") }
                    let order = try qo.required("order")
                    guard try order.string() == "fifo" else { throw order.fail("only 'fifo' is defined") }
                    let conflicts = try enumValue(try qo.required("conflicts"), OfflineQueueRules.Conflicts.self, ["none", "lastWriteWins"])
                    let stamp = try qo.optional("conflictTimestamp")?.string()
                    if conflicts == .lastWriteWins && stamp == nil { throw qo.this.fail("lastWriteWins needs a 'conflictTimestamp' column") }
                    var q = OfflineQueueRules(operations: try qo.required("operations").strings(), cacheKey: key,
                                              onNetworkError: try enumValue(try qo.required("onNetworkError"), OfflineQueueRules.OnNetworkError.self, ["keepAndStop"]),
                                              onRejected: try enumValue(try qo.required("onRejected"), OfflineQueueRules.OnRejected.self, ["dropAndReport"]),
                                              conflicts: conflicts, conflictTimestamp: stamp)
                    if let t = qo.optional("transient") {
                        q.transientStatuses = try t.object { to in
                            _ = to.optional("decision")
                            var r = try to.required("statuses").array().map { n -> ClosedRange<Int> in let v = try n.int(); return v...v }
                            let from = try to.required("from").int(), upTo = try to.required("to").int()
                            guard from <= upTo else { throw to.this.fail("from must not exceed to") }
                            r.append(from...upTo)
                            return r
                        }
                    }
                    return q
                }
            }

            rules.timeouts = try o.optional("timeouts")?.array().map { t in
                try t.object { to in
                    try meta(to)
                    let id = try claim(try to.required("id"))
                    let s = try to.required("seconds")
                    return TimeoutRule(id: id, operation: try to.required("operation").string(), seconds: try positive(s))
                }
            } ?? []
            if let c = rules.cache {
                for (i, e) in c.entries.enumerated() where e.write?.on == .everyChange && rules.optimistic?.resource.cacheKey != e.key {
                    throw SpecNode(value: .null, file: root.file, path: "$.cache.entries[\(i)].write.on")
                        .fail("'everyChange' is checked by the optimistic suite: the optimistic resource must use '\(e.key)'")
                }
            }
            let needsNetwork = !(rules.loader?.resources.isEmpty ?? true) || rules.optimistic != nil
            if needsNetwork && rules.timeout("timeout.rest") == nil {
                throw (o.optional("timeouts") ?? o.this).fail("loader resources and optimistic updates send REST requests: a 'timeout.rest' rule is required")
            }
            return rules
        }
    }
}
