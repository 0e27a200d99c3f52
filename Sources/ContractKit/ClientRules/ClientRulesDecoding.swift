import Foundation

// How client-rules.json decodes: through the contract decoder, each type checking itself
// (`ContractChecked`, or `init(from:)` where a member has a default or a reference); references
// between sections (a loader resource's cache key) go through the decoding state, filled in file
// order by `ClientRules`. Every object may carry notes for people (`source`, `decision`, `doc`).

/// The state entries client-rules decoding shares between its types.
private enum Shared {
    static let ruleIDs = "clientRules.ruleIDs"
    static let cache = "clientRules.cache"
    static let entries = "clientRules.entries"
}

extension Decoder {
    /// Claims the member `key` as a rule id: `area.name`, unique in the file (the error names the first use).
    func claimRuleID(_ id: String, _ key: String = "id") throws {
        guard id.range(of: #"^[a-z]+(\.[A-Za-z0-9:-]+)+$"#, options: .regularExpression) != nil else {
            throw fail(key, "rule id '\(id)' must look like 'area.name' (letters, digits, '-', ':' after the first dot)")
        }
        let state = contractState
        var seen = state?.values[Shared.ruleIDs] as? [String: String] ?? [:]
        if let first = seen[id] { throw fail(key, "duplicate rule id '\(id)' (first at \(first))") }
        seen[id] = SpecNode.childPath(jsonPath, key)
        state?.values[Shared.ruleIDs] = seen
    }

    /// The cache section decoded before this node (nil when the file has none).
    var cacheRules: CacheRules? { contractState?.values[Shared.cache] as? CacheRules }
}

/// The suite that checks a section's behaviours: the ids it knows and the area named in errors.
protocol BehaviourCatalog {
    static var behaviourIDs: Set<String> { get }
    static var area: String { get }
}
extension CacheStoreSuite: BehaviourCatalog { static var area: String { "cache" } }
extension LoaderSuite: BehaviourCatalog { static var area: String { "loader" } }
extension OptimisticSuite: BehaviourCatalog { static var area: String { "optimistic" } }
extension RateLimiterSuite: BehaviourCatalog { static var area: String { "rate-limit" } }
extension RealtimeSuite: BehaviourCatalog { static var area: String { "realtime" } }

/// A section's behaviours, each an id its suite knows.
struct Behaviours<Suite: BehaviourCatalog>: Decodable {
    var rules: [BehaviourRule]
    init(from decoder: Decoder) throws {
        rules = try [BehaviourRule](from: decoder)
        for (i, r) in rules.enumerated() where !Suite.behaviourIDs.contains(r.id) {
            let known = Suite.behaviourIDs.sorted().joined(separator: ", ")
            throw decoder.fail([AnyKey(intValue: i)!, AnyKey("id")], "no \(Suite.area) suite checks '\(r.id)' (known: \(known))")
        }
    }
}

extension BehaviourRule: ContractChecked {
    package func validate(_ decoder: Decoder) throws { try decoder.claimRuleID(id) }
}

extension KeyedDecodingContainer {
    /// A section's behaviours (none when absent).
    func behaviours<S: BehaviourCatalog>(_ suite: S.Type, _ key: Key) throws -> [BehaviourRule] {
        try decodeIfPresent(Behaviours<S>.self, forKey: key)?.rules ?? []
    }
}

extension CacheScope: ContractEnum {}
extension StalenessBoundary: ContractEnum {}
extension CacheRules.Storage: ContractEnum {}
extension PerformanceRule.Operation: ContractEnum {}
extension CacheWriteTrigger.Moment: ContractEnum {}
extension RateLimitRules.Boundary: ContractEnum {}
extension RateLimitRules.Recording: ContractEnum {}
extension RateLimitRules.Keying: ContractEnum {}
extension OfflineQueueRules.OnNetworkError: ContractEnum {}
extension OfflineQueueRules.OnRejected: ContractEnum {}
extension OfflineQueueRules.Conflicts: ContractEnum {}

