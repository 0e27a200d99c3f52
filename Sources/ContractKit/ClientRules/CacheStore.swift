import Foundation

/// A cache entry's address and lifetime: a key from client-rules.json, optionally qualified,
/// global or for one user.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's name (`savedCities`).
    public var name: String
    /// Extra parts that qualify it (`Career.2026-01-01`), nil for a plain key.
    public var qualifier: String?
    /// The owning user for a per-user entry; nil for a global one.
    public var userID: String?
    /// Time to live in seconds; nil means never stale.
    public var ttl: TimeInterval?
    public var boundary: StalenessBoundary

    /// A key. Names, qualifiers and user ids become file names: see `isSafeComponent`.
    public init(name: String, qualifier: String? = nil, userID: String? = nil, ttl: TimeInterval?, boundary: StalenessBoundary) {
        self.name = name
        self.qualifier = qualifier
        self.userID = userID
        self.ttl = ttl
        self.boundary = boundary
    }

    /// Whether an entry saved at `savedAt` is stale at `now`.
    public func isStale(savedAt: Date, now: Date) -> Bool {
        boundary.isStale(age: now.timeIntervalSince(savedAt), ttl: ttl)
    }

    /// `name[.qualifier]`, the entry's file stem.
    package var stem: String { qualifier.map { "\(name).\($0)" } ?? name }

    /// Whether the parts are usable as file names (no separators, no leading dot, bounded length).
    package var isValid: Bool {
        CacheKey.isSafeComponent(name) && (qualifier.map { CacheKey.isSafeComponent($0, allowDots: true) } ?? true)
            && (userID.map { CacheKey.isSafeComponent($0) } ?? true)
    }

    /// Letters, digits, `_`, `-` (and `.` inside when allowed), 1 to 128 characters, not starting with `.`.
    package static func isSafeComponent(_ s: String, allowDots: Bool = false) -> Bool {
        guard !s.isEmpty, s.utf8.count <= 128, s.first != "." else { return false }
        return s.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "_" || c == "-" || (allowDots && c == ".")
        }
    }

    /// `savedCities(user a11ce000…)` / `cities(global)`.
    public var description: String { "\(stem)(\(userID.map { "user \($0)" } ?? "global"))" }
}

extension CacheEntryRule {
    /// The key of this entry for a user (per-user entries) under a freshness rule.
    package func key(user: String?, qualifier: String? = nil, freshness: FreshnessRule) -> CacheKey {
        CacheKey(name: key, qualifier: qualifier, userID: scope == .user ? user : nil, ttl: ttlSeconds, boundary: freshness.staleWhenAge)
    }
}

/// A loaded cache entry: the value, when it was saved and whether it is stale now.
public struct CachedData<T: Sendable>: Sendable {
    public var value: T
    /// When it was saved (by the store's clock).
    public var savedAt: Date
    /// Whether its age had reached the key's TTL when it was loaded.
    public var isStale: Bool

    public init(value: T, savedAt: Date, isStale: Bool) {
        self.value = value
        self.savedAt = savedAt
        self.isStale = isStale
    }
}

public enum ClientCacheError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A key whose parts cannot name a file.
    case invalidKey(String)
    /// A per-user key without a user, or a user on a global key.
    case scopeMismatch(String)
    /// The value could not be encoded.
    case encoding(String)
    /// The file system refused the write.
    case io(String)

    public var description: String {
        switch self {
        case .invalidKey(let k): return "invalid cache key \(k): names, qualifiers and user ids must be letters, digits, '_' or '-'"
        case .scopeMismatch(let m): return "cache scope mismatch: \(m)"
        case .encoding(let m): return "cannot encode cache value: \(m)"
        case .io(let m): return "cache write failed: \(m)"
        }
    }
}

/// A client's cache (TeleportMe's CacheManager, Naar's Cars' CacheManager actor): what the
/// `CacheStoreSuite` checks. Requirements are `async` so both plain classes and actors conform.
public protocol ClientCacheStore: Sendable {
    /// Saves a value under a key, stamped with the store's clock (replacing any previous one).
    func save<T: Codable & Sendable>(_ value: T, for key: CacheKey) async throws
    /// Loads an entry: nil when there is none or it cannot be read (a file store then deletes it).
    func load<T: Codable & Sendable>(_ type: T.Type, for key: CacheKey) async -> CachedData<T>?
    /// Removes one entry.
    func remove(_ key: CacheKey) async
    /// Removes every entry of a user (sign-out); global entries stay.
    func removeAll(userID: String) async
    /// The file an entry lives in, for file-backed stores (nil for memory stores).
    func fileURL(for key: CacheKey) async -> URL?
}

extension ClientCacheStore {
    /// Memory stores have no files.
    public func fileURL(for key: CacheKey) async -> URL? { nil }
}

/// Carries out an app's invalidation events on a store (Naar's Cars FR-044, sign-out).
package struct CacheInvalidator: Sendable {
    package let rules: CacheRules

    /// An invalidator for these rules.
    package init(rules: CacheRules) { self.rules = rules }

    /// Applies one event for a user: removes what its rule says.
    package func apply(_ rule: InvalidationRule, userID: String, on store: any ClientCacheStore) async {
        switch rule.clears {
        case .allUserEntries:
            await store.removeAll(userID: userID)
        case .keys(let names):
            for name in names {
                guard let entry = rules.entry(name) else { continue }
                await store.remove(entry.key(user: userID, freshness: rules.freshness))
            }
        }
    }
}
