import Foundation

/// Parsed query strings by their exact items, so a client repeating a request (the common case:
/// an app polls the same few URLs) pays the PostgREST grammar once. Parsing is a pure function of
/// the items and the RPC flag, so a hit answers exactly what a fresh parse would; failures are not
/// kept (they are rare and their error is rebuilt). Bounded: emptied when full.
final class ParsedQueryCache: Sendable {
    /// Entries kept before the cache is emptied.
    let capacity: Int
    private let entries = Guarded([Key: ParsedQuery]())

    /// A cache holding at most `capacity` parsed queries.
    init(capacity: Int = 2_048) { self.capacity = capacity }

    /// A query string's identity: the RPC flag and every name and value in order. Built without
    /// copying a character (the array holds the items' own strings); `[String]` equality and
    /// hashing are element-wise and length-aware, so no two different splits share a key.
    struct Key: Hashable, Sendable {
        let forRPC: Bool
        let parts: [String]

        init(_ items: [(name: String, value: String)], forRPC: Bool) {
            self.forRPC = forRPC
            var parts: [String] = []
            parts.reserveCapacity(items.count * 2)
            for (name, value) in items { parts.append(name); parts.append(value) }
            self.parts = parts
        }
    }

    /// `QueryParser.parse(items, forRPC:)`, from the cache when these items were parsed before.
    func parse(_ items: [(name: String, value: String)], forRPC: Bool = false) throws -> ParsedQuery {
        try parse(items, key: Key(items, forRPC: forRPC))
    }

    /// As `parse(_:forRPC:)` with the items' key already built (`key` must be `Key(items, forRPC:)`).
    func parse(_ items: [(name: String, value: String)], key: Key) throws -> ParsedQuery {
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let parsed = try QueryParser.parse(items, forRPC: key.forRPC)
        entries.withLock {
            if $0.count >= capacity { $0.removeAll(keepingCapacity: true) }
            $0[key] = parsed
        }
        return parsed
    }

    /// The cache key of a query string (see `Key`).
    static func key(_ items: [(name: String, value: String)], forRPC: Bool) -> Key {
        Key(items, forRPC: forRPC)
    }
}
