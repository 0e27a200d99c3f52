import Foundation
import XCTest
@testable import MockSupabase

/// Storage route bodies are validated as Fastify's Ajv validates them (`coerceTypes: 'array'`):
/// null, numbers and booleans become what the schema asks for, one-element arrays stand for their
/// element, objects and arrays are refused with Ajv's text (supabase/storage
/// `src/http/routes/object/{moveObject,copyObject,getSignedURL,listObjects,deleteObjects}.ts`,
/// `bucket/{createBucket,updateBucket}.ts`; ajv `lib/compile/validate/dataType.ts`).
final class StorageBodyValidationTests: XCTestCase {
    let png = Data([0x89, 0x50, 0x4E, 0x47] + Array(repeating: 1, count: 20))
    var backend: MockSupabase!
    var ana: StorageClient { StorageClient(backend: backend, actor: "ana") }
    var service: StorageClient { StorageClient(backend: backend, actor: "service_role") }
    var src: String { "\(StorageFixture.ana)/a.png" }

    override func setUpWithError() throws {
        backend = try StorageFixture.backend()
        XCTAssertEqual(try ana.upload("avatars", src, png, type: "image/png").status, 200)
    }

    /// One request and what Storage answers: `nil` for a body that passes validation (the route's
    /// own answer is 200), else the framework's message.
    struct Case {
        var method: String
        var path: String
        var body: JSONValue
        var error: String?
        var schema: StorageBodySchema
    }

    var cases: [Case] {
        let a = StorageFixture.ana
        let move = StorageRouteBodies.moveObject, copy = StorageRouteBodies.copyObject
        let sign = StorageRouteBodies.signURL, list = StorageRouteBodies.listObjects
        let create = StorageRouteBodies.createBucket, update = StorageRouteBodies.updateBucket
        let delete = StorageRouteBodies.deleteObjects
        let signPath = "/object/sign/avatars/\(a)/a.png"
        return [
            // supabase-swift's move/copy send `"destinationBucket": null`: "" → the source bucket.
            Case(
                method: "POST", path: "/object/copy",
                body: ["bucketId": "avatars", "sourceKey": .string(src), "destinationKey": .string("\(a)/c.png"), "destinationBucket": .null], error: nil,
                schema: copy),
            Case(
                method: "POST", path: "/object/move",
                body: ["bucketId": "avatars", "sourceKey": .string(src), "destinationKey": .string("\(a)/b.png"), "destinationBucket": .null], error: nil,
                schema: move),
            // A one-element array stands for its element; a longer one, or an object, is refused.
            Case(
                method: "POST", path: "/object/move", body: ["bucketId": ["avatars"], "sourceKey": .string("\(a)/b.png"), "destinationKey": .string(src)],
                error: nil, schema: move),
            Case(
                method: "POST", path: "/object/move", body: ["bucketId": "avatars", "sourceKey": ["x", "y"], "destinationKey": "z"],
                error: "body/sourceKey must be string", schema: move),
            Case(
                method: "POST", path: "/object/move", body: ["bucketId": "avatars", "sourceKey": ["k": "v"], "destinationKey": "z"],
                error: "body/sourceKey must be string", schema: move),
            Case(
                method: "POST", path: "/object/copy", body: ["bucketId": "avatars", "sourceKey": "x", "destinationKey": [["z"]]],
                error: "body/destinationKey must be string", schema: copy),
            Case(
                method: "POST", path: "/object/copy", body: ["bucketId": "avatars", "sourceKey": "x", "destinationKey": "z", "copyMetadata": "maybe"],
                error: "body/copyMetadata must be boolean", schema: copy),
            // required checks presence only, in the declared order.
            Case(method: "POST", path: "/object/move", body: ["sourceKey": .null], error: "body must have required property 'bucketId'", schema: move),
            // Numbers from strings, booleans and null; a fraction or a word is not an integer.
            Case(method: "POST", path: signPath, body: ["expiresIn": "60"], error: nil, schema: sign),
            Case(method: "POST", path: signPath, body: ["expiresIn": true], error: nil, schema: sign),
            Case(method: "POST", path: signPath, body: ["expiresIn": [" 60 "]], error: nil, schema: sign),
            Case(method: "POST", path: signPath, body: ["expiresIn": .null], error: "body/expiresIn must be >= 1", schema: sign),
            Case(method: "POST", path: signPath, body: ["expiresIn": "6.5"], error: "body/expiresIn must be integer", schema: sign),
            Case(method: "POST", path: signPath, body: ["expiresIn": ["a": 1]], error: "body/expiresIn must be integer", schema: sign),
            Case(
                method: "POST", path: signPath, body: ["expiresIn": "Infinity"], error: "body/expiresIn must pass \"finite\" keyword validation", schema: sign),
            // Strings from numbers and null; enums after coercion.
            Case(
                method: "POST", path: "/object/list/avatars", body: ["prefix": .null, "limit": "5", "sortBy": ["column": ["name"], "order": "desc"]],
                error: nil, schema: list),
            Case(method: "POST", path: "/object/list/avatars", body: ["prefix": 7], error: nil, schema: list),
            Case(method: "POST", path: "/object/list/avatars", body: ["prefix": ["p": 1]], error: "body/prefix must be string", schema: list),
            Case(
                method: "POST", path: "/object/list/avatars", body: ["prefix": "", "sortBy": ["column": 1]],
                error: "body/sortBy/column must be equal to one of the allowed values", schema: list),
            // A scalar where an array is declared is a one-element array.
            Case(method: "DELETE", path: "/object/avatars", body: ["prefixes": .string("\(a)/none.png")], error: nil, schema: delete),
            Case(method: "DELETE", path: "/object/avatars", body: ["prefixes": [["k": 1]]], error: "body/prefixes/0 must be string", schema: delete),
            // Buckets: booleans from "true"/1, the size-limit anyOf, the type enum, update's anyOf.
            Case(method: "POST", path: "/bucket", body: ["name": "photos", "public": "true", "file_size_limit": "1000"], error: nil, schema: create),
            Case(method: "PUT", path: "/bucket/photos", body: ["public": 0], error: nil, schema: update),
            Case(method: "POST", path: "/bucket", body: ["name": ["n": 1]], error: "body/name must be string", schema: create),
            Case(
                method: "POST", path: "/bucket", body: ["name": "x", "type": "OTHER"], error: "body/type must be equal to one of the allowed values",
                schema: create),
            Case(
                method: "POST", path: "/bucket", body: ["name": "x", "file_size_limit": "1 MB"],
                error:
                    #"body/file_size_limit must be integer, body/file_size_limit must match pattern "^[0-9]+(?:\.[0-9]+)?(?:[gG][bB]|[mM][bB]|[kK][bB]|[bB])$", body/file_size_limit must match a schema in anyOf"#,
                schema: create),
            Case(
                method: "PUT", path: "/bucket/photos", body: [:],
                error:
                    "body must have required property 'public', body must have required property 'file_size_limit', body must have required property 'allowed_mime_types', body must match a schema in anyOf",
                schema: update)
        ]
    }

