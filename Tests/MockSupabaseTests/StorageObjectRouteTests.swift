import Foundation
import XCTest
import MockBinding
@testable import MockSupabase

/// Signed URLs, signed uploads, info, exists, move, copy, bucket management and dot segments as
/// supabase/storage answers them (`src/http/routes/object/*.ts`, `bucket/*.ts`,
/// `src/storage/object.ts`, `src/storage/backend/secure-path.ts`).
final class StorageObjectRouteTests: XCTestCase {
    let pdf = Data("%PDF-1.4 hello".utf8)
    let clock = ManualClock()
    var backend: MockSupabase!
    var ana: StorageClient { StorageClient(backend: backend, actor: "ana") }
    var bob: StorageClient { StorageClient(backend: backend, actor: "bob") }
    var service: StorageClient { StorageClient(backend: backend, actor: "service_role") }
    var nobody: StorageClient { StorageClient(backend: backend, actor: nil) }
    var doc: String { "\(StorageFixture.ana)/cv.pdf" }

    override func setUpWithError() throws {
        backend = try StorageFixture.backend(clock: clock)
        XCTAssertEqual(try ana.upload("documents", doc, pdf, type: "application/pdf").status, 200)
    }

    func json(_ v: JSONValue) -> Data { v.data() }

    /// The Storage error body and status (HTTP 400 below 500); empty when it matches.
    func storageErrorViolations(_ r: HTTPResponse, _ statusCode: String, _ code: String, _ error: String, _ message: String) -> [String] {
        var v: [String] = []
        if r.status != (statusCode.hasPrefix("5") ? Int(statusCode)! : 400) { v.append("HTTP \(r.status)") }
        let expected: JSONValue = ["statusCode": .string(statusCode), "code": .string(code), "error": .string(error), "message": .string(message)]
        if r.jsonBody != expected { v.append("body \(r.text)") }
        return v
    }

    func testSignedURLDownloadsWithoutAuthorizationUntilItExpires() throws {
        let r = try ana.send("POST", "/object/sign/documents/\(doc)", headers: [("Content-Type", "application/json")], body: json(["expiresIn": 60]))
        XCTAssertEqual(r.status, 200, r.text)
        let signed = try XCTUnwrap(r.jsonBody?["signedURL"]?.stringValue)
        XCTAssertTrue(signed.hasPrefix("/object/sign/documents/\(doc)?token="), signed)
        let token = String(signed.split(separator: "=", maxSplits: 1)[1])
        let claims = try JWT.verify(token, secret: backend.configuration.jwtSecret, now: clock.now())
        XCTAssertEqual(claims["url"], .string("documents/\(doc)"))
        XCTAssertEqual(claims["scope"], "download")
        XCTAssertEqual(claims["exp"]?.intValue, Int64(clock.now().timeIntervalSince1970) + 60)

        let g = try nobody.send("GET", signed)
        XCTAssertEqual(g.status, 200, g.text)
        XCTAssertEqual(g.body, pdf)
        XCTAssertEqual(g.headers["Content-Type"], "application/pdf")
        // The token is bound to its path.
        let other = try nobody.send("GET", "/object/sign/documents/\(StorageFixture.ana)/other.pdf?token=\(token)")
        XCTAssertEqual(storageErrorViolations(other, "400", "InvalidSignature", "InvalidSignature", "Invalid signature"), [])
        clock.advance(by: 61)
        let late = try nobody.send("GET", signed)
        XCTAssertEqual(storageErrorViolations(late, "400", "InvalidJWT", "InvalidJWT", "jwt expired"), [])
        // Bob may not read Ana's folder, so he cannot sign it either.
        let theirs = try bob.send("POST", "/object/sign/documents/\(doc)", body: json(["expiresIn": 60]))
        XCTAssertEqual(storageErrorViolations(theirs, "404", "NoSuchKey", "not_found", "Object not found"), [])
        let zero = try ana.send("POST", "/object/sign/documents/\(doc)", body: json(["expiresIn": 0]))
        XCTAssertEqual(zero.jsonBody?["message"], "body/expiresIn must be >= 1")
    }

