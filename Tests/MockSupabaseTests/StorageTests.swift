import Foundation
import XCTest
import MockBinding
@testable import MockSupabase

/// A backend with in-test buckets: the mock's Storage, independent of any app.
enum StorageFixture {
    static let ana = "a0000000-0000-4000-8000-00000000000a"
    static let bob = "b0000000-0000-4000-8000-00000000000b"

    static let schema = """
        { "tables": [ { "name": "members", "columns": [
            { "name": "user_id", "type": "uuid", "primaryKey": true },
            { "name": "team", "type": "text", "nullable": false } ] } ] }
        """

    /// `{user_id}/*` is `{"eq": [{"column": "folder"}, "auth.uid"]}`: the first folder of the
    /// object name is the caller's id (`(storage.foldername(name))[1] = auth.uid()::text`).
    static let ownFolder: JSONValue = ["eq": [["column": "folder"], "auth.uid"]]

    static let buckets: JSONValue = [
        [
            "id": "avatars", "public": true, "fileSizeLimit": 1024, "allowedMimeTypes": ["image/png", "image/jpeg"],
            "policies": [
                "select": "public",
                "insert": ["all": ["authenticated", ownFolder]],
                "update": ["doc": "own folder", "using": ownFolder, "check": ownFolder],
                "delete": ["owner": "owner"]
            ],
            "bucketSelect": "public"
        ],
        [
            "id": "documents", "public": false, "fileSizeLimit": "2KB", "allowedMimeTypes": ["application/pdf", "text/*"],
            "policies": ["select": ownFolder, "insert": ownFolder, "delete": ownFolder]
        ],
        [
            "id": "team", "public": false,
            "policies": [
                "select": [
                    "exists": [
                        "table": "members",
                        "where": [
                            "all": [
                                ["eq": [["column": "user_id"], "auth.uid"]], ["eq": [["column": "team"], ["outer": "folder"]]]
                            ]
                        ]
                    ]
                ],
                "insert": "authenticated"
            ]
        ],
        ["id": "locked", "public": false]
    ]

    static func backend(buckets: JSONValue = buckets, clock: ManualClock = ManualClock()) throws -> MockSupabase {
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(Self.schema), file: "schema.json"))
        let personas = [
            Persona(name: "ana", id: ana, email: "ana@storage.test", password: "ana-password", label: "", metadata: [:]),
            Persona(name: "bob", id: bob, email: "bob@storage.test", password: "bob-password", label: "", metadata: [:])
        ]
        let fixtures = Fixtures(personas: personas, tables: [(table: "members", rows: [["user_id": .string(ana), "team": "red"]])])
        let spec = AppSpec(
            app: "storagetest", folder: URL(fileURLWithPath: NSTemporaryDirectory()), schema: schema, policies: .empty,
            fixtures: fixtures, buckets: buckets.arrayValue ?? [])
        return try MockSupabase(configuration: MockConfiguration(spec: spec, clock: clock, ids: SeededIDGenerator(seed: 42)))
    }
}

/// Sends Storage requests the way supabase-swift and supabase-js do.
struct StorageClient {
    let backend: MockSupabase
    /// `ana`, `bob`, `anon`, `service_role`, a raw token, or nil for no Authorization header.
    var actor: String?

    var token: String? {
        switch actor {
        case nil: return nil
        case "anon": return backend.anonKey
        case "service_role": return backend.serviceRoleKey
        case "ana": return backend.accessToken(for: StorageFixture.ana, email: "ana@storage.test")
        case "bob": return backend.accessToken(for: StorageFixture.bob, email: "bob@storage.test")
        case let raw?: return raw
        }
    }

    func send(_ method: String, _ target: String, headers: [(String, String)] = [], body: Data = Data()) throws -> HTTPResponse {
        var h = HTTPHeaders()
        h.add("apikey", backend.anonKey)
        if let token { h.add("Authorization", "Bearer \(token)") }
        for (k, v) in headers { h.add(k, v) }
        return try backend.handle(HTTPRequest(method: method, target: "/storage/v1" + target, headers: h, body: body))
    }

    /// A raw-body upload (supabase-js with an ArrayBuffer, supabase-swift's `upload(_:data:)`).
    func upload(_ bucket: String, _ name: String, _ data: Data, type: String, upsert: Bool? = nil, method: String = "POST") throws -> HTTPResponse {
        var h = [("Content-Type", type), ("Cache-Control", "max-age=3600")]
        if let upsert { h.append(("x-upsert", upsert ? "true" : "false")) }
        return try send(method, "/object/\(bucket)/\(name)", headers: h, body: data)
    }

    /// A multipart upload as supabase-js sends a File: a `cacheControl` field and the file part.
    func uploadForm(_ bucket: String, _ name: String, _ data: Data, type: String, cacheControl: String = "3600") throws -> HTTPResponse {
        let boundary = "----formdata-undici-0123456789"
        var body = Data()
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n\(cacheControl)\r\n".utf8))
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\"; filename=\"blob\"\r\nContent-Type: \(type)\r\n\r\n".utf8))
        body.append(data)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return try send("POST", "/object/\(bucket)/\(name)", headers: [("Content-Type", "multipart/form-data; boundary=\(boundary)")], body: body)
    }
}

