import Foundation

/// An object held by the mock's Storage.
package struct StoredObject: Sendable, Equatable {
    /// `storage.objects.id`.
    package var id: String
    package var bucketID: String
    /// Full name (`folder/cat.png`).
    package var name: String
    /// Uploader's user id (the JWT `sub`), nil for the service role.
    package var owner: String?
    package var data: Data
    package var mimetype: String
    /// Cache-Control served with it (`max-age=3600`, `no-cache`).
    package var cacheControl: String
    /// `"<md5 hex>"`.
    package var eTag: String
    /// Microseconds since the epoch.
    package var createdAt: Int64
    /// Microseconds since the epoch.
    package var updatedAt: Int64
    /// Microseconds since the epoch.
    package var lastAccessedAt: Int64
    /// Custom metadata sent with the upload.
    package var userMetadata: JSONValue?
    /// Version (a uuid per upload).
    package var version: String
}

/// Supabase Storage: buckets from storage.json and the objects uploaded to them.
///
/// Its mutable state is a `StorageState` behind a `Guarded` (the backend's one concurrency
/// discipline); requests also run under the database lock, so a check and the write that follows
/// it see the same objects.
package final class StorageService: Sendable {
    let bucketSpecs: [JSONValue]
    /// The decoded buckets, or the error naming the bad entry of storage.json.
    package let buckets: Result<[BucketConfig], SpecError>
    /// Objects, the validated buckets, and settings; reachable only under its lock.
    let state = Guarded(StorageState())

    struct StorageState {
        /// The buckets checked against the app's schema and policies (on first request).
        var validated: Result<[BucketConfig], SpecError>?
        /// Objects by bucket id, then by name.
        var objects: [String: [String: StoredObject]] = [:]
        /// The buckets' `created_at`, fixed on first use.
        var bucketStamp: Int64?
        /// Supabase's global file size limit (`FILE_SIZE_LIMIT`, 50 MiB unless changed).
        var globalLimit = 52_428_800
    }

    init(buckets: [JSONValue]) {
        bucketSpecs = buckets
        self.buckets = StorageService.decode(buckets, schema: nil, definitions: nil)
    }

    static func decode(_ buckets: [JSONValue], schema: DatabaseSchema?, definitions: [String: Expr]?, file: String = "storage.json") -> Result<
        [BucketConfig], SpecError
    > {
        do {
            return .success(
                try StorageConfiguration.decode(
                    SpecNode(value: .array(buckets), file: file, path: "$.buckets"),
                    schema: schema, definitions: definitions))
        } catch let e as SpecError {
            return .failure(e)
        } catch {
            return .failure(SpecError(file: file, path: "$.buckets", message: "\(error)"))
        }
    }

    /// The largest upload any bucket accepts: Supabase's global file size limit
    /// (`FILE_SIZE_LIMIT`, 50 MiB unless changed). A bucket's own limit applies below it.
    package var globalFileSizeLimit: Int {
        get { state.withLock { $0.globalLimit } }
        set { state.withLock { $0.globalLimit = newValue } }
    }

    func reset() {
        state.withLock {
            $0.objects = [:]
            $0.bucketStamp = nil
        }
    }

    /// The object names of a bucket, sorted (for tests and reports).
    package func objectNames(bucket: String) -> [String] {
        state.withLock { ($0.objects[bucket] ?? [:]).keys.sorted() }
    }

    /// A stored object (for tests and reports).
    package func object(bucket: String, name: String) -> StoredObject? {
        state.withLock { $0.objects[bucket]?[name] }
    }
}

// MARK: - Dispatch

extension MockSupabase {
    /// Serves `/storage/v1/…` as Supabase Storage does: `/bucket`, `/bucket/<id>`,
    /// `/object/<bucket>/<name>` (POST upload, PUT upsert, GET download, DELETE),
    /// `/object/<bucket>` (DELETE many), `/object/list/<bucket>`, `/object/public/…` and
    /// `/object/authenticated/…`.
    func handleStorage(_ request: HTTPRequest) -> HTTPResponse {
        let path = String(request.path.dropFirst("/storage/v1".count))
        do {
            return try database.exclusive { _ in try routeStorage(request, path: path, buckets: try storageBuckets()) }
        } catch let e as StorageError {
            return e.response
        } catch let e as PostgresError {
            return StorageError(500, code: "DatabaseError", error: "DatabaseError", message: "database error, code: \(e.code): \(e.message)").response
        } catch {
            return StorageError.configuration("\(error)").response
        }
    }

