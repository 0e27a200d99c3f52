import Foundation

/// Storage's object routes beyond upload, download, list and delete: signed download URLs (one
/// and many), signed GETs, signed upload URLs and the PUT they allow, object info, move and copy.
/// Followed from supabase/storage `src/http/routes/object/{getSignedURL,getSignedURLs,
/// getSignedObject,getSignedUploadURL,uploadSignedObject,getObjectInfo,moveObject,copyObject}.ts`
/// and `src/storage/object.ts`.
extension MockSupabase {
    /// The routes of this file, or nil when the request is not one of them.
    func routeStorageObjects(_ request: HTTPRequest, path: String, buckets: [BucketConfig]) throws -> HTTPResponse? {
        let m = request.method
        func split(_ rest: Substring) -> (String, String)? {
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            let n = String(rest[rest.index(after: slash)...])
            return n.isEmpty ? nil : (String(rest[..<slash]), n)
        }
        if path.hasPrefix("/object/upload/sign/"), let (b, n) = split(path.dropFirst("/object/upload/sign/".count)) {
            if m == "POST" { return try signUploadURL(request, bucket: b, name: n, buckets: buckets) }
            if m == "PUT" { return try uploadSigned(request, bucket: b, name: n, buckets: buckets) }
        } else if path.hasPrefix("/object/sign/") {
            let rest = path.dropFirst("/object/sign/".count)
            if let (b, n) = split(rest) {
                if m == "POST" { return try signURL(request, bucket: b, name: n, buckets: buckets) }
                if m == "GET" || m == "HEAD" { return try signedDownload(request, bucket: b, name: n) }
            } else if m == "POST", !rest.isEmpty, !rest.contains("/") {
                return try signURLs(request, bucket: String(rest), buckets: buckets)
            }
        } else if path.hasPrefix("/object/info/") {
            var rest = path.dropFirst("/object/info/".count)
            var publicRoute = false
            if rest.hasPrefix("public/") {
                rest = rest.dropFirst("public/".count); publicRoute = true
            } else if rest.hasPrefix("authenticated/") {
                rest = rest.dropFirst("authenticated/".count)
            }
            if m == "GET", let (b, n) = split(rest) { return try objectInfo(request, bucket: b, name: n, buckets: buckets, publicRoute: publicRoute) }
        } else if path == "/object/move", m == "POST" {
            return try moveOrCopy(request, buckets: buckets, copy: false)
        } else if path == "/object/copy", m == "POST" {
            return try moveOrCopy(request, buckets: buckets, copy: true)
        }
        return nil
    }

    /// `expiresIn` of a body the route's schema has checked (an integer ≥ 1; the string `"60"`
    /// that supabase-py sends is 60 by then).
    func expiresIn(_ body: [String: JSONValue]) -> Int64 { body["expiresIn"]?.intValue ?? 1 }

    /// The JSON body checked and coerced by the route's schema, as Fastify hands it to the route;
    /// a body that is not JSON is refused as not an object.
    func storageBody(_ request: HTTPRequest, _ schema: StorageBodySchema) throws -> [String: JSONValue] {
        guard let parsed = try? JSONValue.parse(request.body) else { throw StorageError.validation("body must be object") }
        guard case .object(let o) = try schema.validate(parsed) else { throw StorageError.validation("body must be object") }
        return o
    }

    /// A signed-URL token (`signJWT`): HS256 with the project's secret, `url`, `scope`, `iat`, `exp`.
    func signStorageToken(_ claims: [String: JSONValue], expiresIn: Int64) -> String {
        let now = Int64(configuration.clock.now().timeIntervalSince1970)
        var c = claims
        c["iat"] = .int(now)
        c["exp"] = .int(now + expiresIn)
        return JWT.sign(c, secret: configuration.jwtSecret)
    }

    /// The object a caller may read (`findObject` under the caller's RLS), or `NoSuchKey`.
    func readableObject(_ auth: AuthContext, bucket bucketID: String, name: String, buckets: [BucketConfig]) throws -> StoredObject {
        guard MockSupabase.isValidKey(name) else { throw StorageError.invalidKey(name) }
        guard let o = storage.object(bucket: bucketID, name: name) else { throw StorageError.noSuchKey }
        if auth.bypassesRLS { return o }
        guard let b = bucket(bucketID, buckets),
            try storagePolicy(b.cell(.select)?.using, StorageConfiguration.objectsTable, objectRow(o), auth)
        else { throw StorageError.noSuchKey }
        return o
    }

