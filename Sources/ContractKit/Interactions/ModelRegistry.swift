import Foundation

/// Codable model types by the names interaction files use (`SavedCity`, `SavedCity[]`), with a
/// round-trip check: decode a body, re-encode it, compare the JSON. Decoding and encoding go
/// through the registry's `coder`, the app's JSON coding.
package struct ModelRegistry: Sendable {
    var entries: [String: @Sendable (ModelCoder, JSONValue) throws -> JSONValue] = [:]
    /// How models are decoded and encoded.
    package var coder: ModelCoder

    package init(coder: ModelCoder = ModelCoder()) { self.coder = coder }

    /// Registers `T` as `name` (default: the type's name) and `name[]` for arrays of it.
    package mutating func register<T: Codable & Sendable>(_ type: T.Type, as name: String? = nil) {
        let n = name ?? String(describing: T.self)
        entries[n] = { coder, json in try coder.reencode(T.self, json) }
        entries[n + "[]"] = { coder, json in try coder.reencode([T].self, json) }
    }

    /// Registered names, sorted.
    package var names: [String] { entries.keys.sorted() }

    package func contains(_ name: String) -> Bool { entries[name] != nil }

    /// Decodes `json` as the model and encodes it back.
    package func roundTrip(_ name: String, _ json: JSONValue) throws -> JSONValue {
        guard let f = entries[name] else { throw UnknownModelError(name: name, known: names) }
        return try f(coder, json)
    }

    /// Problems of a round trip: an unknown model, a decoding error, or every path where the
    /// re-encoded JSON differs (numbers compare by value; no matchers).
    package func check(_ name: String, _ json: JSONValue, path: String = "$") -> [String] {
        Self.problems(name, json, path) { try roundTrip(name, json) }
    }

    /// Problems of a round trip through `T` (registered or not), with the registry's coder.
    package func check<T: Codable>(_ type: T.Type, _ json: JSONValue, path: String = "$") -> [String] {
        Self.problems(String(describing: T.self), json, path) { try coder.reencode(T.self, json) }
    }

    static func problems(_ name: String, _ json: JSONValue, _ path: String, _ roundTrip: () throws -> JSONValue) -> [String] {
        do {
            let back = try roundTrip()
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
package struct UnknownModelError: Error, CustomStringConvertible, Sendable {
    package var name: String
    /// Registered names.
    package var known: [String]
    package var description: String { "unknown model '\(name)' (registered: \(known.joined(separator: ", ")))" }
}