final class StorageUploadTests: XCTestCase {
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100))
    var backend: MockSupabase!
    var ana: StorageClient { StorageClient(backend: backend, actor: "ana") }
    var bob: StorageClient { StorageClient(backend: backend, actor: "bob") }

    override func setUpWithError() throws { backend = try StorageFixture.backend() }

    func assertStorageError(
        _ r: HTTPResponse, _ statusCode: String, _ code: String?, _ error: String, _ message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(r.status, statusCode.hasPrefix("5") ? Int(statusCode)! : 400, "Storage answers HTTP 400 below 500", file: file, line: line)
        XCTAssertEqual(r.headers["Content-Type"], "application/json; charset=utf-8", file: file, line: line)
        var expected: JSONValue = ["statusCode": .string(statusCode), "error": .string(error), "message": .string(message)]
        if let code { expected = .object(expected.objectValue!.merging(["code": .string(code)]) { a, _ in a }) }
        XCTAssertEqual(r.jsonBody, expected, r.text, file: file, line: line)
    }

    func testRawUploadThenPublicDownload() throws {
        let r = try ana.upload("avatars", "\(StorageFixture.ana)/me.png", png, type: "image/png")
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.jsonBody?["Key"], .string("avatars/\(StorageFixture.ana)/me.png"))
        let id = try XCTUnwrap(r.jsonBody?["Id"]?.stringValue)
        XCTAssertNotNil(SQLValue.canonicalUUID(id))
        XCTAssertEqual(r.jsonBody?.objectValue?.keys.sorted(), ["Id", "Key"])

        let g = try StorageClient(backend: backend, actor: nil).send("GET", "/object/public/avatars/\(StorageFixture.ana)/me.png")
        XCTAssertEqual(g.status, 200)
        XCTAssertEqual(g.body, png)
        XCTAssertEqual(g.headers["Content-Type"], "image/png")
        XCTAssertEqual(g.headers["Content-Length"], "108")
        XCTAssertEqual(g.headers["Cache-Control"], "max-age=3600")
        XCTAssertEqual(g.headers["ETag"], "\"\(MD5.hex(png))\"")
        XCTAssertEqual(g.headers["Last-Modified"], "Thu, 01 Jan 2026 00:00:00 GMT")
        XCTAssertEqual(g.headers["Accept-Ranges"], "bytes")
    }

    func testMultipartUploadAsSupabaseJSSendsIt() throws {
        let r = try ana.uploadForm("avatars", "\(StorageFixture.ana)/form.jpg", png, type: "image/jpeg")
        XCTAssertEqual(r.status, 200, r.text)
        let o = try XCTUnwrap(backend.storage.object(bucket: "avatars", name: "\(StorageFixture.ana)/form.jpg"))
        XCTAssertEqual(o.data, png)
        XCTAssertEqual(o.mimetype, "image/jpeg")
        XCTAssertEqual(o.cacheControl, "max-age=3600")
        XCTAssertEqual(o.owner, StorageFixture.ana)
    }

    func testDuplicateUploadNeedsUpsert() throws {
        let name = "\(StorageFixture.ana)/me.png"
        let first = try ana.upload("avatars", name, png, type: "image/png")
        let again = try ana.upload("avatars", name, Data([1, 2, 3]), type: "image/png", upsert: false)
        assertStorageError(again, "409", "ResourceAlreadyExists", "Duplicate", "The resource already exists")
        XCTAssertEqual(backend.storage.object(bucket: "avatars", name: name)?.data, png, "the first upload is untouched")

        (backend.configuration.clock as! ManualClock).advance(by: 60)
        let upsert = try ana.upload("avatars", name, Data([1, 2, 3]), type: "image/png", upsert: true)
        XCTAssertEqual(upsert.status, 200, upsert.text)
        XCTAssertEqual(upsert.jsonBody?["Id"], first.jsonBody?["Id"], "an upsert keeps the object's id")
        let o = try XCTUnwrap(backend.storage.object(bucket: "avatars", name: name))
        XCTAssertEqual(o.data, Data([1, 2, 3]))
        XCTAssertEqual(o.updatedAt - o.createdAt, 60_000_000)
        // PUT is an upsert too.
        XCTAssertEqual(try ana.upload("avatars", name, png, type: "image/png", method: "PUT").status, 200)
        XCTAssertEqual(backend.storage.object(bucket: "avatars", name: name)?.data, png)
    }

    func testOversizedUploadsAreRefusedAndNothingIsStored() throws {
        let big = Data(repeating: 1, count: 1025)
        assertStorageError(
            try ana.upload("avatars", "\(StorageFixture.ana)/big.png", big, type: "image/png"),
            "413", "EntityTooLarge", "Payload too large", "The object exceeded the maximum allowed size")
        assertStorageError(
            try ana.uploadForm("avatars", "\(StorageFixture.ana)/big.png", big, type: "image/png"),
            "413", "EntityTooLarge", "Payload too large", "The object exceeded the maximum allowed size")
        XCTAssertEqual(
            try ana.upload("avatars", "\(StorageFixture.ana)/edge.png", Data(repeating: 1, count: 1024), type: "image/png").status, 200,
            "exactly the limit is accepted")
        // "2KB" is 2000 bytes; the global limit caps every bucket.
        XCTAssertEqual(try ana.upload("documents", "\(StorageFixture.ana)/a.txt", Data(repeating: 65, count: 2001), type: "text/plain").status, 400)
        XCTAssertEqual(try ana.upload("documents", "\(StorageFixture.ana)/a.txt", Data(repeating: 65, count: 2000), type: "text/plain").status, 200)
        backend.storage.globalFileSizeLimit = 10
        assertStorageError(
            try ana.upload("documents", "\(StorageFixture.ana)/b.txt", Data(repeating: 65, count: 11), type: "text/plain"),
            "413", "EntityTooLarge", "Payload too large", "The object exceeded the maximum allowed size")
        XCTAssertEqual(backend.storage.objectNames(bucket: "avatars"), ["\(StorageFixture.ana)/edge.png"])
        XCTAssertEqual(backend.storage.objectNames(bucket: "documents"), ["\(StorageFixture.ana)/a.txt"])
    }

    func testWrongTypeIsRefusedAndWildcardsMatch() throws {
        assertStorageError(
            try ana.upload("avatars", "\(StorageFixture.ana)/x.gif", png, type: "image/gif"),
            "415", "InvalidMimeType", "invalid_mime_type", "mime type image/gif is not supported")
        assertStorageError(
            try ana.uploadForm("avatars", "\(StorageFixture.ana)/x.pdf", png, type: "application/pdf"),
            "415", "InvalidMimeType", "invalid_mime_type", "mime type application/pdf is not supported")
        XCTAssertEqual(try ana.upload("documents", "\(StorageFixture.ana)/n.md", Data("# hi".utf8), type: "text/markdown").status, 200, "text/* matches")
        XCTAssertEqual(
            try ana.upload("avatars", "\(StorageFixture.ana)/.emptyFolderPlaceholder", Data(), type: "application/octet-stream").status, 200,
            "folder placeholders skip the type check")
        XCTAssertEqual(backend.storage.objectNames(bucket: "avatars"), ["\(StorageFixture.ana)/.emptyFolderPlaceholder"])
    }

    func testFolderPoliciesAndAuthorization() throws {
        assertStorageError(
            try bob.upload("avatars", "\(StorageFixture.ana)/evil.png", png, type: "image/png"),
            "403", "AccessDenied", "Unauthorized", "new row violates row-level security policy")
        assertStorageError(
            try StorageClient(backend: backend, actor: "anon").upload("avatars", "anon.png", png, type: "image/png"),
            "403", "AccessDenied", "Unauthorized", "new row violates row-level security policy")
        assertStorageError(
            try StorageClient(backend: backend, actor: nil).upload("avatars", "x.png", png, type: "image/png"),
            "400", nil, "Error", "headers must have required property 'authorization'")
        let expired = backend.accessToken(for: StorageFixture.ana, expiresIn: -10)
        assertStorageError(
            try StorageClient(backend: backend, actor: expired).upload("avatars", "\(StorageFixture.ana)/x.png", png, type: "image/png"),
            "403", "AccessDenied", "Unauthorized", "jwt expired")
        let forged = JWT.sign(["sub": .string(StorageFixture.ana), "role": "authenticated"], secret: "another-secret-another-secret-123")
        assertStorageError(
            try StorageClient(backend: backend, actor: forged).upload("avatars", "\(StorageFixture.ana)/x.png", png, type: "image/png"),
            "403", "AccessDenied", "Unauthorized", "invalid signature")
        assertStorageError(
            try StorageClient(backend: backend, actor: "not-a-jwt").send("GET", "/bucket"), "403", "AccessDenied", "Unauthorized", "jwt malformed")
        XCTAssertEqual(
            try StorageClient(backend: backend, actor: "service_role").upload("locked", "anything.bin", png, type: "application/octet-stream").status, 200,
            "the service role bypasses RLS")
        assertStorageError(
            try ana.upload("locked", "\(StorageFixture.ana)/a.bin", png, type: "application/octet-stream"),
            "403", "AccessDenied", "Unauthorized", "new row violates row-level security policy")
        assertStorageError(try ana.upload("nope", "a.png", png, type: "image/png"), "404", "NoSuchBucket", "Bucket not found", "Bucket not found")
        assertStorageError(
            try ana.upload("avatars", "\(StorageFixture.ana)/bad#name.png", png, type: "image/png"),
            "400", "InvalidKey", "InvalidKey", "Invalid key: \(StorageFixture.ana)/bad#name.png")
        XCTAssertEqual(backend.storage.objectNames(bucket: "avatars"), [])
        XCTAssertEqual(backend.storage.objectNames(bucket: "locked"), ["anything.bin"])
    }

    func testUpsertNeedsTheUpdatePolicy() throws {
        let name = "\(StorageFixture.ana)/cv.pdf"
        XCTAssertEqual(try ana.upload("documents", name, Data("v1".utf8), type: "application/pdf").status, 200)
        // documents has no UPDATE policy: overwriting is refused, a PUT of a new name is an insert.
        assertStorageError(
            try ana.upload("documents", name, Data("v2".utf8), type: "application/pdf", method: "PUT"),
            "403", "AccessDenied", "Unauthorized", "new row violates row-level security policy")
        XCTAssertEqual(try ana.upload("documents", "\(StorageFixture.ana)/new.pdf", Data("n".utf8), type: "application/pdf", method: "PUT").status, 200)
        XCTAssertEqual(backend.storage.object(bucket: "documents", name: name)?.data, Data("v1".utf8))
        // avatars: bob may not overwrite ana's object even with upsert.
        XCTAssertEqual(try ana.upload("avatars", "\(StorageFixture.ana)/me.png", png, type: "image/png").status, 200)
        XCTAssertEqual(try bob.upload("avatars", "\(StorageFixture.ana)/me.png", Data([9]), type: "image/png", upsert: true).status, 400)
        XCTAssertEqual(backend.storage.object(bucket: "avatars", name: "\(StorageFixture.ana)/me.png")?.data, png)
    }

    func testMalformedMultipartIsRefused() throws {
        assertStorageError(
            try ana.send("POST", "/object/avatars/\(StorageFixture.ana)/m.png", headers: [("Content-Type", "multipart/form-data")], body: Data("x".utf8)),
            "400", "InvalidRequest", "InvalidRequest", "Multipart: Boundary not found")
        assertStorageError(
            try ana.send(
                "POST", "/object/avatars/\(StorageFixture.ana)/m.png", headers: [("Content-Type", "multipart/form-data; boundary=zz")],
                body: Data("--zz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nabc".utf8)),
            "400", "InvalidRequest", "InvalidRequest", "Unexpected end of form")
        assertStorageError(
            try ana.send(
                "POST", "/object/avatars/\(StorageFixture.ana)/m.png", headers: [("Content-Type", "multipart/form-data; boundary=zz")],
                body: Data("--zz\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n60\r\n--zz--\r\n".utf8)),
            "400", "InvalidRequest", "InvalidRequest", "No content provided")
        XCTAssertEqual(backend.storage.objectNames(bucket: "avatars"), [])
    }
}

