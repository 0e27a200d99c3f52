import Foundation
import MockSupabase

/// A `SyncServer` speaking PostgREST through any transport: `send` performs one HTTP request
/// (a URLSession, `MockSupabase.handle`, a loopback client). A thrown error is a transport
/// failure; a non-2xx answer is the server refusing the change.
package struct PostgRESTSyncServer: SyncServer {
    /// The project's anon key (the `apikey` header).
    package var apiKey: String
    package var accessToken: String
    /// Performs a request.
    package var send: (HTTPRequest) throws -> HTTPResponse

    func request(_ method: String, _ table: String, _ query: [(String, String)], body: JSONValue? = nil) throws -> HTTPResponse {
        var headers: HTTPHeaders = ["apikey": apiKey, "Authorization": "Bearer \(accessToken)", "Accept": "application/json"]
        if body != nil { headers.add("Content-Type", "application/json") }
        if method != "GET" { headers.add("Prefer", "return=minimal") }
        let req = HTTPRequest(
            method: method, path: "/rest/v1/\(table)", query: query.map { (name: $0.0, value: $0.1) }, headers: headers,
            body: body.map { $0.data() } ?? Data())
        let res: HTTPResponse
        do { res = try send(req) } catch { throw SyncTransportError("\(error)") }
        guard (200..<300).contains(res.status) else {
            let j = res.jsonBody
            throw PostgresError(
                j?["code"]?.stringValue ?? "HTTP\(res.status)", j?["message"]?.stringValue ?? res.text,
                details: j?["details"]?.stringValue, hint: j?["hint"]?.stringValue)
        }
        return res
    }

    /// GET the row by id (RLS applies).
    package func fetch(table: String, id: String) throws -> [String: JSONValue]? {
        let res = try request("GET", table, [("select", "*"), ("id", "eq.\(id)")])
        return res.jsonBody?.arrayValue?.first?.objectValue
    }

    /// POST the row.
    package func insert(table: String, values: [String: JSONValue]) throws {
        _ = try request("POST", table, [], body: .object(values))
    }

    /// PATCH the row by id.
    package func update(table: String, id: String, values: [String: JSONValue]) throws {
        _ = try request("PATCH", table, [("id", "eq.\(id)")], body: .object(values))
    }

    /// DELETE the row by id.
    package func delete(table: String, id: String) throws {
        _ = try request("DELETE", table, [("id", "eq.\(id)")])
    }
}
