import Foundation

/// The reference in-memory cache of Naar's Cars FR-042 ("CacheManager actor with TTL-based
/// caching"): values kept as encoded JSON so a load returns an independent copy, stamped with an
/// injected clock.
public actor MemoryCacheStore: ClientCacheStore {
    private struct Entry {
        var data: Data
        var savedAt: Date
    }

    private let clock: WallClock
    private var entries: [CacheKey.Address: Entry] = [:]

    /// An empty store timestamping with `clock`.
    public init(clock: WallClock) { self.clock = clock }

    public func save<T: Codable & Sendable>(_ value: T, for key: CacheKey) async throws {
        guard key.isValid else { throw ClientCacheError.invalidKey(key.description) }
        let data: Data
        do { data = try JSONEncoder().encode(value) } catch { throw ClientCacheError.encoding("\(error)") }
        entries[key.address] = Entry(data: data, savedAt: clock.now())
    }

    public func load<T: Codable & Sendable>(_ type: T.Type, for key: CacheKey) async -> CachedData<T>? {
        guard let e = entries[key.address] else { return nil }
        guard let value = try? JSONDecoder().decode(T.self, from: e.data) else {
            entries[key.address] = nil
            return nil
        }
        return CachedData(value: value, savedAt: e.savedAt, isStale: key.isStale(savedAt: e.savedAt, now: clock.now()))
    }

    public func remove(_ key: CacheKey) async { entries[key.address] = nil }

    public func removeAll(userID: String) async { entries = entries.filter { $0.key.userID != userID } }
}

extension CacheKey {
    /// Where an entry lives, independent of its TTL: user, name and qualifier.
    package struct Address: Hashable, Sendable {
        /// The owning user (nil: global).
        package var userID: String?
        /// The key's file stem.
        package var stem: String
    }

    /// The entry's address.
    package var address: Address { Address(userID: userID, stem: stem) }
}