final class StorageReadTests: XCTestCase {
    var backend: MockSupabase!
    var ana: StorageClient { StorageClient(backend: backend, actor: "ana") }
    var bob: StorageClient { StorageClient(backend: backend, actor: "bob") }
    let doc = Data("%PDF-1.7 hello".utf8)

    override func setUpWithError() throws {
        backend = try StorageFixture.backend()
        XCTAssertEqual(try ana.upload("documents", "\(StorageFixture.ana)/cv.pdf", doc, type: "application/pdf").status, 200)
    }

    func testPrivateObjectsFollowTheSelectPolicy() throws {
        let path = "/object/authenticated/documents/\(StorageFixture.ana)/cv.pdf"
        let mine = try ana.send("GET", path)
        XCTAssertEqual(mine.status, 200)
        XCTAssertEqual(mine.body, doc)
        XCTAssertEqual(mine.headers["Content-Type"], "application/pdf")
        let theirs = try bob.send("GET", path)
        XCTAssertEqual(theirs.status, 400)
        XCTAssertEqual(theirs.jsonBody, ["statusCode": "404", "code": "NoSuchKey", "error": "not_found", "message": "Object not found"])
        XCTAssertEqual(try ana.send("GET", "/object/documents/\(StorageFixture.ana)/cv.pdf").status, 200, "GET /object/<bucket>/… with a JWT")
        let anonymous = try StorageClient(backend: backend, actor: nil).send("GET", "/object/documents/\(StorageFixture.ana)/cv.pdf")
        XCTAssertEqual(anonymous.jsonBody, ["statusCode": "404", "code": "NoSuchBucket", "error": "Bucket not found", "message": "Bucket not found"])
        let publicRoute = try ana.send("GET", "/object/public/documents/\(StorageFixture.ana)/cv.pdf")
        XCTAssertEqual(publicRoute.jsonBody?["code"], "NoSuchBucket", "the public route serves public buckets only")
        let noAuth = try StorageClient(backend: backend, actor: nil).send("GET", path)
        XCTAssertEqual(noAuth.jsonBody?["message"], "headers must have required property 'authorization'")
    }

