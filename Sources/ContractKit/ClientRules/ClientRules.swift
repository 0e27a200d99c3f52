import Foundation

// Contracts/<app>/client-rules.json: the rules a client of the app's backend follows on the
// device (cache keys and TTLs, cache-then-network loading, optimistic updates, rate limits,
// realtime limits, image presets, timeouts). Decoded strictly: unknown keys, wrong types,
// dangling references and rule ids no suite knows are errors naming the file and JSON path.

/// A behaviour the document states, by id; the suites check the ids an app lists.
package struct BehaviourRule: Sendable, Equatable, Decodable {
    /// Rule id (`cache.corrupt-entry-deleted`), named by every violation of it.
    package var id: String
    /// The rule in words.
    package var doc: String
    /// Where the document states it.
    package var source: String?
}

/// Where a cache entry lives.
package enum CacheScope: String, Sendable, Equatable, CaseIterable {
    /// Shared by every user of the device (reference data).
    case global
    /// Private to one signed-in user.
    case user
}

/// When an entry's age makes it stale.
public enum StalenessBoundary: String, Sendable, Equatable, CaseIterable {
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
package struct FreshnessRule: Sendable, Equatable, Decodable {
    package var staleWhenAge: StalenessBoundary
    /// How far before and after a boundary the suites probe, in seconds.
    package var probeSeconds: TimeInterval
}

/// One row of a cache table (TeleportMe §3.6, Naar's Cars FR-042).
package struct CacheEntryRule: Sendable, Equatable {
    /// Rule id (`cache.savedCities`).
    package var id: String
    /// The key's name (`savedCities`), also its file name.
    package var key: String
    /// Global or per user.
    package var scope: CacheScope
    /// Time to live in seconds; nil means never stale.
    package var ttlSeconds: TimeInterval?
    /// Names of the parts that qualify the key (`category`, `date`), if any.
    package var qualifiers: [String]
    /// What writes the entry, in the document's words.
    package var writeTrigger: String?
    /// The same, structured (`"write": {"operation", "on"}`), checked by `CacheWriteTriggerSuite`.
    package var write: CacheWriteTrigger? = nil
}

/// What an invalidation event removes.
package enum InvalidationTarget: Sendable, Equatable {
    /// Every per-user entry of the user (sign-out, logout).
    case allUserEntries
    /// These keys of the user (or the global ones, for global keys).
    case keys([String])
}

/// An event that invalidates cache entries (Naar's Cars FR-044, TeleportMe sign-out).
public struct InvalidationRule: Sendable, Equatable {
    package var id: String
    /// The event (`signOut`, `mutation:rides`, `pullToRefresh:rides`).
    package var event: String
    /// What it removes.
    package var clears: InvalidationTarget
}

/// How cache files are laid out on disk (TeleportMe §3.2).
package struct CacheLayout: Sendable, Equatable {
    /// The document's root folder.
    package var root: String
    /// Folder of global entries, relative to the root.
    package var global: String
    /// Folder of a user's entries, relative to the root; `{userId}` is replaced.
    package var perUser: String
    /// The version written into every file; files of another version are dropped.
    package var formatVersion: Int
}

/// A speed target, measured by a benchmark (never by a unit test).
package struct PerformanceRule: Sendable, Equatable, Decodable {
    /// What is timed.
    package enum Operation: String, Sendable, Equatable, CaseIterable {
        /// Loading an entry that is there (a cache hit).
        case hit
        /// Reading an entry's file.
        case read
        /// Writing an entry's file (atomically).
        case write
    }
    package var id: String
    package var operation: Operation
    package var maxMilliseconds: Double
    /// The command that measures it.
    package var measuredBy: String
}

public struct CacheRules: Sendable, Equatable {
    /// On disk (`files`) or in memory (`memory`).
    package enum Storage: String, Sendable, Equatable, CaseIterable {
        /// JSON files, surviving a relaunch.
        case files
        case memory
    }
    package var storage: Storage
    /// The file layout (files only).
    package var layout: CacheLayout?
    package var freshness: FreshnessRule
    package var entries: [CacheEntryRule]
    package var invalidation: [InvalidationRule]
    /// Behaviours the suite checks.
    package var behaviours: [BehaviourRule]
    /// Speed targets the document states.
    package var performance: [PerformanceRule]
    /// Kinds of event every entry must be cleared by (`mutation`, `pullToRefresh`, `logout`:
    /// Naar's Cars FR-044); an event `kind` or `kind:…` counts. Checked when the file loads.
    package var invalidatedOn: [String] = []