extension CacheLayout: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case file, envelope, formatVersion, perUser, root, global }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decodeIfPresent(String.self, forKey: .file)
        _ = try c.decodeIfPresent(String.self, forKey: .envelope)
        formatVersion = try c.decode(Int.self, forKey: .formatVersion)
        guard formatVersion >= 1 else { throw c.fail(.formatVersion, "formatVersion must be at least 1") }
        perUser = try c.decode(String.self, forKey: .perUser)
        guard perUser.contains("{userId}") else { throw c.fail(.perUser, "perUser must contain '{userId}'") }
        root = try c.decode(String.self, forKey: .root)
        global = try c.decode(String.self, forKey: .global)
    }
}

extension FreshnessRule: ContractChecked {
    package func validate(_ decoder: Decoder) throws { try decoder.checkPositive(probeSeconds, "probeSeconds") }
}

extension CacheWriteTrigger: ContractChecked {
    package func validate(_ decoder: Decoder) throws {
        guard operation.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
            throw decoder.fail("operation", "an operation is a name without brackets (generateReport), not '\(operation)'")
        }
    }
}

extension CacheEntryRule: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case id, key, scope, ttlSeconds, write, qualifiers, writeTrigger }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        try decoder.claimRuleID(id)
        key = try c.decode(String.self, forKey: .key)
        guard CacheKey.isSafeComponent(key) else { throw c.fail(.key, "key '\(key)' must be letters, digits, '_' or '-' (it names a file)") }
        scope = try c.decode(CacheScope.self, forKey: .scope)
        ttlSeconds = try c.decodeNullable(Double.self, forKey: .ttlSeconds)
        try decoder.checkNonNegative(ttlSeconds, "ttlSeconds")
        write = try c.decodeIfPresent(CacheWriteTrigger.self, forKey: .write)
        qualifiers = try c.decodeIfPresent([String].self, forKey: .qualifiers) ?? []
        writeTrigger = try c.decodeIfPresent(String.self, forKey: .writeTrigger)
    }
}

/// An invalidation as written, before its keys are checked against the entries.
private struct RawInvalidation: Decodable {
    var id: String
    var event: String
    var clears: InvalidationTarget
    enum CodingKeys: String, CodingKey, CaseIterable { case id, event, clears }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        try decoder.claimRuleID(id)
        event = try c.decode(String.self, forKey: .event)
        let entries = decoder.contractState?.values[Shared.entries] as? [CacheEntryRule] ?? []
        let node = try c.decode(SpecNode.self, forKey: .clears)
        if case .string(let s) = node.value {
            guard s == "allUserEntries" else { throw node.fail("expected \"allUserEntries\" or a list of keys, found '\(s)'") }
            clears = .allUserEntries
        } else {
            let ks = try node.array()
            for k in ks {
                let name = try k.string()
                guard let entry = entries.first(where: { $0.key == name }) else { throw k.fail("unknown cache key '\(name)'") }
                guard entry.qualifiers.isEmpty else {
                    throw k.fail("'\(name)' is qualified by \(entry.qualifiers); invalidating a qualified entry by name is not supported")
                }
            }
            guard !ks.isEmpty else { throw node.fail("an invalidation must clear at least one key") }
            clears = .keys(try ks.map { try $0.string() })
        }
    }
}

extension PerformanceRule: ContractChecked {
    package func validate(_ decoder: Decoder) throws {
        try decoder.claimRuleID(id)
        try decoder.checkPositive(maxMilliseconds, "maxMilliseconds")
    }
}