    func testBatchSigningKeepsOrderAndReportsUnreadablePaths() throws {
        let r = try ana.send("POST", "/object/sign/documents", body: json(["expiresIn": 120, "paths": [.string(doc), "nope/missing.pdf"]]))
        XCTAssertEqual(r.status, 200, r.text)
        let items = try XCTUnwrap(r.jsonBody?.arrayValue)
        XCTAssertEqual(items.count, 2)
        XCTAssertEqual(items[0]["path"], .string(doc))
        XCTAssertEqual(items[0]["error"], .null)
        XCTAssertTrue(items[0]["signedURL"]?.stringValue?.hasPrefix("/object/sign/documents/\(doc)?token=") ?? false)
        XCTAssertEqual(items[1], ["error": "Either the object does not exist or you do not have access to it", "path": "nope/missing.pdf", "signedURL": .null])
        let g = try nobody.send("GET", try XCTUnwrap(items[0]["signedURL"]?.stringValue))
        XCTAssertEqual(g.body, pdf)
    }

    func testSignedUploadURLThenPutWithTheToken() throws {
        let name = "\(StorageFixture.ana)/signed.pdf"
        let r = try ana.send("POST", "/object/upload/sign/documents/\(name)")
        XCTAssertEqual(r.status, 200, r.text)
        let token = try XCTUnwrap(r.jsonBody?["token"]?.stringValue)
        XCTAssertEqual(r.jsonBody?["url"], .string("/object/upload/sign/documents/\(name)?token=\(token)"))
        let put = try nobody.send("PUT", "/object/upload/sign/documents/\(name)?token=\(token)", headers: [("Content-Type", "application/pdf")], body: pdf)
        XCTAssertEqual(put.status, 200, put.text)
        XCTAssertEqual(put.jsonBody, ["Key": .string("documents/\(name)")])
        XCTAssertEqual(backend.storage.object(bucket: "documents", name: name)?.owner, StorageFixture.ana)
        let again = try nobody.send("PUT", "/object/upload/sign/documents/\(name)?token=\(token)", headers: [("Content-Type", "application/pdf")], body: pdf)
        XCTAssertEqual(storageErrorViolations(again, "409", "ResourceAlreadyExists", "Duplicate", "The resource already exists"), [])
        // A download token does not upload.
        let dl = try XCTUnwrap(try ana.send("POST", "/object/sign/documents/\(doc)", body: json(["expiresIn": 60])).jsonBody?["signedURL"]?.stringValue)
        let dlToken = String(dl.split(separator: "=", maxSplits: 1)[1])
        let wrong = try nobody.send("PUT", "/object/upload/sign/documents/\(doc)?token=\(dlToken)", body: pdf)
        XCTAssertEqual(storageErrorViolations(wrong, "400", "InvalidSignature", "InvalidSignature", "Token is not scoped for upload"), [])
        // Bob may not insert into Ana's folder: no token for him.
        let refused = try bob.send("POST", "/object/upload/sign/documents/\(name)x")
        XCTAssertEqual(storageErrorViolations(refused, "403", "AccessDenied", "Unauthorized", "new row violates row-level security policy"), [])
    }

    func testInfoAndExists() throws {
        let r = try ana.send("GET", "/object/info/documents/\(doc)")
        XCTAssertEqual(r.status, 200, r.text)
        let o = r.json()
        XCTAssertEqual(
            Set(o.objectValue?.keys.map { $0 } ?? []),
            ["id", "name", "version", "bucket_id", "size", "content_type", "cache_control", "etag", "metadata", "last_modified", "created_at"])
        XCTAssertEqual(o["name"], .string(doc))
        XCTAssertEqual(o["bucket_id"], "documents")
        XCTAssertEqual(o["size"], .int(Int64(pdf.count)))
        XCTAssertEqual(o["content_type"], "application/pdf")
        XCTAssertEqual(o["etag"], .string("\"\(MD5.hex(pdf))\""))
        XCTAssertEqual(r.headers["Content-Type"], "application/json")
        XCTAssertEqual(storageErrorViolations(try bob.send("GET", "/object/info/documents/\(doc)"), "404", "NoSuchKey", "not_found", "Object not found"), [])
        XCTAssertEqual(
            storageErrorViolations(try nobody.send("GET", "/object/info/documents/\(doc)"), "404", "NoSuchBucket", "Bucket not found", "Bucket not found"), [])
        XCTAssertEqual(try ana.send("HEAD", "/object/documents/\(doc)").status, 200)
        XCTAssertEqual(try ana.send("HEAD", "/object/documents/\(StorageFixture.ana)/none.pdf").status, 400)
    }

