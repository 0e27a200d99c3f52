import Foundation
@testable import MockSupabase

/// What `SpecTablesFixture` builds once per schema text and reuses: the decoded schema and
/// the recorded load of its rows (nil when the load cannot be replayed, e.g. it drew an id).
final class PreparedFixtures: @unchecked Sendable {
    // Unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var schemas: [String: DatabaseSchema] = [:]
    private var recordings: [String: SeedRecording] = [:]

    /// The schema decoded from `json` (decoded the first time), and its recorded row load if
    /// one was kept.
    func schema(_ json: String) throws -> (schema: DatabaseSchema, recording: SeedRecording?) {
        if let known = lock.withLock({ schemas[json].map { ($0, recordings[json]) } }) { return known }
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(json), file: "inline"))
        lock.withLock { schemas[json] = schema }
        return (schema, nil)
    }

    /// Keeps the row load recorded on `json`'s schema (the first one kept wins).
    func keep(_ recording: SeedRecording?, for json: String) {
        guard let recording else { return }
        lock.withLock { if recordings[json] == nil { recordings[json] = recording } }
    }
}
