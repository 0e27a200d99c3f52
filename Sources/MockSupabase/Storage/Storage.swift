import Foundation

/// Supabase Storage: buckets and objects.
public final class StorageService: @unchecked Sendable {
    let lock = NSLock()
    let bucketSpecs: [JSONValue]
    init(buckets: [JSONValue]) { bucketSpecs = buckets }
    func reset() {}
}

extension MockSupabase {
    func handleStorage(_ request: HTTPRequest) -> HTTPResponse {
        .json(404, ["statusCode": "404", "error": "Not Found", "message": "Storage is not configured for this app"])
    }
}
