import Foundation

/// Codable model types by the names interaction files use (`SavedCity`, `SavedCity[]`), with a
/// round-trip check: decode a body, re-encode it, compare the JSON.
public struct ModelRegistry: Sendable {
    var entries: [String: @Sendable (JSONValue) throws -> JSONValue] = [:]

    /// An empty registry.
    public init() {}

    /// Registers `T` as `name` (default: the type's name) and `name[]` for arrays of it.
    public mutating func register<T: Codable & Sendable>(_ type: T.Type, as name: String? = nil) {
        let n = name ?? String(describing: T.self)
        entries[n] = { json in try ModelRegistry.reencode(T.self, json) }
        entries[n + "[]"] = { json in try ModelRegistry.reencode([T].self, json) }
    }

    static func reencode<T: Codable>(_ type: T.Type, _ json: JSONValue) throws -> JSONValue {
        let value = try JSONDecoder().decode(T.self, from: json.data())
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys]
        return try JSONValue.parse(enc.encode(value))
    }

    /// Registered names, sorted.
    public var names: [String] { entries.keys.sorted() }

    /// Whether a name is registered.
    public func contains(_ name: String) -> Bool { entries[name] != nil }

    /// Decodes `json` as the model and encodes it back.
    public func roundTrip(_ name: String, _ json: JSONValue) throws -> JSONValue {
        guard let f = entries[name] else { throw UnknownModelError(name: name, known: names) }
        return try f(json)
    }

    /// Problems of a round trip: an unknown model, a decoding error, or every path where the
    /// re-encoded JSON differs (numbers compare by value; no matchers).
    public func check(_ name: String, _ json: JSONValue, path: String = "$") -> [String] {
        do {
            let back = try roundTrip(name, json)
            return JSONMatch.differences(expected: json, actual: back, path: path, useMatchers: false)
                .map { "\(name) round trip: \($0)" }
        } catch let e as UnknownModelError {
            return [e.description]
        } catch {
            return ["\(name) does not decode \(path): \(error)"]
        }
    }
}

/// A model name nobody registered.
public struct UnknownModelError: Error, CustomStringConvertible, Sendable {
    /// The name.
    public var name: String
    /// Registered names.
    public var known: [String]
    public var description: String { "unknown model '\(name)' (registered: \(known.joined(separator: ", ")))" }
}