    /// `POST /object/sign/{bucket}/{path}` → `{"signedURL": "/object/sign/{bucket}/{path}?token=…"}`.
    func signURL(_ request: HTTPRequest, bucket bucketID: String, name: String, buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let body = try storageBody(request, StorageRouteBodies.signURL)
        let exp = expiresIn(body)
        _ = try readableObject(auth, bucket: bucketID, name: name, buckets: buckets)
        let url = "\(bucketID)/\(name)"
        let token = signStorageToken(["url": .string(url), "scope": "download"], expiresIn: exp)
        return .json(200, ["signedURL": .string("/object/sign/\(url)?token=\(token)")])
    }

    /// `POST /object/sign/{bucket}` with `paths`: one entry per path, in order, with `error` for
    /// those the caller cannot read.
    func signURLs(_ request: HTTPRequest, bucket bucketID: String, buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let body = try storageBody(request, StorageRouteBodies.signURLs)
        let exp = expiresIn(body)
        var out: [JSONValue] = []
        for path in (body["paths"]?.arrayValue ?? []).compactMap(\.stringValue) {
            let readable = (try? readableObject(auth, bucket: bucketID, name: path, buckets: buckets)) != nil
            if readable {
                let url = "\(bucketID)/\(path)"
                let token = signStorageToken(["url": .string(url), "scope": "download"], expiresIn: exp)
                out.append(["error": .null, "path": .string(path), "signedURL": .string("/object/sign/\(url)?token=\(token)")])
            } else {
                out.append(["error": "Either the object does not exist or you do not have access to it", "path": .string(path), "signedURL": .null])
            }
        }
        return .json(200, .array(out))
    }

    /// Checks a signed-URL token for a path and scope (`verifyObjectSignature`).
    func verifyStorageToken(_ token: String?, bucket bucketID: String, name: String, scope: String) throws -> [String: JSONValue] {
        guard let token else { throw StorageError.validation("querystring must have required property 'token'") }
        let claims: [String: JSONValue]
        do { claims = try JWT.verify(token, secret: configuration.jwtSecret, now: configuration.clock.now()) } catch let e as JWTError {
            // jsonwebtoken's messages, passed on as InvalidJWT.
            let message: String
            switch e {
            case .expired: message = "jwt expired"
            case .invalidSignature: message = "invalid signature"
            case .malformed: message = "jwt malformed"
            default: message = "invalid token"
            }
            throw StorageError(400, code: "InvalidJWT", error: "InvalidJWT", message: message)
        }
        guard claims["scope"]?.stringValue == scope else {
            throw StorageError(400, code: "InvalidSignature", error: "InvalidSignature", message: "Token is not scoped for \(scope)")
        }
        guard claims["url"]?.stringValue == "\(bucketID)/\(name)" else {
            throw StorageError(400, code: "InvalidSignature", error: "InvalidSignature", message: "Invalid signature")
        }
        return claims
    }

    /// `GET /object/sign/{bucket}/{path}?token=`: no Authorization needed; the token must match the
    /// path and not be expired.
    func signedDownload(_ request: HTTPRequest, bucket bucketID: String, name: String) throws -> HTTPResponse {
        let claims = try verifyStorageToken(request.queryValue("token"), bucket: bucketID, name: name, scope: "download")
        guard let o = storage.object(bucket: bucketID, name: name) else { throw StorageError.noSuchKey }
        var r = serve(o, request)
        if let exp = claims["exp"]?.doubleValue {
            r.headers.add("Expires", MockSupabase.httpDate(Int64(exp) * 1_000_000))
        }
        return r
    }