    func testMoveAndCopyResponseShapes() throws {
        // avatars: readable by all, writable in one's own folder (insert, update).
        let png = Data([0x89, 0x50, 0x4E, 0x47] + Array(repeating: 1, count: 20))
        let src = "\(StorageFixture.ana)/a.png", dst = "\(StorageFixture.ana)/moved.png"
        XCTAssertEqual(try ana.upload("avatars", src, png, type: "image/png").status, 200)
        let mv = try ana.send("POST", "/object/move", body: json(["bucketId": "avatars", "sourceKey": .string(src), "destinationKey": .string(dst)]))
        XCTAssertEqual(mv.status, 200, mv.text)
        XCTAssertEqual(mv.jsonBody?["message"], "Successfully moved")
        XCTAssertEqual(mv.jsonBody?["Key"], .string(dst))
        XCTAssertEqual(mv.jsonBody?.objectValue?.keys.sorted(), ["Id", "Key", "message"])
        XCTAssertNil(backend.storage.object(bucket: "avatars", name: src))
        XCTAssertEqual(backend.storage.object(bucket: "avatars", name: dst)?.data, png)

        let cp = try ana.send("POST", "/object/copy", body: json(["bucketId": "avatars", "sourceKey": .string(dst), "destinationKey": .string(src)]))
        XCTAssertEqual(cp.status, 200, cp.text)
        XCTAssertEqual(cp.jsonBody?["Key"], .string("avatars/\(src)"))
        XCTAssertEqual(cp.jsonBody?["name"], .string(src))
        XCTAssertEqual(cp.jsonBody?["bucket_id"], "avatars")
        XCTAssertEqual(cp.jsonBody?["Id"], cp.jsonBody?["id"])
        XCTAssertEqual(backend.storage.object(bucket: "avatars", name: dst)?.data, png, "the source stays")
        let dup = try ana.send("POST", "/object/copy", body: json(["bucketId": "avatars", "sourceKey": .string(dst), "destinationKey": .string(src)]))
        XCTAssertEqual(storageErrorViolations(dup, "409", "ResourceAlreadyExists", "Duplicate", "The resource already exists"), [])
        let stolen = try bob.send(
            "POST", "/object/move", body: json(["bucketId": "avatars", "sourceKey": .string(src), "destinationKey": .string("\(StorageFixture.bob)/y.png")]))
        XCTAssertEqual(storageErrorViolations(stolen, "404", "NoSuchKey", "not_found", "Object not found"), [])
        // documents has no UPDATE policy: even the owner cannot move there.
        let noUpdate = try ana.send(
            "POST", "/object/move", body: json(["bucketId": "documents", "sourceKey": .string(doc), "destinationKey": .string("\(StorageFixture.ana)/z.pdf")]))
        XCTAssertEqual(storageErrorViolations(noUpdate, "404", "NoSuchKey", "not_found", "Object not found"), [])
        let missing = try ana.send("POST", "/object/move", body: json(["bucketId": "documents", "sourceKey": .string(doc)]))
        XCTAssertEqual(missing.jsonBody?["message"], "body must have required property 'destinationKey'")
    }

    func testDotSegmentsAreRefusedAsTheFileBackendRefusesThem() throws {
        for name in ["\(StorageFixture.ana)/../evil.pdf", "\(StorageFixture.ana)/./x.pdf", "../\(StorageFixture.ana)/x.pdf"] {
            let r = try service.upload("documents", name, pdf, type: "application/pdf")
            XCTAssertEqual(r.status, 400, name)
            XCTAssertEqual(r.jsonBody?["code"], "InvalidKey", name)
            XCTAssertEqual(r.jsonBody?["statusCode"], "400")
            let message = r.jsonBody?["message"]?.stringValue ?? ""
            XCTAssertTrue(message.hasPrefix("Invalid key: stub/stub/documents/\(name)/"), message)
            XCTAssertTrue(message.hasSuffix(" contains dot path segment"), message)
            XCTAssertNil(backend.storage.object(bucket: "documents", name: name), "nothing stored")
        }
        XCTAssertEqual(
            try service.upload("documents", "\(StorageFixture.ana)/a..b.pdf", pdf, type: "application/pdf").status, 200, "dots inside a segment are fine")
        let mv = try service.send(
            "POST", "/object/move",
            body: json(["bucketId": "documents", "sourceKey": .string(doc), "destinationKey": .string("\(StorageFixture.ana)/../x.pdf")]))
        XCTAssertEqual(mv.jsonBody?["code"], "InvalidKey")
        XCTAssertNotNil(backend.storage.object(bucket: "documents", name: doc), "the source is untouched")
    }

