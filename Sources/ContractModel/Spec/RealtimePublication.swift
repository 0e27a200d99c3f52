import Foundation

/// Which tables an app publishes to Realtime (`Contracts/<app>/realtime.json`, see
/// Contracts/FORMAT.md): the `supabase_realtime` publication and each table's replica identity.
package struct RealtimePublication: Sendable, Equatable {
    /// `default` sends the primary key of the old row, `full` every column (ALTER TABLE … REPLICA IDENTITY).
    package enum ReplicaIdentity: String, Sendable { case `default`, full }

    /// Published tables (`schema.table`) and their replica identity.
    package var tables: [String: ReplicaIdentity]

    package init(tables: [String: ReplicaIdentity] = [:]) { self.tables = tables }

    /// Nothing published: Supabase creates `supabase_realtime` empty.
    package static let empty = RealtimePublication()

    /// Reads `realtime.json` in a contracts folder; empty when the file is absent (read once per
    /// folder while `LoadedSpecs` are bound).
    package static func load(folder: URL) throws -> RealtimePublication {
        try LoadedSpecs.value("realtime", folder: folder) { try read(folder: folder) }
    }

    /// Reads and parses `realtime.json`.
    private static func read(folder: URL) throws -> RealtimePublication {
        let url = folder.appendingPathComponent("realtime.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return .empty }
        return try parse(try JSONValue.parse(Data(contentsOf: url)))
    }

    /// Parses `{"tables": [{"table": "posts", "replica_identity": "default", …}]}`.
    package static func parse(_ json: JSONValue) throws -> RealtimePublication {
        guard case .array(let list)? = json["tables"] else { throw RealtimeSpecError(message: "realtime.json needs a \"tables\" array") }
        var out = RealtimePublication()
        for entry in list {
            guard let name = entry["table"]?.stringValue else { throw RealtimeSpecError(message: "each table needs \"table\"") }
            let raw = entry["replica_identity"]?.stringValue ?? "default"
            guard let identity = ReplicaIdentity(rawValue: raw) else {
                throw RealtimeSpecError(message: "replica_identity of \(name) is default or full, not \(raw)")
            }
            out.tables[name.contains(".") ? name : "public." + name] = identity
        }
        return out
    }
}

/// A malformed realtime.json.
package struct RealtimeSpecError: Error, Sendable, CustomStringConvertible {
    package var message: String
    /// An error saying `message`.
    package init(message: String) { self.message = message }
    package var description: String { message }
}