extension CacheRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case storage, layout, freshness, entries, invalidation, behaviours, performance, invalidatedOn
    }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        storage = try c.decode(Storage.self, forKey: .storage)
        if c.contains(.layout), try !c.decodeNil(forKey: .layout) {
            guard storage == .files else { throw c.fail(.layout, "a layout is only meaningful for storage 'files'") }
            layout = try c.decode(CacheLayout.self, forKey: .layout)
        } else if storage == .files {
            throw c.fail("storage 'files' needs a 'layout'")
        }
        freshness = try c.decode(FreshnessRule.self, forKey: .freshness)
        entries = try c.decode([CacheEntryRule].self, forKey: .entries)
        var keys: Set<String> = []
        for (i, e) in entries.enumerated() where !keys.insert(e.key).inserted {
            throw SpecError(file: decoder.contractState?.file ?? "", path: "\(decoder.jsonPath).entries[\(i)].key", message: "duplicate cache key '\(e.key)'")
        }
        if entries.isEmpty { throw c.fail(.entries, "at least one cache entry is needed") }
        if let smallest = entries.compactMap(\.ttlSeconds).filter({ $0 > 0 }).min(), freshness.probeSeconds * 2 >= smallest {
            throw c.fail(.freshness, "probeSeconds \(freshness.probeSeconds) must be under half the smallest TTL (\(smallest) s)")
        }
        decoder.contractState?.values[Shared.entries] = entries
        invalidation =
            try c.decodeIfPresent([RawInvalidation].self, forKey: .invalidation)?.map {
                InvalidationRule(id: $0.id, event: $0.event, clears: $0.clears)
            } ?? []
        behaviours = try c.behaviours(CacheStoreSuite.self, .behaviours)
        for b in behaviours where storage == .memory && CacheStoreSuite.fileBehaviourIDs.contains(b.id) {
            throw c.fail(.behaviours, "'\(b.id)' applies to storage 'files' only")
        }
        performance = try c.decodeIfPresent([PerformanceRule].self, forKey: .performance) ?? []
        invalidatedOn = try c.decodeIfPresent([String].self, forKey: .invalidatedOn) ?? []
        for kind in invalidatedOn {
            for e in entries where e.qualifiers.isEmpty {
                let clearedBy = invalidation.filter { r in
                    guard r.event == kind || r.event.hasPrefix(kind + ":") else { return false }
                    if case .keys(let ks) = r.clears { return ks.contains(e.key) }
                    return e.scope == .user
                }
                if clearedBy.isEmpty {
                    throw c.fail(
                        .invalidatedOn, "no '\(kind)' invalidation clears '\(e.key)' (every entry is invalidated on \(invalidatedOn.joined(separator: ", ")))")
                }
            }
        }
    }
}

extension LoaderResource: ContractChecked {
    package func validate(_ decoder: Decoder) throws {
        try decoder.claimRuleID(id)
        guard let cache = decoder.cacheRules else { throw decoder.fail("cacheKey", "a loader resource needs a 'cache' section") }
        guard let entry = cache.entry(cacheKey) else { throw decoder.fail("cacheKey", "unknown cache key '\(cacheKey)'") }
        guard entry.qualifiers.isEmpty else { throw decoder.fail("cacheKey", "a loader resource cannot use the qualified entry '\(cacheKey)'") }
        guard path.hasPrefix("/rest/v1/") else { throw decoder.fail("path", "expected a PostgREST path (/rest/v1/…), found '\(path)'") }
    }
}

extension LoaderRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case resources, steps, staleBanner, behaviours }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        resources = try c.decode([LoaderResource].self, forKey: .resources)
        steps = try c.decode([String].self, forKey: .steps)
        staleBanner = try c.decode(Bool.self, forKey: .staleBanner)
        behaviours = try c.behaviours(LoaderSuite.self, .behaviours)
    }
}

extension OptimisticResource: ContractChecked {
    package func validate(_ decoder: Decoder) throws {
        try decoder.claimRuleID(id)
        guard let entry = decoder.cacheRules?.entry(cacheKey) else { throw decoder.fail("cacheKey", "unknown cache key '\(cacheKey)'") }
        guard entry.scope == .user else { throw decoder.fail("cacheKey", "an optimistic list is per user; '\(cacheKey)' is \(entry.scope.rawValue)") }
    }
}

extension OptimisticFailure: Decodable {
    enum CodingKeys: String, CodingKey { case kind, status }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "networkError": self = .networkError
        case "status":
            let code = try c.decode(Int.self, forKey: .status)
            guard (400...599).contains(code) else { throw c.fail(.status, "a failure status must be 4xx or 5xx, found \(code)") }
            self = .status(code)
        case let k: throw c.fail(.kind, "unknown failure kind '\(k)' (expected networkError or status)")
        }
    }
}