    func testBucketLifecycle() throws {
        let c = try service.send(
            "POST", "/bucket", body: json(["name": "photos", "public": false, "file_size_limit": "1KB", "allowed_mime_types": ["image/*"]]))
        XCTAssertEqual(c.status, 200, c.text)
        XCTAssertEqual(c.jsonBody, ["name": "photos"])
        let again = try service.send("POST", "/bucket", body: json(["name": "photos"]))
        XCTAssertEqual(storageErrorViolations(again, "409", "ResourceAlreadyExists", "Duplicate", "The resource already exists"), [])
        let bad = try service.send("POST", "/bucket", body: json(["name": "a/b"]))
        XCTAssertEqual(storageErrorViolations(bad, "400", "InvalidBucketName", "Invalid Input", "Bucket name invalid"), [])
        let asUser = try ana.send("POST", "/bucket", body: json(["name": "mine"]))
        XCTAssertEqual(storageErrorViolations(asUser, "403", "AccessDenied", "Unauthorized", "new row violates row-level security policy"), [])
        let got = try service.send("GET", "/bucket/photos")
        XCTAssertEqual(got.jsonBody?["file_size_limit"], 1024)
        XCTAssertEqual(got.jsonBody?["allowed_mime_types"], ["image/*"])
        XCTAssertEqual(try service.upload("photos", "big.png", Data(count: 2000), type: "image/png").jsonBody?["code"], "EntityTooLarge")
        XCTAssertEqual(try service.send("PUT", "/bucket/photos", body: json(["public": true])).jsonBody, ["message": "Successfully updated"])
        XCTAssertEqual(try service.send("GET", "/bucket/photos").jsonBody?["public"], true)
        XCTAssertEqual(try service.upload("photos", "a.png", Data(count: 10), type: "image/png").status, 200)
        let notEmpty = try service.send("DELETE", "/bucket/photos")
        XCTAssertEqual(storageErrorViolations(notEmpty, "409", "ResourceNotEmpty", "ResourceNotEmpty", "The bucket you tried to delete is not empty"), [])
        XCTAssertEqual(
            try service.send("POST", "/bucket/photos/empty").jsonBody, ["message": "Empty bucket has been queued. Completion may take up to an hour."])
        XCTAssertEqual(backend.storage.objectNames(bucket: "photos"), [])
        XCTAssertEqual(try service.send("DELETE", "/bucket/photos").jsonBody, ["message": "Successfully deleted"])
        XCTAssertEqual(storageErrorViolations(try service.send("GET", "/bucket/photos"), "404", "NoSuchBucket", "Bucket not found", "Bucket not found"), [])
        try backend.reset()
        XCTAssertEqual(storageErrorViolations(try service.send("DELETE", "/bucket/photos"), "404", "NoSuchBucket", "Bucket not found", "Bucket not found"), [])
    }

    /// Mutants: a signed GET that ignores expiry, and a move that answers copy's Key, are caught by
    /// the checks above.
    func testMutantsAreRejected() {
        let expiredAccepted = HTTPResponse(status: 200, body: pdf)
        XCTAssertFalse(storageErrorViolations(expiredAccepted, "400", "InvalidJWT", "InvalidJWT", "jwt expired").isEmpty)
        let wrongShape: JSONValue = ["message": "Successfully moved", "Id": "x", "Key": "documents/a/moved.pdf"]
        XCTAssertNotEqual(wrongShape["Key"], .string("a/moved.pdf"))
    }
}