    /// The buckets, checked once against the app's schema and policy definitions.
    func storageBuckets() throws -> [BucketConfig] {
        let validated =
            storage.state.withLock({ $0.validated })
            ?? {
                // Decoded outside the storage lock: it reads the database's policies.
                let v = StorageService.decode(
                    storage.bucketSpecs, schema: database.schema, definitions: database.policies.definitions,
                    file: "Contracts/\(configuration.spec.app)/storage.json")
                return storage.state.withLock { s in
                    if s.validated == nil { s.validated = v }
                    return s.validated!
                }
            }()
        do { return bucketEdits.apply(try validated.get()) } catch { throw StorageError.configuration("\(error)") }
    }

    func routeStorage(_ request: HTTPRequest, path: String, buckets: [BucketConfig]) throws -> HTTPResponse {
        let m = request.method
        if let r = try routeStorageObjects(request, path: path, buckets: buckets) { return r }
        if let r = try routeStorageBuckets(request, path: path, buckets: buckets) { return r }
        func bucketAndName(_ rest: Substring) -> (String, String)? {
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            return (String(rest[..<slash]), String(rest[rest.index(after: slash)...]))
        }
        if path == "/bucket" || path == "/bucket/" {
            if m == "GET" { return try listBuckets(request, buckets) }
        } else if path.hasPrefix("/bucket/") {
            let id = path.dropFirst("/bucket/".count)
            if m == "GET", !id.contains("/") { return try getBucket(request, String(id), buckets) }
        } else if path.hasPrefix("/object/list/") {
            let id = path.dropFirst("/object/list/".count)
            if m == "POST", !id.isEmpty, !id.contains("/") { return try listObjects(request, String(id)) }
        } else if path.hasPrefix("/object/public/") {
            if m == "GET" || m == "HEAD", let (b, n) = bucketAndName(path.dropFirst("/object/public/".count)) {
                return try download(request, bucket: b, name: n, buckets: buckets, mode: .publicOnly)
            }
        } else if path.hasPrefix("/object/authenticated/") {
            if m == "GET" || m == "HEAD", let (b, n) = bucketAndName(path.dropFirst("/object/authenticated/".count)) {
                return try download(request, bucket: b, name: n, buckets: buckets, mode: .authenticated)
            }
        } else if path.hasPrefix("/object/") {
            let rest = path.dropFirst("/object/".count)
            if let (b, n) = bucketAndName(rest) {
                switch m {
                case "POST": return try upload(request, bucket: b, name: n, buckets: buckets, upsert: request.headers["x-upsert"] == "true")
                case "PUT": return try upload(request, bucket: b, name: n, buckets: buckets, upsert: true)
                case "GET", "HEAD": return try download(request, bucket: b, name: n, buckets: buckets, mode: .optionalAuth)
                case "DELETE": return try deleteObject(request, bucket: b, name: n)
                default: break
                }
            } else if m == "DELETE", !rest.isEmpty {
                return try deleteObjects(request, bucket: String(rest))
            }
        }
        return .json(404, ["message": .string("Route \(m):\(path) not found"), "error": "Not Found", "statusCode": 404])
    }

    // MARK: Authorization

    /// The caller of a Storage route. Storage reads only the Authorization header (the gateway
    /// routes /storage/v1 without checking `apikey`); `verify(token:)` checks signature and expiry.
    func storageCaller(_ request: HTTPRequest, required: Bool) throws -> AuthContext? {
        guard let header = request.headers["Authorization"] else {
            if required { throw StorageError.missingAuthorization }
            return nil
        }
        var token = Substring(header)
        if token.count >= 6, token.prefix(6).lowercased() == "bearer", token.dropFirst(6).first?.isWhitespace == true {
            token = token.dropFirst(6).drop { $0.isWhitespace }
        }
        do {
            guard !token.isEmpty else { throw StorageError.invalidJWT("jwt must be provided") }
            return try verify(token: String(token))
        } catch let e as JWTError {
            if !required { return nil }
            switch e {
            case .expired: throw StorageError.invalidJWT("jwt expired")
            case .invalidSignature: throw StorageError.invalidJWT("invalid signature")
            case .algorithmNotAllowed: throw StorageError.invalidJWT("invalid algorithm")
            case .malformed: throw StorageError.invalidJWT("jwt malformed")
            case .invalidClaim, .unsupportedCritical: throw StorageError.invalidJWT("invalid token")
            }
        } catch let e as StorageError {
            if !required { return nil }
            throw e
        }
    }

