import Foundation

/// The body schema of each Storage route the mock serves, as supabase/storage declares it in
/// `src/http/routes/bucket/{createBucket,updateBucket}.ts`,
/// `src/http/routes/object/{listObjects,deleteObjects,getSignedURL,getSignedURLs,moveObject,copyObject}.ts`
/// and `src/http/schemas/file-size-limit.ts`. Keywords that only document (`examples`,
/// `description`) are left out; so is `getSignedURL`'s `transform` (image transformation
/// options, which the mock does not render).
enum StorageRouteBodies {
    /// `fileSizeLimitSchema`: a non-negative integer or a size such as `"100MB"`, either nullable.
    static let fileSizeLimit = StorageBodySchema(anyOf: [
        StorageBodySchema(types: [.integer], nullable: true, finite: true, minimum: 0),
        StorageBodySchema(types: [.string], nullable: true, pattern: #"^[0-9]+(?:\.[0-9]+)?(?:[gG][bB]|[mM][bB]|[kK][bB]|[bB])$"#)
    ])

    static let allowedMimeTypes = StorageBodySchema.array(of: .string(), nullable: true)

    /// `POST /bucket`.
    static let createBucket = StorageBodySchema.object(
        [
            ("name", .string()), ("id", .string()), ("public", .boolean), ("type", .string(enum: ["STANDARD", "ANALYTICS"])),
            ("file_size_limit", fileSizeLimit), ("allowed_mime_types", allowedMimeTypes)
        ], required: ["name"])

    /// `PUT /bucket/{id}`: at least one of the three (`anyOf` of `required`; its `minProperties: 1`
    /// can then never fail).
    static let updateBucket: StorageBodySchema = {
        var s = StorageBodySchema.object([("public", .boolean), ("file_size_limit", fileSizeLimit), ("allowed_mime_types", allowedMimeTypes)])
        s.anyOf = ["public", "file_size_limit", "allowed_mime_types"].map { StorageBodySchema(required: [$0]) }
        return s
    }()

    /// `POST /object/list/{bucket}`.
    static let listObjects = StorageBodySchema.object(
        [
            ("prefix", .string()), ("limit", .integer(minimum: 1)), ("offset", .integer(minimum: 0)),
            (
                "sortBy",
                .object(
                    [("column", .string(enum: ["name", "updated_at", "created_at", "last_accessed_at"])), ("order", .string(enum: ["asc", "desc"]))],
                    required: ["column"])
            ),
            ("search", .string())
        ], required: ["prefix"])

    /// `DELETE /object/{bucket}`.
    static let deleteObjects = StorageBodySchema.object([("prefixes", .array(of: .string(), minItems: 1))], required: ["prefixes"])

    /// `POST /object/sign/{bucket}/{path}`.
    static let signURL = StorageBodySchema.object([("expiresIn", .integer(minimum: 1))], required: ["expiresIn"])

    /// `POST /object/sign/{bucket}`, with `MAX_OBJECTS_PER_REQUEST` (1000) paths at most.
    static let signURLs = StorageBodySchema.object(
        [("expiresIn", .integer(minimum: 1)), ("paths", .array(of: .string(), minItems: 1, maxItems: 1000))], required: ["expiresIn", "paths"])

    /// `POST /object/move`.
    static let moveObject = StorageBodySchema.object(
        [("bucketId", .string()), ("sourceKey", .string()), ("destinationBucket", .string()), ("destinationKey", .string())],
        required: ["bucketId", "sourceKey", "destinationKey"])

    /// `POST /object/copy`.
    static let copyObject = StorageBodySchema.object(
        [
            ("bucketId", .string()), ("sourceKey", .string()), ("destinationBucket", .string()), ("destinationKey", .string()),
            ("metadata", .object([("cacheControl", .string()), ("mimetype", .string())])), ("copyMetadata", .boolean)
        ], required: ["sourceKey", "bucketId", "destinationKey"])
}