    package func entry(_ key: String) -> CacheEntryRule? { entries.first { $0.key == key } }
    package func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
}

/// A REST resource loaded cache-then-network.
public struct LoaderResource: Sendable, Equatable, Decodable {
    package var id: String
    /// The cache entry it is kept in.
    package var cacheKey: String
    /// The PostgREST path (`/rest/v1/cities`).
    package var path: String
    /// The query string (`select=*&order=id.asc`).
    package var query: String
    /// The persona the requests are made as.
    package var persona: String
    enum CodingKeys: String, CodingKey { case id, cacheKey, path, query, persona = "as" }
}

/// The cache-then-network pattern (TeleportMe §3.6).
package struct LoaderRules: Sendable, Equatable {
    /// The document's steps.
    package var steps: [String]
    /// Whether cached data shown after a failed refresh carries a "stale" banner.
    package var staleBanner: Bool
    /// Resources loaded this way.
    package var resources: [LoaderResource]
    /// Behaviours the suite checks.
    package var behaviours: [BehaviourRule]
    package func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
}

/// The table an optimistic save/unsave writes.
public struct OptimisticResource: Sendable, Equatable, Decodable {
    package var id: String
    /// The cache entry holding the list.
    package var cacheKey: String
    /// The table (`saved_cities`).
    package var table: String
    /// The column naming the saved item (`city_id`).
    package var itemColumn: String
    /// The column naming the owner (`user_id`).
    package var ownerColumn: String
    package var persona: String
    enum CodingKeys: String, CodingKey { case id, cacheKey, table, itemColumn, ownerColumn, persona = "as" }
}

/// A failure the optimistic suite injects.
package enum OptimisticFailure: Sendable, Equatable {
    /// The transport fails.
    case networkError
    /// The server answers with this status.
    case status(Int)
}

/// The optimistic update pattern (TeleportMe §3.6, §5.3).
package struct OptimisticRules: Sendable, Equatable {
    package var resource: OptimisticResource
    /// Failures to inject, each checked for rollback.
    package var failures: [OptimisticFailure]
    /// Behaviours the suite checks.
    package var behaviours: [BehaviourRule]
    package func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
}

/// One rate-limited action (Naar's Cars FR-045).
package struct RateLimitAction: Sendable, Equatable, Decodable {
    package var id: String
    /// The action's name (`claimUnclaim`).
    package var action: String
    /// The minimum interval between two allowed attempts, in seconds.
    package var minimumInterval: TimeInterval
    enum CodingKeys: String, CodingKey { case id, action, minimumInterval = "minimumIntervalSeconds" }
}

public struct RateLimitRules: Sendable, Equatable {
    /// Whether an attempt exactly one interval later is allowed (`atLeastInterval`) or only a later one.
    package enum Boundary: String, Sendable, Equatable, CaseIterable {
        /// elapsed >= interval is allowed.
        case atLeastInterval
        /// elapsed > interval is allowed.
        case moreThanInterval
    }
    /// Which attempts start a new interval.
    package enum Recording: String, Sendable, Equatable, CaseIterable {
        case allowedOnly
        /// Every attempt, blocked ones included.
        case everyAttempt
    }
    /// What an interval is kept per.
    package enum Keying: String, Sendable, Equatable, CaseIterable {
        /// Per action and target (ride, conversation).
        case actionAndTarget
        /// Per action only.
        case action
    }
    package var boundary: Boundary
    /// Probe distance around boundaries, in seconds.
    package var probeSeconds: TimeInterval
    package var recording: Recording
    package var keying: Keying
    /// What the user sees when limited, in words.
    package var onLimited: String
    package var actions: [RateLimitAction]
    /// Behaviours the suite checks.
    package var behaviours: [BehaviourRule]
    package func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
    public func interval(_ action: String) -> TimeInterval? { actions.first { $0.action == action }?.minimumInterval }
}

/// Realtime subscription limits (Naar's Cars FR-049, CivicForge §3).
public struct RealtimeRules: Sendable, Equatable {
    package var maxSubscriptions: Int
    /// Seconds in the background after which every subscription is dropped (0: at once).
    package var backgroundDropAfter: TimeInterval
    /// Probe distance around the delay, in seconds.
    package var probeSeconds: TimeInterval
    /// Behaviours the suite checks.
    package var behaviours: [BehaviourRule]
    package func has(_ behaviour: String) -> Bool { behaviours.contains { $0.id == behaviour } }
}

/// An image preset (Naar's Cars FR-047 `ImageCompressor`).
public struct ImagePreset: Sendable, Equatable {
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
    package enum OnNetworkError: String, Sendable, Equatable, CaseIterable {
        /// Keep the item and stop flushing (order preserved).
        case keepAndStop
    }
    /// What a refusal by the server does.
    package enum OnRejected: String, Sendable, Equatable, CaseIterable {
        /// Drop the item and tell the user.
        case dropAndReport
    }
    /// How conflicts are resolved.
    package enum Conflicts: String, Sendable, Equatable, CaseIterable {
        /// No conflicts can arise (create-only queues).
        case none
        /// The later timestamp wins.
        case lastWriteWins
    }
    /// Queued operations (or tables).
    package var operations: [String]
    /// The cache entry holding the queue.
    package var cacheKey: String
    package var onNetworkError: OnNetworkError
    package var onRejected: OnRejected
    package var conflicts: Conflicts
    /// The timestamp column compared under last-write-wins.
    package var conflictTimestamp: String?
    /// Statuses that are not a refusal of the item but a passing failure (expired session, rate
    /// limit, server error): handled as a network error (`transient`: `statuses` and `from`…`to`).
    package var transientStatuses: [ClosedRange<Int>] = []

    /// Whether `status` is transient (kept and retried later) rather than a refusal.
    public func isTransient(_ status: Int) -> Bool { transientStatuses.contains { $0.contains(status) } }
}

/// A network deadline (TeleportMe §3.7).
package struct TimeoutRule: Sendable, Equatable, Decodable {
    package var id: String
    package var operation: String
    package var seconds: TimeInterval
}

/// An app's client-rules.json.
public struct ClientRules: Sendable, Equatable {
    /// The app (`teleportme`).
    public var app: String
    /// The file, as named in errors.
    package var file: String
    public var cache: CacheRules?
    /// Cache-then-network rules.
    package var loader: LoaderRules?
    package var optimistic: OptimisticRules?
    public var rateLimits: RateLimitRules?
    public var realtime: RealtimeRules?
    public var images: [ImagePreset]
    /// Network deadlines.
    package var timeouts: [TimeoutRule]
    public var offlineQueue: OfflineQueueRules?

    /// Every rule id in the file (entries, behaviours, actions, presets, timeouts, …).
    package var ruleIDs: [String] {
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
        try SpecNode.load(url, displayName: displayName).decode(ClientRules.self)
    }
}