    func bucket(_ id: String, _ buckets: [BucketConfig]) -> BucketConfig? { buckets.first { $0.id == id } }

    /// Whether a policy cell lets `auth` through for a row of a virtual storage table.
    func storagePolicy(_ expr: Expr?, _ table: TableSchema, _ row: [SQLValue], _ auth: AuthContext) throws -> Bool {
        if auth.bypassesRLS { return true }
        guard let expr else { return false }
        return try database.evaluate(expr, table: table, row: row, as: auth)
    }

    // MARK: Rows and JSON

    static func pathTokens(_ name: String) -> [String] { name.components(separatedBy: "/") }

    /// `storage.extension(name)`: the part of the file name after its last dot (the whole name
    /// when it has none), as Supabase's SQL function computes it.
    static func fileExtension(_ name: String) -> String {
        let file = pathTokens(name).last ?? ""
        return file.components(separatedBy: ".").last ?? file
    }

    /// The object as a row of `storage.objects` (the columns its policies read).
    func objectRow(_ o: StoredObject) -> [SQLValue] {
        let tokens = MockSupabase.pathTokens(o.name)
        let owner = o.owner.map(SQLValue.text) ?? .null
        let values: [String: SQLValue] = [
            "id": .text(o.id), "bucket_id": .text(o.bucketID), "name": .text(o.name), "owner": owner, "owner_id": owner, "version": .text(o.version),
            "path_tokens": .array(tokens.map(SQLValue.text)), "folder": tokens.count > 1 ? .text(tokens[0]) : .null,
            "folders": .array(tokens.dropLast().map(SQLValue.text)), "filename": .text(tokens.last ?? ""),
            "extension": .text(MockSupabase.fileExtension(o.name)), "size": .int(Int64(o.data.count)), "mimetype": .text(o.mimetype),
            "metadata": .json(objectMetadata(o)), "user_metadata": o.userMetadata.map(SQLValue.json) ?? .null,
            "created_at": .timestamp(o.createdAt), "updated_at": .timestamp(o.updatedAt), "last_accessed_at": .timestamp(o.lastAccessedAt)
        ]
        return StorageConfiguration.objectColumns.map { values[$0.name] ?? .null }
    }

    /// A time as Storage's JSON prints it (JavaScript's `toISOString`: milliseconds, `Z`).
    static func isoTime(_ us: Int64) -> String {
        let ms = (us >= 0 ? us : us - 999) / 1000
        let s = PGTime.formatTimestamp(ms * 1000, withZone: false)
        let base = s.split(separator: ".").first.map(String.init) ?? s
        let frac = ((ms % 1000) + 1000) % 1000
        return base + "." + String(format: "%03d", frac) + "Z"
    }

