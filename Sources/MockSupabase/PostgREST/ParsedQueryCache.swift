import Foundation

/// Parsed query strings by their exact items, so a client repeating a request (the common case:
/// an app polls the same few URLs) pays the PostgREST grammar once. Parsing is a pure function of
/// the items and the RPC flag, so a hit answers exactly what a fresh parse would; failures are not
/// kept (they are rare and their error is rebuilt). Bounded: emptied when full.
final class ParsedQueryCache: Sendable {
    /// Entries kept before the cache is emptied.
    let capacity: Int
    private let entries = Guarded([String: ParsedQuery]())

    /// A cache holding at most `capacity` parsed queries.
    init(capacity: Int = 2_048) { self.capacity = capacity }

    /// `QueryParser.parse(items, forRPC:)`, from the cache when these items were parsed before.
    func parse(_ items: [(name: String, value: String)], forRPC: Bool = false) throws -> ParsedQuery {
        let key = Self.key(items, forRPC: forRPC)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let parsed = try QueryParser.parse(items, forRPC: forRPC)
        entries.withLock {
            if $0.count >= capacity { $0.removeAll(keepingCapacity: true) }
            $0[key] = parsed
        }
        return parsed
    }

    /// An unambiguous key: every name and value prefixed by its UTF-8 length.
    static func key(_ items: [(name: String, value: String)], forRPC: Bool) -> String {
        var k = forRPC ? "r" : "q"
        for (name, value) in items {
            k += String(name.utf8.count); k += ":"; k += name
            k += String(value.utf8.count); k += ":"; k += value
        }
        return k
    }
}
