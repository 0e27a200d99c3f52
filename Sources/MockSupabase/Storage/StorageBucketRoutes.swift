import Foundation

/// Buckets created, changed or deleted through the API since the last reset (the buckets of
/// storage.json stay the base).
///
/// The edits are a `State` behind a `Guarded` lock (the backend's one discipline).
final class StorageBucketEdits: Sendable {
    /// Buckets created, changed and deleted.
    struct State {
        var created: [BucketConfig] = []
        var changed: [String: BucketConfig] = [:]
        var deleted: Set<String> = []
    }
    private let state = Guarded(State())

    /// Runs `body` with exclusive access to the edits (a leaf lock).
    func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T { try state.withLock(body) }

    func reset() { state.withLock { $0 = State() } }

    /// The configured buckets with the edits applied.
    func apply(_ base: [BucketConfig]) -> [BucketConfig] {
        state.withLock { e in
            if e.created.isEmpty && e.changed.isEmpty && e.deleted.isEmpty { return base }
            return (base + e.created).filter { !e.deleted.contains($0.id) }.map { e.changed[$0.id] ?? $0 }
        }
    }
}

/// `POST /bucket`, `PUT /bucket/{id}`, `DELETE /bucket/{id}` and `POST /bucket/{id}/empty` as
/// supabase/storage `src/http/routes/bucket/*.ts` and `src/storage/storage.ts` answer them.
/// `storage.buckets` has RLS on and no policy for the API roles (Supabase's default), so only the
/// service role writes buckets: others get the RLS error (create) or "Bucket not found".
extension MockSupabase {
    func routeStorageBuckets(_ request: HTTPRequest, path: String, buckets: [BucketConfig]) throws -> HTTPResponse? {
        let m = request.method
        if (path == "/bucket" || path == "/bucket/") && m == "POST" { return try createBucket(request, buckets) }
        guard path.hasPrefix("/bucket/") else { return nil }
        let rest = path.dropFirst("/bucket/".count)
        if rest.hasSuffix("/empty"), m == "POST" {
            let id = rest.dropLast("/empty".count)
            if !id.isEmpty, !id.contains("/") { return try emptyBucket(request, String(id), buckets) }
        }
        guard !rest.isEmpty, !rest.contains("/") else { return nil }
        if m == "PUT" { return try updateBucket(request, String(rest), buckets) }
        if m == "DELETE" { return try deleteBucket(request, String(rest), buckets) }
        return nil
    }

    /// `isValidBucketName`: 1–100 characters of `[A-Za-z0-9_!.*'() &$=@;:+,?-]`.
    static func isValidBucketName(_ s: String) -> Bool {
        !s.isEmpty && s.count < 101
            && s.unicodeScalars.allSatisfy { c in
                (c.isASCII && (CharacterSet.alphanumerics.contains(c))) || "_!.*'() &$=@;:+,?-".unicodeScalars.contains(c)
            }
    }

    /// `parseMaxSizeLimit`: a byte count, or a string such as `"1MB"` (B, KB, MB, GB), at most the
    /// global limit.
    func parseSizeLimit(_ v: JSONValue) throws -> Int? {
        var bytes: Int
        switch v {
        case .null: return nil
        case .int(let i): bytes = Int(i)
        case .string(let s):
            let t = s.trimmingCharacters(in: .whitespaces).uppercased()
            let units: [(String, Int)] = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
            guard let (u, f) = units.first(where: { t.hasSuffix($0.0) }), let n = Double(t.dropLast(u.count).trimmingCharacters(in: .whitespaces)) else {
                throw StorageError(
                    400, code: "InvalidRequest", error: "InvalidRequest",
                    message: "the requested file_size_limit uses an invalid format, use 20GB / 20MB / 30KB / 3B")
            }
            bytes = Int(n * Double(f))
        default: throw StorageError.validation("body/file_size_limit must be integer,string")
        }
        if bytes > storage.globalFileSizeLimit {
            throw StorageError(413, code: "EntityTooLarge", error: "Payload too large", message: "The object exceeded the maximum allowed size")
        }
        return bytes
    }