    /// `Last-Modified`: the object's time to the second, in IMF-fixdate.
    static func httpDate(_ us: Int64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: PGTime.date(micros: us - ((us % 1_000_000) + 1_000_000) % 1_000_000))
    }

    /// `storage.objects.metadata` as Storage writes it after an upload.
    func objectMetadata(_ o: StoredObject) -> JSONValue {
        let lastModified = o.updatedAt - ((o.updatedAt % 1_000_000) + 1_000_000) % 1_000_000
        return [
            "eTag": .string(o.eTag), "size": .int(Int64(o.data.count)), "mimetype": .string(o.mimetype),
            "cacheControl": .string(o.cacheControl), "lastModified": .string(MockSupabase.isoTime(lastModified)),
            "contentLength": .int(Int64(o.data.count)), "httpStatusCode": 200
        ]
    }

    /// An object as `storage.objects` rows are returned (objectSchema).
    func objectJSON(_ o: StoredObject) -> JSONValue {
        [
            "name": .string(o.name), "bucket_id": .string(o.bucketID), "owner": o.owner.map(JSONValue.string) ?? .null,
            "owner_id": o.owner.map(JSONValue.string) ?? .null, "version": .string(o.version), "id": .string(o.id),
            "updated_at": .string(MockSupabase.isoTime(o.updatedAt)), "created_at": .string(MockSupabase.isoTime(o.createdAt)),
            "last_accessed_at": .string(MockSupabase.isoTime(o.lastAccessedAt)), "metadata": objectMetadata(o),
            "user_metadata": o.userMetadata ?? .null
        ]
    }

    func bucketStamp() -> Int64 {
        let now = PGTime.micros(configuration.clock.now())
        return storage.state.withLock { s in
            if let stamp = s.bucketStamp { return stamp }
            s.bucketStamp = now
            return now
        }
    }

    func bucketRow(_ b: BucketConfig, stamp: Int64) -> [SQLValue] {
        [
            .text(b.id), .text(b.name), .null, .bool(b.isPublic), b.fileSizeLimit.map { .int(Int64($0)) } ?? .null,
            b.allowedMimeTypes.map { .array($0.map(SQLValue.text)) } ?? .null, .timestamp(stamp), .timestamp(stamp)
        ]
    }

    func bucketJSON(_ b: BucketConfig, stamp: Int64) -> JSONValue {
        [
            "id": .string(b.id), "name": .string(b.name), "owner": "", "public": .bool(b.isPublic),
            "file_size_limit": b.fileSizeLimit.map { .int(Int64($0)) } ?? .null,
            "allowed_mime_types": b.allowedMimeTypes.map { .array($0.map(JSONValue.string)) } ?? .null,
            "created_at": .string(MockSupabase.isoTime(stamp)), "updated_at": .string(MockSupabase.isoTime(stamp))
        ]
    }

    // MARK: Buckets

    func listBuckets(_ request: HTTPRequest, _ buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let stamp = bucketStamp()
        var out: [JSONValue] = []
        for b in buckets where try storagePolicy(b.bucketSelect, StorageConfiguration.bucketsTable, bucketRow(b, stamp: stamp), auth) {
            out.append(bucketJSON(b, stamp: stamp))
        }
        return .json(200, .array(out))
    }

    func getBucket(_ request: HTTPRequest, _ id: String, _ buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let stamp = bucketStamp()
        guard let b = bucket(id, buckets), try storagePolicy(b.bucketSelect, StorageConfiguration.bucketsTable, bucketRow(b, stamp: stamp), auth) else {
            throw StorageError.noSuchBucket
        }
        return .json(200, bucketJSON(b, stamp: stamp))
    }

    // MARK: Upload

    /// Storage's object-name rule (`mustBeValidKey`): S3-safe characters only, not empty.
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty
            && key.unicodeScalars.allSatisfy { c in
                (c.isASCII && (CharacterSet.alphanumerics.contains(c) || c == "_")) || "/!-.*'() &$@=;:+,?".unicodeScalars.contains(c)
            }
    }

    /// Storage's MIME rule: `type/subtype` equal to an allowed entry, or `type/*`.
    static func mimeAllowed(_ mime: String, _ allowed: [String]) -> Bool {
        let req = mime.split(separator: "/", omittingEmptySubsequences: false)
        guard req.count >= 2 else { return false }
        return allowed.contains { a in
            let p = a.split(separator: "/", omittingEmptySubsequences: false)
            return p.count >= 2 && p[0] == req[0] && (p[1] == "*" || p[1] == req[1])
        }
    }

    /// Uploads an object. `signedOwner` is set for a signed upload URL: the upload runs as the
    /// service role and records the token's owner.
    func upload(
        _ request: HTTPRequest, bucket bucketID: String, name: String, buckets: [BucketConfig], upsert: Bool,
        signedOwner: String?? = nil
    ) throws -> HTTPResponse {
        let auth = signedOwner != nil ? AuthContext.serviceRole : try storageCaller(request, required: true)!
        guard let b = bucket(bucketID, buckets) else { throw StorageError.noSuchBucket }
        let emptyFolder = name.hasSuffix(".emptyFolderPlaceholder")
        let limit = emptyFolder ? 0 : min(b.fileSizeLimit ?? storage.globalFileSizeLimit, storage.globalFileSizeLimit)

        // The file: a multipart form's file part, or the raw body.
        let contentType = request.headers["Content-Type"] ?? ""
        let data: Data, mimetype: String, cacheControl: String
        var userMetadata: JSONValue?
        let multipart = contentType.lowercased().hasPrefix("multipart/form-data")
        if multipart {
            let parts: [FormPart]
            do { parts = try Multipart.parse(request.body, contentType: contentType) } catch let e as MultipartError {
                throw StorageError.noContent(e.description)
            }
            let fields = ["cacheControl", "contentType", "metadata", "userMetadata"]
            guard let file = parts.first(where: { $0.filename != nil }) ?? parts.first(where: { !fields.contains($0.name) }) else {
                throw StorageError.noContent()
            }
            func field(_ n: String) -> String? { parts.first { $0.name == n && $0.filename == nil }.map { String(decoding: $0.data, as: UTF8.self) } }
            data = file.data
            mimetype = field("contentType").flatMap { $0.isEmpty ? nil : $0 } ?? file.contentType ?? "text/plain"
            cacheControl = field("cacheControl").map { "max-age=\($0)" } ?? "no-cache"
            if let md = field("metadata") ?? field("userMetadata") { userMetadata = try? JSONValue.parse(md) }
        } else {
            data = request.body
            mimetype = contentType.isEmpty ? "application/octet-stream" : contentType
            cacheControl = request.headers["Cache-Control"] ?? "no-cache"
            if let md = request.headers["x-metadata"], let raw = Data(base64Encoded: md) { userMetadata = try? JSONValue.parse(raw) }
        }
        if let allowed = b.allowedMimeTypes, !allowed.isEmpty, !emptyFolder, !MockSupabase.mimeAllowed(mimetype, allowed) {
            throw StorageError.invalidMimeType(mimetype)
        }
        if !multipart && data.count > limit { throw StorageError.entityTooLarge }
        guard MockSupabase.isValidKey(name) else { throw StorageError.invalidKey(name) }

        // Row-level security on storage.objects, then the unique (bucket_id, name) key.
        let now = PGTime.micros(configuration.clock.now())
        let existing = storage.object(bucket: bucketID, name: name)
        let owner = signedOwner ?? auth.userID
        let version = configuration.ids.uuid()
        let newID = existing?.id ?? configuration.ids.uuid()
        let object = StoredObject(
            id: newID, bucketID: bucketID, name: name, owner: owner, data: data, mimetype: mimetype,
            cacheControl: cacheControl, eTag: "\"\(MD5.hex(data))\"", createdAt: existing?.createdAt ?? now,
            updatedAt: now, lastAccessedAt: now, userMetadata: userMetadata, version: version)
        let newRow = objectRow(object)
        guard try storagePolicy(b.cell(.insert)?.check, StorageConfiguration.objectsTable, newRow, auth) else { throw StorageError.rlsViolation }
        if let existing {
            guard upsert else { throw StorageError.alreadyExists }
            let oldRow = objectRow(existing)
            let update = b.cell(.update)
            guard try storagePolicy(b.cell(.select)?.using, StorageConfiguration.objectsTable, oldRow, auth),
                try storagePolicy(update?.using, StorageConfiguration.objectsTable, oldRow, auth),
                try storagePolicy(update?.check ?? update?.using, StorageConfiguration.objectsTable, newRow, auth)
            else {
                throw StorageError.rlsViolation
            }
        }
        if multipart && data.count > limit { throw StorageError.entityTooLarge }
        try checkDotSegments(bucket: bucketID, name: name, version: version)
        storage.state.withLock { $0.objects[bucketID, default: [:]][name] = object }
        return .json(200, ["Id": .string(object.id), "Key": .string("\(bucketID)/\(name)")])
    }

    // MARK: Download

    enum DownloadMode { case publicOnly, authenticated, optionalAuth }

    func download(_ request: HTTPRequest, bucket bucketID: String, name: String, buckets: [BucketConfig], mode: DownloadMode) throws -> HTTPResponse {
        // The public route serves public buckets only; the others need a caller unless public,
        // and read a private bucket's objects through its SELECT policy.
        let auth = mode == .publicOnly ? nil : try storageCaller(request, required: mode == .authenticated)
        guard let b = bucket(bucketID, buckets), b.isPublic || (mode != .publicOnly && auth != nil) else { throw StorageError.noSuchBucket }
        var object = storage.object(bucket: b.id, name: name)
        if let o = object, let auth, !b.isPublic, try !storagePolicy(b.cell(.select)?.using, StorageConfiguration.objectsTable, objectRow(o), auth) {
            object = nil
        }
        guard let o = object else { throw StorageError.noSuchKey }
        return serve(o, request)
    }

    func serve(_ o: StoredObject, _ request: HTTPRequest) -> HTTPResponse {
        var h = HTTPHeaders()
        h.add("Accept-Ranges", "bytes")
        h.add("Content-Type", o.mimetype.contains("text/html") ? "text/plain" : o.mimetype)
        h.add("ETag", o.eTag)
        h.add("Last-Modified", MockSupabase.httpDate(o.updatedAt))
        h.add("Cache-Control", o.cacheControl)
        if let d = request.queryValue("download") {
            // encodeURIComponent: everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ) is percent-encoded.
            let keep = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
            let enc = d.addingPercentEncoding(withAllowedCharacters: keep) ?? d
            h.add("Content-Disposition", d.isEmpty ? "attachment;" : "attachment; filename=\(enc); filename*=UTF-8''\(enc);")
        }
        if let inm = request.headers["If-None-Match"], inm == o.eTag || inm == "*" {
            h.set("Content-Length", nil)
            return HTTPResponse(status: 304, headers: h)
        }
        var body = o.data
        var status = 200
        if let range = request.headers["Range"], let (lo, hi) = MockSupabase.byteRange(range, count: o.data.count) {
            body = o.data.subdata(in: lo..<(hi + 1))
            status = 206
            h.add("Content-Range", "bytes \(lo)-\(hi)/\(o.data.count)")
        }
        h.add("Content-Length", String(body.count))
        return HTTPResponse(status: status, headers: h, body: request.method == "HEAD" ? Data() : body)
    }

    /// A single `bytes=a-b`, `bytes=a-` or `bytes=-n` range within `count` bytes.
    static func byteRange(_ header: String, count: Int) -> (Int, Int)? {
        guard header.lowercased().hasPrefix("bytes="), count > 0 else { return nil }
        let spec = header.dropFirst(6)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let a = spec[..<dash].trimmingCharacters(in: .whitespaces), b = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if a.isEmpty {
            guard let n = Int(b), n > 0 else { return nil }
            return (max(0, count - n), count - 1)
        }
        guard let lo = Int(a), lo < count else { return nil }
        if b.isEmpty { return (lo, count - 1) }
        guard let hi = Int(b), hi >= lo else { return nil }
        return (lo, min(hi, count - 1))
    }

    // MARK: List

    /// SQL `ILIKE`: `%` any run, `_` one character, case-insensitive.
    static func ilike(_ s: String, _ pattern: String) -> Bool {
        let t = Array(s.lowercased()), p = Array(pattern.lowercased())
        var ti = 0, pi = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count && (p[pi] == "_" || p[pi] == t[ti]) && p[pi] != "%" {
                ti += 1; pi += 1
            } else if pi < p.count && p[pi] == "%" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "%" { pi += 1 }
        return pi == p.count
    }

    func listObjects(_ request: HTTPRequest, _ bucketID: String) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let body = try storageBody(request, StorageRouteBodies.listObjects)
        var prefix = body["prefix"]?.stringValue ?? ""
        // storage.search: LEAST(coalesce(limits, 100), 1500). A null limit or offset has been
        // coerced to 0 by the schema, so `limit: null` fails its minimum as it does upstream.
        let limit = min(body["limit"]?.intValue.map(Int.init) ?? 100, 1500)
        let offset = body["offset"]?.intValue.map(Int.init) ?? 0
        let search = body["search"]?.stringValue ?? ""
        var column = "name", ascending = true
        if let o = body["sortBy"]?.objectValue {
            column = o["column"]?.stringValue ?? column
            if let s = o["order"]?.stringValue { ascending = s == "asc" }
        }
        if !prefix.isEmpty && !prefix.hasSuffix("/") { prefix += "/" }
        let level = prefix.components(separatedBy: "/").count // storage.search's `levels`
        let b = (try? storageBuckets())?.first { $0.id == bucketID }
        var folders = Set<String>()
        var files: [(name: String, object: StoredObject)] = []
        let all = storage.state.withLock { Array(($0.objects[bucketID] ?? [:]).values) }
        // storage.search (migrations 0050-0063, pg.ts searchObjects): a case-insensitive prefix
        // match of prefix + search, `%` and `_` taken literally (escaped for ILIKE, a range scan
        // when sorting by name).
        let literal = (prefix + search).lowercased()
        for o in all where o.name.lowercased().hasPrefix(literal) {
            guard let b, try storagePolicy(b.cell(.select)?.using, StorageConfiguration.objectsTable, objectRow(o), auth) else { continue }
            let tokens = MockSupabase.pathTokens(o.name)
            guard tokens.count >= level else { continue }
            if tokens.count == level { files.append((tokens[level - 1], o)) } else { folders.insert(tokens[level - 1]) }
        }
        func less(_ x: String, _ y: String) -> Bool { x.utf8.lexicographicallyPrecedes(y.utf8) }
        let sortedFolders = folders.sorted { ascending ? less($0, $1) : less($1, $0) }
        let key: (StoredObject) -> Int64 = { o in column == "created_at" ? o.createdAt : (column == "updated_at" ? o.updatedAt : o.lastAccessedAt) }
        files.sort { x, y in
            if column == "name" { return ascending ? less(x.name, y.name) : less(y.name, x.name) }
            let (a, c) = (key(x.object), key(y.object))
            return ascending ? a < c : a > c
        }
        let folderRows: [(String, JSONValue)] = sortedFolders.map {
            ($0, ["name": .string($0), "id": .null, "updated_at": .null, "created_at": .null, "last_accessed_at": .null, "metadata": .null])
        }
        let fileRows: [(String, JSONValue)] = files.map { f in
            (
                f.name,
                [
                    "name": .string(f.name), "id": .string(f.object.id), "updated_at": .string(MockSupabase.isoTime(f.object.updatedAt)),
                    "created_at": .string(MockSupabase.isoTime(f.object.createdAt)), "last_accessed_at": .string(MockSupabase.isoTime(f.object.lastAccessedAt)),
                    "metadata": objectMetadata(f.object)
                ]
            )
        }
        var out: [JSONValue]
        if column == "name" {
            // One walk over lower(name) COLLATE "C": folders and files interleave by name.
            let merged = (folderRows + fileRows).sorted { x, y in
                let (a, b) = (x.0.lowercased(), y.0.lowercased())
                return ascending ? less(a, b) : less(b, a)
            }
            out = merged.map(\.1)
        } else {
            out = folderRows.map(\.1) + fileRows.map(\.1)
        }
        let page = Array(out.dropFirst(offset).prefix(limit))
        return .json(200, .array(page))
    }

    // MARK: Delete

    /// Whether the caller may delete an object: PostgreSQL applies the SELECT policy to the rows
    /// a DELETE reads, so both must pass.
    func mayDelete(_ o: StoredObject, _ b: BucketConfig?, _ auth: AuthContext) throws -> Bool {
        if auth.bypassesRLS { return true }
        guard let b else { return false }
        let row = objectRow(o)
        return try storagePolicy(b.cell(.select)?.using, StorageConfiguration.objectsTable, row, auth)
            && storagePolicy(b.cell(.delete)?.using, StorageConfiguration.objectsTable, row, auth)
    }

    func deleteObject(_ request: HTTPRequest, bucket bucketID: String, name: String) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let b = (try storageBuckets()).first { $0.id == bucketID }
        guard let o = storage.object(bucket: bucketID, name: name), try mayDelete(o, b, auth) else { throw StorageError.noSuchKey }
        storage.state.withLock { _ = $0.objects[bucketID]?.removeValue(forKey: name) }
        return .json(200, ["message": "Successfully deleted"])
    }

    func deleteObjects(_ request: HTTPRequest, bucket bucketID: String) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let body = try storageBody(request, StorageRouteBodies.deleteObjects)
        let names = (body["prefixes"]?.arrayValue ?? []).compactMap(\.stringValue)
        let b = (try storageBuckets()).first { $0.id == bucketID }
        var deleted: [JSONValue] = []
        var seen = Set<String>()
        for n in names where seen.insert(n).inserted {
            guard let o = storage.object(bucket: bucketID, name: n), try mayDelete(o, b, auth) else { continue }
            deleted.append(objectJSON(o))
            storage.state.withLock { _ = $0.objects[bucketID]?.removeValue(forKey: n) }
        }
        return .json(200, .array(deleted))
    }
}
