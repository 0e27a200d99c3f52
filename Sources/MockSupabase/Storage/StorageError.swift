import Foundation

/// An error as Supabase Storage renders it: `{"statusCode": "404", "code": "NoSuchBucket",
/// "error": "Bucket not found", "message": "Bucket not found"}`.
///
/// Storage keeps the semantic status in the body's `statusCode` (a string) and answers HTTP 400
/// for every error below 500 (a legacy choice its maintainers kept so that clients branch on the
/// body); 5xx errors keep their status. Request-validation errors (missing Authorization, a bad
/// list body) come from the web framework and carry no `code`.
package struct StorageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The semantic status, as a string (`"413"`).
    package var statusCode: String
    /// Storage's error code (`EntityTooLarge`), nil for framework validation errors.
    package var code: String?
    /// The short error (`Payload too large`).
    package var error: String
    /// The message (`The object exceeded the maximum allowed size`).
    package var message: String
    package var httpStatus: Int

    /// An error with Storage's status rule (HTTP 400 unless the semantic status is 5xx).
    package init(_ statusCode: Int, code: String?, error: String, message: String) {
        self.statusCode = String(statusCode)
        self.code = code
        self.error = error
        self.message = message
        self.httpStatus = statusCode >= 500 ? statusCode : 400
    }

    package var description: String { "\(statusCode) \(code ?? error): \(message)" }

    /// The body.
    package var json: JSONValue {
        var o: [String: JSONValue] = ["statusCode": .string(statusCode), "error": .string(error), "message": .string(message)]
        if let code { o["code"] = .string(code) }
        return .object(o)
    }

    package var response: HTTPResponse { .json(httpStatus, json) }

    /// The bucket does not exist, or the request may not see it.
    package static let noSuchBucket = StorageError(404, code: "NoSuchBucket", error: "Bucket not found", message: "Bucket not found")
    /// The object does not exist, or RLS hides it.
    package static let noSuchKey = StorageError(404, code: "NoSuchKey", error: "not_found", message: "Object not found")
    /// An RLS policy refused the write.
    package static let rlsViolation = StorageError(403, code: "AccessDenied", error: "Unauthorized", message: "new row violates row-level security policy")
    /// A JWT that does not verify (`jwt expired`, `invalid signature`, …).
    package static func invalidJWT(_ message: String) -> StorageError { StorageError(403, code: "AccessDenied", error: "Unauthorized", message: message) }
    /// An upload to an existing key without `x-upsert: true`.
    package static let alreadyExists = StorageError(409, code: "ResourceAlreadyExists", error: "Duplicate", message: "The resource already exists")
    /// An object over the bucket's (or the global) size limit.
    package static let entityTooLarge = StorageError(
        413, code: "EntityTooLarge", error: "Payload too large", message: "The object exceeded the maximum allowed size")
    /// A MIME type the bucket does not accept.
    package static func invalidMimeType(_ mime: String) -> StorageError {
        StorageError(415, code: "InvalidMimeType", error: "invalid_mime_type", message: "mime type \(mime) is not supported")
    }
    /// An object name with characters Storage refuses.
    package static func invalidKey(_ key: String) -> StorageError { StorageError(400, code: "InvalidKey", error: "InvalidKey", message: "Invalid key: \(key)") }
    /// A multipart body without a file.
    package static func noContent(_ message: String = "No content provided") -> StorageError {
        StorageError(400, code: "InvalidRequest", error: "InvalidRequest", message: message)
    }
    /// A request-validation error of the web framework (no `code`).
    package static func validation(_ message: String) -> StorageError { StorageError(400, code: nil, error: "Error", message: message) }
    /// No Authorization header on a route that needs one.
    package static let missingAuthorization = validation("headers must have required property 'authorization'")
    /// The mock's storage configuration is unusable.
    package static func configuration(_ message: String) -> StorageError { StorageError(500, code: "InternalError", error: "Internal", message: message) }
}