extension OptimisticRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case resource, failures, behaviours }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        resource = try c.decode(OptimisticResource.self, forKey: .resource)
        failures = try c.decode([OptimisticFailure].self, forKey: .failures)
        behaviours = try c.behaviours(OptimisticSuite.self, .behaviours)
    }
}

/// `{"allowedWhenElapsed", "probeSeconds"}` of rateLimits.
private struct RateBoundary: Decodable, ContractChecked {
    var allowedWhenElapsed: RateLimitRules.Boundary
    var probeSeconds: Double
    package func validate(_ decoder: Decoder) throws { try decoder.checkPositive(probeSeconds, "probeSeconds") }
}

/// `{"records": …}` of rateLimits.
private struct RecordingSection: Decodable { var records: RateLimitRules.Recording }

/// `{"keyedBy": …}` of rateLimits.
private struct TargetsSection: Decodable { var keyedBy: RateLimitRules.Keying }

extension RateLimitAction: ContractChecked {
    package func validate(_ decoder: Decoder) throws {
        try decoder.claimRuleID(id)
        try decoder.checkPositive(minimumInterval, "minimumIntervalSeconds")
    }
}

extension RateLimitRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case boundary, recording, targets, actions, onLimited, behaviours }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let b = try c.decode(RateBoundary.self, forKey: .boundary)
        boundary = b.allowedWhenElapsed
        probeSeconds = b.probeSeconds
        recording = try c.decode(RecordingSection.self, forKey: .recording).records
        keying = try c.decode(TargetsSection.self, forKey: .targets).keyedBy
        actions = try c.decode([RateLimitAction].self, forKey: .actions)
        var names: Set<String> = []
        let base = SpecNode.childPath(decoder.jsonPath, "actions")
        for (i, a) in actions.enumerated() {
            let file = decoder.contractState?.file ?? ""
            guard names.insert(a.action).inserted else { throw SpecError(file: file, path: "\(base)[\(i)].action", message: "duplicate action '\(a.action)'") }
            guard probeSeconds * 2 < a.minimumInterval else {
                throw SpecError(
                    file: file, path: "\(base)[\(i)].minimumIntervalSeconds",
                    message: "interval \(a.minimumInterval) s must exceed twice the probe (\(probeSeconds) s)")
            }
        }
        onLimited = try c.decode(String.self, forKey: .onLimited)
        behaviours = try c.behaviours(RateLimiterSuite.self, .behaviours)
    }
}

extension RealtimeRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case maxSubscriptions, onLimit, resubscribe, backgroundDropAfterSeconds, probeSeconds, behaviours
    }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maxSubscriptions = try c.decode(Int.self, forKey: .maxSubscriptions)
        guard maxSubscriptions >= 1 else { throw c.fail(.maxSubscriptions, "maxSubscriptions must be at least 1") }
        guard try c.decode(String.self, forKey: .onLimit) == "evictOldest" else { throw c.fail(.onLimit, "only 'evictOldest' is defined") }
        guard try c.decode(String.self, forKey: .resubscribe) == "viewLifecycle" else { throw c.fail(.resubscribe, "only 'viewLifecycle' is defined") }
        backgroundDropAfter = try c.decode(Double.self, forKey: .backgroundDropAfterSeconds)
        try decoder.checkNonNegative(backgroundDropAfter, "backgroundDropAfterSeconds")
        probeSeconds = try c.decode(Double.self, forKey: .probeSeconds)
        try decoder.checkPositive(probeSeconds, "probeSeconds")
        behaviours = try c.behaviours(RealtimeSuite.self, .behaviours)
    }
}

extension ImagePreset: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case id, name, maxDimensionPixels, maxBytes, buckets }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        try decoder.claimRuleID(id)
        name = try c.decode(String.self, forKey: .name)
        maxDimensionPixels = try c.decode(Int.self, forKey: .maxDimensionPixels)
        try decoder.checkPositive(maxDimensionPixels, "maxDimensionPixels")
        maxBytes = try c.decode(Int.self, forKey: .maxBytes)
        try decoder.checkPositive(maxBytes, "maxBytes")
        buckets = try c.decodeIfPresent([String].self, forKey: .buckets) ?? []
    }
}