    /// `POST /object/upload/sign/{bucket}/{path}` → `{"url": "/object/upload/sign/…?token=…", "token"}`
    /// valid two hours (`UPLOAD_SIGNED_URL_EXPIRATION_TIME`); the caller must be allowed to insert.
    func signUploadURL(_ request: HTTPRequest, bucket bucketID: String, name: String, buckets: [BucketConfig]) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        guard let b = bucket(bucketID, buckets) else { throw StorageError.noSuchBucket }
        guard MockSupabase.isValidKey(name) else { throw StorageError.invalidKey(name) }
        let upsert = request.headers["x-upsert"] == "true"
        let now = PGTime.micros(configuration.clock.now())
        let probe = StoredObject(
            id: configuration.ids.uuid(), bucketID: bucketID, name: name, owner: auth.userID, data: Data(),
            mimetype: request.headers["Content-Type"] ?? "", cacheControl: "no-cache", eTag: "", createdAt: now,
            updatedAt: now, lastAccessedAt: now, userMetadata: nil, version: "")
        guard try storagePolicy(b.cell(.insert)?.check, StorageConfiguration.objectsTable, objectRow(probe), auth) else {
            throw StorageError.rlsViolation
        }
        if !upsert, storage.object(bucket: bucketID, name: name) != nil { throw StorageError.alreadyExists }
        let url = "\(bucketID)/\(name)"
        var claims: [String: JSONValue] = ["url": .string(url), "upsert": .bool(upsert), "scope": "upload"]
        if let owner = auth.userID { claims["owner"] = .string(owner) }
        let token = signStorageToken(claims, expiresIn: 7200)
        return .json(200, ["url": .string("/object/upload/sign/\(url)?token=\(token)"), "token": .string(token)])
    }

    /// `PUT /object/upload/sign/{bucket}/{path}?token=`: uploads as the token's owner, without
    /// Authorization; answers `{"Key": "<bucket>/<path>"}`.
    func uploadSigned(_ request: HTTPRequest, bucket bucketID: String, name: String, buckets: [BucketConfig]) throws -> HTTPResponse {
        let claims = try verifyStorageToken(request.queryValue("token"), bucket: bucketID, name: name, scope: "upload")
        let r = try upload(
            request, bucket: bucketID, name: name, buckets: buckets, upsert: claims["upsert"]?.boolValue ?? false,
            signedOwner: .some(claims["owner"]?.stringValue))
        return .json(r.status, ["Key": .string("\(bucketID)/\(name)")])
    }

    /// `GET /object/info/[public/|authenticated/]{bucket}/{path}` (the info renderer).
    func objectInfo(_ request: HTTPRequest, bucket bucketID: String, name: String, buckets: [BucketConfig], publicRoute: Bool) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: false)
        let b = bucket(bucketID, buckets)
        if auth == nil, b?.isPublic != true { throw StorageError.noSuchBucket }
        guard let b else { throw StorageError.noSuchBucket }
        let o = try readableObject(b.isPublic || publicRoute ? .serviceRole : auth!, bucket: bucketID, name: name, buckets: buckets)
        var h = HTTPHeaders()
        h.add("Content-Type", "application/json")
        h.add("ETag", o.eTag)
        h.add("Last-Modified", MockSupabase.httpDate(o.updatedAt))
        h.add("Cache-Control", o.cacheControl)
        let body: JSONValue = [
            "id": .string(o.id), "name": .string(o.name), "version": .string(o.version), "bucket_id": .string(o.bucketID),
            "size": .int(Int64(o.data.count)), "content_type": .string(o.mimetype), "cache_control": .string(o.cacheControl),
            "etag": .string(o.eTag), "metadata": o.userMetadata ?? .null,
            "last_modified": .string(MockSupabase.isoTime(o.updatedAt)), "created_at": .string(MockSupabase.isoTime(o.createdAt))
        ]
        return .json(200, body, headers: h)
    }

    /// `POST /object/move` → `{"message": "Successfully moved", "Id", "Key": "<destination name>"}`;
    /// `POST /object/copy` → `{"Id", "Key": "<bucket>/<destination>", …the new row}`.
    func moveOrCopy(_ request: HTTPRequest, buckets: [BucketConfig], copy: Bool) throws -> HTTPResponse {
        let auth = try storageCaller(request, required: true)!
        let body = try storageBody(request, copy ? StorageRouteBodies.copyObject : StorageRouteBodies.moveObject)
        func str(_ k: String) -> String { body[k]?.stringValue ?? "" }
        let srcBucket = str("bucketId"), src = str("sourceKey"), dst = str("destinationKey")
        // `destinationBucket || bucketId`: absent, or null coerced to "", is the source bucket.
        let dstBucket = str("destinationBucket").isEmpty ? srcBucket : str("destinationBucket")
        guard MockSupabase.isValidKey(dst) else { throw StorageError.invalidKey(dst) }
        let upsert = copy && request.headers["x-upsert"] == "true"
        let source = try readableObject(auth, bucket: srcBucket, name: src, buckets: buckets)
        guard let db = bucket(dstBucket, buckets) else { throw StorageError.noSuchBucket }
        let now = PGTime.micros(configuration.clock.now())
        let version = configuration.ids.uuid()
        try checkDotSegments(bucket: dstBucket, name: dst, version: version)
        let existing = storage.object(bucket: dstBucket, name: dst)
        var moved = source
        moved.bucketID = dstBucket
        moved.name = dst
        moved.version = version
        moved.owner = auth.userID
        moved.updatedAt = now
        if copy {
            moved.id = existing?.id ?? configuration.ids.uuid()
            moved.createdAt = existing?.createdAt ?? now
            moved.lastAccessedAt = now
            if case .object(let md)? = body["metadata"], body["copyMetadata"]?.boolValue == false {
                if let c = md["cacheControl"]?.stringValue { moved.cacheControl = c }
                if let t = md["mimetype"]?.stringValue { moved.mimetype = t }
            }
            // canUpload on the destination: INSERT, and UPDATE of the row it replaces when upserting.
            guard try storagePolicy(db.cell(.insert)?.check, StorageConfiguration.objectsTable, objectRow(moved), auth) else { throw StorageError.rlsViolation }
            if let existing {
                guard upsert else { throw StorageError.alreadyExists }
                let u = db.cell(.update)
                guard try storagePolicy(u?.using, StorageConfiguration.objectsTable, objectRow(existing), auth),
                    try storagePolicy(u?.check ?? u?.using, StorageConfiguration.objectsTable, objectRow(moved), auth)
                else { throw StorageError.rlsViolation }
            }
        } else {
            // An UPDATE of the source row: its USING on the old row, its CHECK on the new one.
            let sb = bucket(srcBucket, buckets)
            let u = sb?.cell(.update)
            if !auth.bypassesRLS {
                guard try storagePolicy(u?.using, StorageConfiguration.objectsTable, objectRow(source), auth) else { throw StorageError.noSuchKey }
                let check = (dstBucket == srcBucket ? u : db.cell(.update)).flatMap { $0.check ?? $0.using }
                guard try storagePolicy(check, StorageConfiguration.objectsTable, objectRow(moved), auth) else { throw StorageError.rlsViolation }
            }
            if existing != nil && !(dstBucket == srcBucket && dst == src) { throw StorageError.alreadyExists }
        }
        // Checked again and written under one lock: a concurrent write to the destination, or a
        // concurrent move of the source, loses cleanly.
        let outcome: StorageError? = storage.state.withLock { s in
            if !copy, s.objects[srcBucket]?[src]?.version != source.version { return StorageError.noSuchKey }
            let replacing = s.objects[dstBucket]?[dst]
            let sameObject = !copy && dstBucket == srcBucket && dst == src
            if replacing != nil, !sameObject, !(copy && upsert) { return StorageError.alreadyExists }
            if !copy { s.objects[srcBucket]?.removeValue(forKey: src) }
            s.objects[dstBucket, default: [:]][dst] = moved
            return nil
        }
        if let outcome { throw outcome }
        if !copy { return .json(200, ["message": "Successfully moved", "Id": .string(moved.id), "Key": .string(dst)]) }
        guard case .object(var row) = objectJSON(moved) else { return .json(500, [:]) }
        row["Id"] = .string(moved.id)
        row["Key"] = .string("\(dstBucket)/\(dst)")
        return .json(200, .object(row))
    }

    /// The file backend's path check (`storage/backend/secure-path.ts`): a `.` or `..` segment in
    /// the object's path refuses the write with `Invalid key: <path> contains dot path segment`,
    /// the path being `<bucket>/<tenant>/<bucket id>/<name>/<version>` (`stub/stub/…` on
    /// `supabase start`).
    func checkDotSegments(bucket bucketID: String, name: String, version: String) throws {
        let segments = name.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        if segments.contains(where: { $0 == "." || $0 == ".." }) {
            throw StorageError(
                400, code: "InvalidKey", error: "InvalidKey",
                message: "Invalid key: stub/stub/\(bucketID)/\(name)/\(version) contains dot path segment")
        }
    }
}