    /// `validateMimeType`: each entry `type/subtype` or `type/*`.
    func mimeTypes(_ v: JSONValue) throws -> [String]? {
        if v.isNull { return nil }
        guard case .array(let items) = v else { throw StorageError.validation("body/allowed_mime_types must be array") }
        let list = items.compactMap(\.stringValue).filter { !$0.isEmpty }
        for t in list {
            let p = t.split(separator: "/", omittingEmptySubsequences: false)
            let ok =
                p.count == 2 && !p[0].isEmpty && !p[1].isEmpty
                && p.allSatisfy { part in
                    part == "*"
                        || part.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-+.".unicodeScalars.contains($0)) }
                } && p[0] != "*"
            if !ok { throw StorageError(415, code: "InvalidMimeType", error: "invalid_mime_type", message: "Invalid mime type format") }
        }
        return list
    }

    func createBucket(_ request: HTTPRequest, _ buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let body = try storageBody(request, StorageRouteBodies.createBucket)
        let name = body["name"]?.stringValue ?? ""
        let id = body["id"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? name
        let invalidName = StorageError(400, code: "InvalidBucketName", error: "Invalid Input", message: "Bucket name invalid")
        guard name.trimmingCharacters(in: .whitespaces) == name, MockSupabase.isValidBucketName(name) else { throw invalidName }
        let limit = try body["file_size_limit"].map(parseSizeLimit) ?? nil
        let mimes = try body["allowed_mime_types"].map(mimeTypes) ?? nil
        guard auth.bypassesRLS else { throw StorageError.rlsViolation }
        guard bucket(id, buckets) == nil else { throw StorageError.alreadyExists }
        let b = BucketConfig(
            id: id, name: name, isPublic: body["public"]?.boolValue ?? false, fileSizeLimit: limit,
            allowedMimeTypes: mimes, policies: [:], bucketSelect: .constant(false))
        bucketEdits.withLock { edits in
            edits.deleted.remove(id)
            edits.changed[id] = nil
            edits.created.removeAll { $0.id == id }
            edits.created.append(b)
        }
        return .json(200, ["name": .string(name)])
    }

    func updateBucket(_ request: HTTPRequest, _ id: String, _ buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let body = try storageBody(request, StorageRouteBodies.updateBucket)
        guard MockSupabase.isValidBucketName(id) else {
            throw StorageError(400, code: "InvalidBucketName", error: "Invalid Input", message: "Bucket name invalid")
        }
        guard auth.bypassesRLS, var b = bucket(id, buckets) else { throw StorageError.noSuchBucket }
        if let p = body["public"]?.boolValue { b.isPublic = p }
        if let l = body["file_size_limit"] { b.fileSizeLimit = try parseSizeLimit(l) }
        if let m = body["allowed_mime_types"] { b.allowedMimeTypes = try mimeTypes(m) }
        bucketEdits.withLock { edits in edits.changed[id] = b }
        return .json(200, ["message": "Successfully updated"])
    }

    func deleteBucket(_ request: HTTPRequest, _ id: String, _ buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        guard bucket(id, buckets) != nil else { throw StorageError.noSuchBucket }
        if !storage.objectNames(bucket: id).isEmpty {
            throw StorageError(409, code: "ResourceNotEmpty", error: "ResourceNotEmpty", message: "The bucket you tried to delete is not empty")
        }
        guard auth.bypassesRLS else { throw StorageError.noSuchBucket }
        bucketEdits.withLock { edits in
            edits.deleted.insert(id)
            edits.changed[id] = nil
        }
        return .json(200, ["message": "Successfully deleted"])
    }

    /// Empties a bucket of the objects the caller may delete (Storage queues the deletion and
    /// answers at once; the mock deletes before answering).
    func emptyBucket(_ request: HTTPRequest, _ id: String, _ buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        guard let b = bucket(id, buckets) else { throw StorageError.noSuchBucket }
        let all = storage.state.withLock { Array(($0.objects[id] ?? [:]).values) }
        for o in all where try mayDelete(o, b, auth) {
            storage.state.withLock { _ = $0.objects[id]?.removeValue(forKey: o.name) }
        }
        return .json(200, ["message": "Empty bucket has been queued. Completion may take up to an hour."])
    }
}