/// `"images": {"presets": […]}`.
private struct ImageSection: Decodable { var presets: [ImagePreset] }

/// `"transient": {"statuses", "from", "to"}` of the offline queue.
private struct TransientStatuses: Decodable {
    var ranges: [ClosedRange<Int>]
    enum CodingKeys: String, CodingKey, CaseIterable { case statuses, from, to }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ranges = try c.decode([Int].self, forKey: .statuses).map { $0...$0 }
        let from = try c.decode(Int.self, forKey: .from), upTo = try c.decode(Int.self, forKey: .to)
        guard from <= upTo else { throw c.fail("from must not exceed to") }
        ranges.append(from...upTo)
    }
}

extension OfflineQueueRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case cacheKey, order, conflicts, conflictTimestamp, operations, onNetworkError, onRejected, transient
    }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        cacheKey = try c.decode(String.self, forKey: .cacheKey)
        guard let entry = decoder.cacheRules?.entry(cacheKey) else { throw c.fail(.cacheKey, "unknown cache key '\(cacheKey)'") }
        guard entry.scope == .user, entry.ttlSeconds == nil else {
            throw c.fail(.cacheKey, "the queue's entry '\(cacheKey)' must be per user with no TTL (unsent work never expires)")
        }
        guard try c.decode(String.self, forKey: .order) == "fifo" else { throw c.fail(.order, "only 'fifo' is defined") }
        conflicts = try c.decode(Conflicts.self, forKey: .conflicts)
        conflictTimestamp = try c.decodeIfPresent(String.self, forKey: .conflictTimestamp)
        if conflicts == .lastWriteWins && conflictTimestamp == nil { throw c.fail("lastWriteWins needs a 'conflictTimestamp' column") }
        operations = try c.decode([String].self, forKey: .operations)
        onNetworkError = try c.decode(OnNetworkError.self, forKey: .onNetworkError)
        onRejected = try c.decode(OnRejected.self, forKey: .onRejected)
        transientStatuses = try c.decodeIfPresent(TransientStatuses.self, forKey: .transient)?.ranges ?? []
    }
}

extension TimeoutRule: ContractChecked {
    package func validate(_ decoder: Decoder) throws {
        try decoder.claimRuleID(id)
        try decoder.checkPositive(seconds, "seconds")
    }
}

extension ClientRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case app, source, cache, loader, optimistic, rateLimits, realtime, images, offlineQueue, timeouts
    }
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        app = try c.decode(String.self, forKey: .app)
        _ = try c.decode(String.self, forKey: .source)
        file = decoder.contractState?.file ?? ""
        cache = try c.decodeIfPresent(CacheRules.self, forKey: .cache)
        decoder.contractState?.values[Shared.cache] = cache
        loader = try c.decodeIfPresent(LoaderRules.self, forKey: .loader)
        optimistic = try c.decodeIfPresent(OptimisticRules.self, forKey: .optimistic)
        rateLimits = try c.decodeIfPresent(RateLimitRules.self, forKey: .rateLimits)
        realtime = try c.decodeIfPresent(RealtimeRules.self, forKey: .realtime)
        images = try c.decodeIfPresent(ImageSection.self, forKey: .images)?.presets ?? []
        offlineQueue = try c.decodeIfPresent(OfflineQueueRules.self, forKey: .offlineQueue)
        timeouts = try c.decodeIfPresent([TimeoutRule].self, forKey: .timeouts) ?? []
        if let cache {
            for (i, e) in cache.entries.enumerated() where e.write?.on == .everyChange && optimistic?.resource.cacheKey != e.key {
                throw SpecError(
                    file: file, path: "$.cache.entries[\(i)].write.on",
                    message: "'everyChange' is checked by the optimistic suite: the optimistic resource must use '\(e.key)'")
            }
        }
        let needsNetwork = !(loader?.resources.isEmpty ?? true) || optimistic != nil
        if needsNetwork && timeout("timeout.rest") == nil {
            let message = "loader resources and optimistic updates send REST requests: a 'timeout.rest' rule is required"
            throw try c.decodeNil(forKey: .timeouts) ? c.fail(message) : c.fail(.timeouts, message)
        }
    }
}