    func testPublicBucketServesEveryone() throws {
        XCTAssertEqual(try ana.upload("avatars", "\(StorageFixture.ana)/me.png", Data([1, 2, 3, 4, 5, 6]), type: "image/png").status, 200)
        for actor in [nil, "anon", "bob"] as [String?] {
            let c = StorageClient(backend: backend, actor: actor)
            XCTAssertEqual(try c.send("GET", "/object/public/avatars/\(StorageFixture.ana)/me.png").status, 200)
            XCTAssertEqual(try c.send("GET", "/object/avatars/\(StorageFixture.ana)/me.png").status, 200)
        }
        let missing = try StorageClient(backend: backend, actor: nil).send("GET", "/object/public/avatars/none.png")
        XCTAssertEqual(missing.jsonBody?["code"], "NoSuchKey")
    }

    func testRangesConditionalRequestsAndDownloadNames() throws {
        let path = "/object/authenticated/documents/\(StorageFixture.ana)/cv.pdf"
        let part = try ana.send("GET", path, headers: [("Range", "bytes=0-3")])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, Data("%PDF".utf8))
        XCTAssertEqual(part.headers["Content-Range"], "bytes 0-3/14")
        XCTAssertEqual(part.headers["Content-Length"], "4")
        XCTAssertEqual(try ana.send("GET", path, headers: [("Range", "bytes=-5")]).body, Data("hello".utf8))
        let etag = try XCTUnwrap(try ana.send("GET", path).headers["ETag"])
        let cached = try ana.send("GET", path, headers: [("If-None-Match", etag)])
        XCTAssertEqual(cached.status, 304)
        XCTAssertTrue(cached.body.isEmpty)
        let named = try ana.send("GET", path + "?download=my%20cv.pdf")
        XCTAssertEqual(named.headers["Content-Disposition"], "attachment; filename=my%20cv.pdf; filename*=UTF-8''my%20cv.pdf;")
        XCTAssertEqual(try ana.send("GET", path + "?download").headers["Content-Disposition"], "attachment;")
        let head = try ana.send("HEAD", path)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["Content-Length"], "14")
        XCTAssertTrue(head.body.isEmpty)
    }

    func testExistsPoliciesReadTheAppTables() throws {
        let admin = StorageClient(backend: backend, actor: "service_role")
        XCTAssertEqual(try admin.upload("team", "red/plan.txt", Data("red".utf8), type: "text/plain").status, 200)
        XCTAssertEqual(try admin.upload("team", "blue/plan.txt", Data("blue".utf8), type: "text/plain").status, 200)
        XCTAssertEqual(try ana.send("GET", "/object/authenticated/team/red/plan.txt").status, 200, "ana is a member of red")
        XCTAssertEqual(try ana.send("GET", "/object/authenticated/team/blue/plan.txt").jsonBody?["code"], "NoSuchKey")
        XCTAssertEqual(try bob.send("GET", "/object/authenticated/team/red/plan.txt").jsonBody?["code"], "NoSuchKey")
        // Membership is read at request time.
        try backend.database.insert("members", [["user_id": .string(StorageFixture.bob), "team": "blue"]])
        XCTAssertEqual(try bob.send("GET", "/object/authenticated/team/blue/plan.txt").status, 200)
    }

    func testListShowsOneLevelUnderRLS() throws {
        let a = StorageFixture.ana
        for n in ["b.pdf", "a.pdf", "sub/x.pdf", "sub/y.pdf", "Zed/z.pdf"] {
            (backend.configuration.clock as! ManualClock).advance(by: 1)
            XCTAssertEqual(try ana.upload("documents", "\(a)/\(n)", doc, type: "application/pdf").status, 200)
        }
        XCTAssertEqual(try bob.upload("documents", "\(StorageFixture.bob)/bob.pdf", doc, type: "application/pdf").status, 200)
        func list(_ c: StorageClient, _ body: JSONValue) throws -> HTTPResponse {
            try c.send("POST", "/object/list/documents", headers: [("Content-Type", "application/json")], body: body.data())
        }
        let root = try list(ana, ["prefix": ""])
        XCTAssertEqual(root.status, 200)
        XCTAssertEqual(
            root.jsonBody, [["name": .string(a), "id": .null, "updated_at": .null, "created_at": .null, "last_accessed_at": .null, "metadata": .null]],
            "bob's folder is hidden by RLS")
        let r = try list(ana, ["prefix": .string(a), "limit": 100, "offset": 0, "sortBy": ["column": "name", "order": "asc"]])
        let names = r.jsonBody?.arrayValue?.compactMap { $0["name"]?.stringValue }
        XCTAssertEqual(
            names, ["a.pdf", "b.pdf", "cv.pdf", "sub", "Zed"],
            "sorted by name, storage.search walks lower(name) COLLATE \"C\": folders and files interleave")
        let file = try XCTUnwrap(r.jsonBody?.arrayValue?.first { $0["name"] == "cv.pdf" })
        XCTAssertEqual(file["created_at"], "2026-01-01T00:00:00.000Z")
        XCTAssertEqual(
            file["metadata"],
            [
                "eTag": .string("\"\(MD5.hex(doc))\""), "size": 14, "mimetype": "application/pdf", "cacheControl": "max-age=3600",
                "lastModified": "2026-01-01T00:00:00.000Z", "contentLength": 14, "httpStatusCode": 200
            ])
        let byTime = try list(ana, ["prefix": .string(a + "/"), "sortBy": ["column": "created_at", "order": "desc"], "limit": 3, "offset": 1])
        // Folders sort by name in the requested order (sub, Zed), files by created_at (a, b, cv); then offset and limit.
        XCTAssertEqual(byTime.jsonBody?.arrayValue?.compactMap { $0["name"]?.stringValue }, ["Zed", "a.pdf", "b.pdf"])
        let search = try list(ana, ["prefix": .string(a), "search": "SU"])
        XCTAssertEqual(search.jsonBody?.arrayValue?.compactMap { $0["name"]?.stringValue }, ["sub"], "search is a case-insensitive prefix")
        XCTAssertEqual(try list(bob, ["prefix": .string(a)]).jsonBody, [])
        XCTAssertEqual(try list(ana, ["prefix": "", "search": "x"]).jsonBody, [])
        XCTAssertEqual(try list(ana, ["prefix": .string(a), "search": "_.pdf"]).jsonBody, [], "_ is a plain character, not ILIKE's wildcard")
        XCTAssertEqual(try list(ana, ["prefix": .string(a), "search": "%"]).jsonBody, [], "% is a plain character")

        let bad = try list(ana, ["limit": 10])
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(bad.jsonBody, ["statusCode": "400", "error": "Error", "message": "body must have required property 'prefix'"])
        XCTAssertEqual(try list(ana, ["prefix": "", "limit": 0]).jsonBody?["message"], "body/limit must be >= 1")
        XCTAssertEqual(try list(ana, ["prefix": .string(a), "limit": "2"]).jsonBody?.arrayValue?.count, 2, "a numeric string is coerced as Fastify coerces it")
        XCTAssertEqual(try list(ana, ["prefix": "", "limit": "two"]).jsonBody?["message"], "body/limit must be integer")
        XCTAssertEqual(
            try list(ana, ["prefix": "", "sortBy": ["column": "size"]]).jsonBody?["message"], "body/sortBy/column must be equal to one of the allowed values")
    }

    func testDeleteOneAndMany() throws {
        let a = StorageFixture.ana
        XCTAssertEqual(try ana.upload("documents", "\(a)/b.pdf", doc, type: "application/pdf").status, 200)
        let other = try bob.send("DELETE", "/object/documents/\(a)/cv.pdf")
        XCTAssertEqual(other.jsonBody, ["statusCode": "404", "code": "NoSuchKey", "error": "not_found", "message": "Object not found"])
        let ok = try ana.send("DELETE", "/object/documents/\(a)/cv.pdf")
        XCTAssertEqual(ok.status, 200)
        XCTAssertEqual(ok.jsonBody, ["message": "Successfully deleted"])
        XCTAssertEqual(try ana.send("DELETE", "/object/documents/\(a)/cv.pdf").jsonBody?["code"], "NoSuchKey")

        XCTAssertEqual(try bob.upload("documents", "\(StorageFixture.bob)/mine.pdf", doc, type: "application/pdf").status, 200)
        let body: JSONValue = ["prefixes": [.string("\(a)/b.pdf"), .string("\(StorageFixture.bob)/mine.pdf"), "missing.pdf"]]
        let many = try ana.send("DELETE", "/object/documents", headers: [("Content-Type", "application/json")], body: body.data())
        XCTAssertEqual(many.status, 200)
        let deleted = try XCTUnwrap(many.jsonBody?.arrayValue)
        XCTAssertEqual(deleted.map { $0["name"] }, [.string("\(a)/b.pdf")], "only what RLS lets ana delete")
        XCTAssertEqual(deleted.first?["bucket_id"], "documents")
        XCTAssertEqual(deleted.first?["owner"], .string(a))
        XCTAssertEqual(
            deleted.first.map { Set($0.objectValue!.keys) },
            ["name", "bucket_id", "owner", "owner_id", "version", "id", "updated_at", "created_at", "last_accessed_at", "metadata", "user_metadata"])
        XCTAssertEqual(backend.storage.objectNames(bucket: "documents"), ["\(StorageFixture.bob)/mine.pdf"])
        let empty = try ana.send("DELETE", "/object/documents", headers: [("Content-Type", "application/json")], body: Data(#"{"prefixes":[]}"#.utf8))
        XCTAssertEqual(empty.jsonBody, ["statusCode": "400", "error": "Error", "message": "body/prefixes must NOT have fewer than 1 items"])
    }

    func testBuckets() throws {
        let all = try StorageClient(backend: backend, actor: "service_role").send("GET", "/bucket")
        XCTAssertEqual(all.status, 200)
        XCTAssertEqual(all.jsonBody?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["avatars", "documents", "team", "locked"])
        XCTAssertEqual(
            all.jsonBody?.arrayValue?.first,
            [
                "id": "avatars", "name": "avatars", "owner": "", "public": true, "file_size_limit": 1024,
                "allowed_mime_types": ["image/png", "image/jpeg"], "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"
            ])
        XCTAssertEqual(all.jsonBody?.arrayValue?[1]["file_size_limit"], 2000)
        XCTAssertEqual(all.jsonBody?.arrayValue?[2]["allowed_mime_types"], .null)
        XCTAssertEqual(
            try ana.send("GET", "/bucket").jsonBody?.arrayValue?.compactMap { $0["id"]?.stringValue }, ["avatars"],
            "without a bucketSelect policy a bucket is listed to the service role only")
        XCTAssertEqual(try ana.send("GET", "/bucket/avatars").jsonBody?["public"], true)
        XCTAssertEqual(
            try ana.send("GET", "/bucket/documents").jsonBody,
            ["statusCode": "404", "code": "NoSuchBucket", "error": "Bucket not found", "message": "Bucket not found"])
        XCTAssertEqual(try StorageClient(backend: backend, actor: "service_role").send("GET", "/bucket/documents").status, 200)
        let unknownRoute = try ana.send("PATCH", "/bucket/avatars")
        XCTAssertEqual(unknownRoute.status, 404)
        XCTAssertEqual(unknownRoute.jsonBody, ["message": "Route PATCH:/bucket/avatars not found", "error": "Not Found", "statusCode": 404])
    }

    func testResetEmptiesStorage() throws {
        XCTAssertEqual(backend.storage.objectNames(bucket: "documents").count, 1)
        try backend.reset()
        XCTAssertEqual(backend.storage.objectNames(bucket: "documents"), [])
    }
}

final class StorageConfigurationTests: XCTestCase {
    func decode(_ buckets: JSONValue) throws -> [BucketConfig] {
        try StorageConfiguration.decode(SpecNode(value: buckets, file: "Contracts/x/storage.json", path: "$.buckets"))
    }

    func testErrorsNameFileAndPath() throws {
        let cases: [(JSONValue, String)] = [
            (
                [["id": "a", "pubic": true]],
                "Contracts/x/storage.json: $.buckets[0].pubic: unknown key 'pubic' (known here: allowedMimeTypes, bucketSelect, decision, decisions, doc, fileSizeLimit, id, name, policies, public, source)"
            ),
            (
                [["id": "a", "fileSizeLimit": "5 parsecs"]],
                "Contracts/x/storage.json: $.buckets[0].fileSizeLimit: invalid size '5 parsecs' (bytes, or a number with B, KB, MB, GB, KiB, MiB, GiB)"
            ),
            (
                [["id": "a", "allowedMimeTypes": ["png"]]],
                "Contracts/x/storage.json: $.buckets[0].allowedMimeTypes[0]: invalid MIME type 'png' (type/subtype or type/*)"
            ),
            (
                [["id": "a", "policies": ["select": ["eq": [["column": "fodler"], "auth.uid"]]]]],
                "Contracts/x/storage.json: $.buckets[0].policies.select: unknown column 'fodler' of storage.objects (known: id, bucket_id, name, owner, owner_id, version, path_tokens, folder, folders, filename, extension, size, mimetype, metadata, user_metadata, created_at, updated_at, last_accessed_at)"
            ),
            (
                [["id": "a", "policies": ["insert": ["doc": "x", "using": "public"]]]],
                "Contracts/x/storage.json: $.buckets[0].policies.insert.using: INSERT has no USING expression; use 'check'"
            ),
            ([["id": "a"], ["id": "a"]], "Contracts/x/storage.json: $.buckets[1].id: duplicate bucket id 'a'")
        ]
        for (json, message) in cases {
            XCTAssertThrowsError(try decode(json)) { XCTAssertEqual("\($0)", message) }
        }
        XCTAssertEqual(try decode([["id": "a", "fileSizeLimit": "50MiB"]]).first?.fileSizeLimit, 52_428_800)
    }

    /// A bad storage.json does not crash the backend: every Storage request answers 500 naming the problem.
    func testBadConfigurationAnswersEveryRequestWithTheError() throws {
        let b = try StorageFixture.backend(buckets: [["id": "a", "policies": ["select": ["exists": ["table": "teams", "where": true]]]]])
        let r = try StorageClient(backend: b, actor: "ana").send("GET", "/bucket")
        XCTAssertEqual(r.status, 500)
        XCTAssertEqual(
            r.jsonBody,
            [
                "statusCode": "500", "code": "InternalError", "error": "Internal",
                "message": "Contracts/storagetest/storage.json: $.buckets[0].policies.select: 'exists' names unknown table 'teams'"
            ])
    }

    func testMD5MatchesRFC1321() {
        XCTAssertEqual(MD5.hex(Data()), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(MD5.hex(Data("abc".utf8)), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(
            MD5.hex(Data("12345678901234567890123456789012345678901234567890123456789012345678901234567890".utf8)), "57edf4a22be3c955ac49da2e2107b67a")
    }

    /// Lengths around the padding's edges (the length field fits in the last block or needs
    /// another), whole blocks, and an object of a megabyte; the digests are md5sum's.
    func testMD5AtThePaddingEdgesAndOverManyBlocks() {
        let expected: [(Int, String)] = [
            (55, "ef1772b6dff9a122358552954ad0df65"), (56, "3b0c8ac703f828b04c6c197006d17218"), (63, "b06521f39153d618550606be297466d5"),
            (64, "014842d480b571495a4a0363793f7367"), (65, "c743a45e0d2e6a95cb859adae0248435"), (119, "8a7bd0732ed6a28ce75f6dabc90e1613"),
            (120, "5f61c0ccad4cac44c75ff505e1f1e537"), (128, "e510683b3f5ffe4093d021808bc6ff70")
        ]
        for (n, digest) in expected { XCTAssertEqual(MD5.hex(Data(repeating: 0x61, count: n)), digest, "\(n) bytes of 'a'") }
        XCTAssertEqual(MD5.hex(Data(repeating: 0x5A, count: 1_000_003)), "fdf5c90c501ea8e53f457e8a51c50ce7")
        // A slice of a larger buffer (a multipart part) digests its own bytes.
        let framed = Data("xx".utf8) + Data("abc".utf8) + Data("yy".utf8)
        XCTAssertEqual(MD5.hex(framed.subdata(in: 2..<5)), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(MD5.hex(framed[2..<5]), "900150983cd24fb0d6963f7d28e17f72")
    }
}

/// The `{user_id}/*` folder rule, checked end to end, and shown to reject wrong configurations.
final class StorageFolderRuleTests: XCTestCase {
    /// Violations of "only the owner of a folder writes and reads it" on the `documents` bucket.
    static func folderRuleViolations(_ backend: MockSupabase) throws -> [String] {
        var v: [String] = []
        let ana = StorageClient(backend: backend, actor: "ana"), bob = StorageClient(backend: backend, actor: "bob")
        let mine = "\(StorageFixture.ana)/rule.txt"
        if try ana.upload("documents", mine, Data("a".utf8), type: "text/plain").status != 200 { v.append("owner cannot upload into own folder") }
        if try bob.upload("documents", "\(StorageFixture.ana)/intruder.txt", Data("b".utf8), type: "text/plain").status == 200 {
            v.append("bob uploaded into ana's folder")
        }
        if try bob.upload("documents", "rootfile.txt", Data("b".utf8), type: "text/plain").status == 200 { v.append("bob uploaded outside any folder") }
        if try bob.send("GET", "/object/authenticated/documents/\(mine)").status == 200 { v.append("bob read ana's file") }
        if try ana.send("GET", "/object/authenticated/documents/\(mine)").status != 200 { v.append("ana cannot read her file") }
        if try bob.send("DELETE", "/object/documents/\(mine)").status == 200 { v.append("bob deleted ana's file") }
        return v
    }

    func testFolderRuleHolds() throws {
        XCTAssertEqual(try Self.folderRuleViolations(try StorageFixture.backend()), [])
    }

    func testWrongConfigurationsAreRejected() throws {
        func mutant(_ change: (inout [String: JSONValue]) -> Void) throws -> [String] {
            var buckets = StorageFixture.buckets.arrayValue!
            var docs = buckets[1].objectValue!
            var policies = docs["policies"]!.objectValue!
            change(&policies)
            docs["policies"] = .object(policies)
            buckets[1] = .object(docs)
            return try Self.folderRuleViolations(try StorageFixture.backend(buckets: .array(buckets)))
        }
        XCTAssertFalse(try mutant { $0["insert"] = "authenticated" }.isEmpty, "insert open to any signed-in user")
        XCTAssertFalse(try mutant { $0["select"] = "authenticated" }.isEmpty, "select open to any signed-in user")
        XCTAssertFalse(try mutant { $0["insert"] = ["eq": [["column": "filename"], "auth.uid"]] }.isEmpty, "rule on the file name instead of the folder")
        XCTAssertFalse(try mutant { $0["insert"] = nil }.isEmpty, "no insert policy")
        XCTAssertFalse(
            try mutant {
                $0["delete"] = "authenticated"; $0["select"] = "authenticated"
            }.isEmpty, "delete and select open")
        // DELETE reads rows through the SELECT policy (as PostgreSQL does): opening DELETE alone lets bob delete nothing.
        XCTAssertEqual(try mutant { $0["delete"] = "authenticated" }, [])
    }
}

/// Storage over the wire: a real URLSession through the URLProtocol transport carries binary and
/// multipart bodies and binary responses unchanged.
final class StorageWireTests: XCTestCase {
    func testMultipartUploadAndBinaryDownloadOverURLSession() throws {
        let backend = try StorageFixture.backend()
        let wire = WireClient(backend)
        let bytes = Data((0..<512).map { UInt8($0 % 256) })
        let boundary = "Boundary-7MA4YWxkTrZu0gW"
        var body = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n60\r\n".utf8)
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n".utf8))
        body.append(bytes)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        var h = HTTPHeaders()
        h.add("Content-Type", "multipart/form-data; boundary=\(boundary)")
        h.add("Authorization", "Bearer \(backend.accessToken(for: StorageFixture.ana))")
        let up = try wire.send(method: "POST", path: "/storage/v1/object/avatars/\(StorageFixture.ana)/a b.png", headers: h, body: body)
        XCTAssertEqual(up.status, 200, up.text)
        XCTAssertEqual(up.jsonBody?["Key"], .string("avatars/\(StorageFixture.ana)/a b.png"), "percent-encoded names arrive decoded")
        let down = try wire.send(method: "GET", path: "/storage/v1/object/public/avatars/\(StorageFixture.ana)/a b.png")
        XCTAssertEqual(down.status, 200)
        XCTAssertEqual(down.body, bytes)
        XCTAssertEqual(down.headers["Cache-Control"], "max-age=60")
        XCTAssertEqual(down.headers["Content-Type"], "image/png")
        let tooBig = try wire.send(
            method: "POST", path: "/storage/v1/object/avatars/\(StorageFixture.ana)/big.png",
            headers: ["Content-Type": "image/png", "Authorization": "Bearer \(backend.accessToken(for: StorageFixture.ana))"],
            body: Data(count: 4096))
        XCTAssertEqual(tooBig.status, 400)
        XCTAssertEqual(
            tooBig.jsonBody,
            ["statusCode": "413", "code": "EntityTooLarge", "error": "Payload too large", "message": "The object exceeded the maximum allowed size"])
    }
}
