import Foundation
import MockSupabase
import MockBinding

/// The conformance suite of sync.json `futureTimestamps` on a Shvil server reached over HTTP:
/// a write stamped later than the server's clock is stored with the server's time, one stamped
/// earlier is stored as sent, and a later honest edit from another device then wins.
public enum ShvilClockSkewConformance {
    /// Violations by the server behind `send` (PostgREST requests), whose clock reads `now`,
    /// for the persona owning `adventureID` (`token`). Leaves the adventure and one new row changed.
    package static func violations(
        rules: SyncRules, send: @escaping (HTTPRequest) throws -> HTTPResponse, apiKey: String, token: String,
        adventureID: String, now: Date
    ) -> [String] {
        var out: [String] = []
        let column = rules.timestampColumn
        func stamp(_ d: Date) -> String { PGTime.timestamptz(d) }
        func write(_ method: String, _ query: [(String, String)], _ body: [String: JSONValue]) -> Date? {
            let req = HTTPRequest(
                method: method, path: "/rest/v1/adventures", query: query.map { (name: $0.0, value: $0.1) } + [(name: "select", value: column)],
                headers: ["apikey": apiKey, "Authorization": "Bearer \(token)", "Content-Type": "application/json", "Prefer": "return=representation"],
                body: JSONValue.object(body).data())
            guard let res = try? send(req), (200..<300).contains(res.status) else { out.append("\(method) refused"); return nil }
            guard let s = res.jsonBody?.arrayValue?.first?[column]?.stringValue, let t = PGTime.parseTimestamp(s, assumeUTC: true) else {
                out.append("\(method) returned no \(column)"); return nil
            }
            return Date(timeIntervalSince1970: Double(t) / 1_000_000)
        }
        let ahead = now.addingTimeInterval(24 * 3600)
        if let t = write("PATCH", [("id", "eq.\(adventureID)")], ["title": "from a fast clock", column: .string(stamp(ahead))]) {
            if abs(t.timeIntervalSince(now)) > 1 { out.append("update stamped a day ahead stored \(stamp(t)), expected the server's \(stamp(now))") }
            // Another device edits a second later (true time): last-write-wins must let it through.
            let honest = SyncChange(
                id: "h", table: "adventures", rowID: adventureID, operation: .update, values: ["title": "honest"],
                timestamp: now.addingTimeInterval(1), deviceID: "phone")
            if LastWriteWins(rules: rules).decide(honest, serverRow: ["id": .string(adventureID), column: .string(stamp(t))]) != .apply {
                out.append("an honest edit one second later loses to the fast clock's write")
            }
        }
        let earlier = now.addingTimeInterval(-90)
        if let t = write("PATCH", [("id", "eq.\(adventureID)")], ["title": "edited offline", column: .string(stamp(earlier))]),
            PGTime.micros(t) != PGTime.micros(earlier)
        {
            out.append("update stamped in the past stored \(stamp(t)), expected it as sent (\(stamp(earlier)))")
        }
        if let t = write("POST", [], ["title": "planned on a fast clock", column: .string(stamp(ahead))]), abs(t.timeIntervalSince(now)) > 1 {
            out.append("insert stamped a day ahead stored \(stamp(t)), expected the server's \(stamp(now))")
        }
        return out
    }
}