    /// What is wrong with an answer to a case; empty when it is Storage's.
    func violations(_ c: Case, status: Int, body: JSONValue?) -> [String] {
        let label = "\(c.method) \(c.path) \(c.body.data().count) bytes"
        guard let message = c.error else { return status == 200 ? [] : ["\(label): HTTP \(status) \(body.map { "\($0)" } ?? "")"] }
        let expected: JSONValue = ["statusCode": "400", "error": "Error", "message": .string(message)]
        return status == 400 && body == expected ? [] : ["\(label): HTTP \(status) \(body.map { "\($0)" } ?? "") instead of \(message)"]
    }

    func testBodiesAreValidatedAsAjvCoercesThem() throws {
        var found: [String] = []
        for c in cases {
            let r = try (c.path.hasPrefix("/bucket") ? service : ana).send(
                c.method, c.path, headers: [("Content-Type", "application/json")], body: c.body.data())
            found += violations(c, status: r.status, body: r.jsonBody)
        }
        XCTAssertEqual(found, [])
        // The null destination bucket is the source bucket; the coerced values took effect.
        XCTAssertEqual(backend.storage.object(bucket: "avatars", name: "\(StorageFixture.ana)/c.png")?.data, png)
        XCTAssertEqual(backend.storage.object(bucket: "avatars", name: src)?.data, png)
        XCTAssertNil(backend.storage.object(bucket: "avatars", name: "\(StorageFixture.ana)/b.png"))
        let bucket = try service.send("GET", "/bucket/photos").jsonBody
        XCTAssertEqual(bucket?["public"], false)
        XCTAssertEqual(bucket?["file_size_limit"], 1000)
    }

    func testCopyAnswersTheSourceBucketForANullDestination() throws {
        let body: JSONValue = [
            "bucketId": "avatars", "sourceKey": .string(src), "destinationKey": .string("\(StorageFixture.ana)/d.png"), "destinationBucket": .null
        ]
        let r = try ana.send("POST", "/object/copy", body: body.data())
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertEqual(r.jsonBody?["Key"], .string("avatars/\(StorageFixture.ana)/d.png"))
        XCTAssertEqual(r.jsonBody?["bucket_id"], "avatars")
    }

    /// The mutant: the old strict validation (no coercion), which refused supabase-swift's move.
    func testStrictValidationMutantIsRejected() {
        var found: [String] = []
        for c in cases {
            do {
                _ = try c.schema.validate(c.body, coercing: false)
                found += violations(c, status: 200, body: nil)
            } catch let e as StorageError {
                found += violations(c, status: e.httpStatus, body: e.json)
            } catch {
                found.append("\(error)")
            }
        }
        XCTAssertTrue(found.contains { $0.hasPrefix("POST /object/move") && $0.contains("body/destinationBucket must be string") }, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("POST /object/copy") && $0.contains("body/destinationBucket must be string") }, "\(found)")
        XCTAssertGreaterThan(found.count, 8, "\(found)")
        // And the schemas as declared pass every case without the routes.
        for c in cases { XCTAssertEqual(message(c), c.error, "\(c.path) \(c.body)") }
    }

    func message(_ c: Case) -> String? {
        do { _ = try c.schema.validate(c.body) } catch let e as StorageError { return e.message } catch { return "\(error)" }
        return nil
    }
}
