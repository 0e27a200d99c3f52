import XCTest
import MockBinding
import MockSupabase

/// The image-preset check reads bucket limits through the one storage.json decoder, so a limit
/// written with a unit (`"2MB"`, which FORMAT.md allows) is enforced, not skipped.
final class ImagePresetBucketTests: XCTestCase {
    func buckets(_ json: String) throws -> [BucketConfig] {
        try StorageConfiguration.decode(SpecNode(value: try JSONValue.parse(Data(json.utf8)), file: "storage.json", path: "$.buckets"))
    }

    func testALimitWithAUnitIsEnforced() throws {
        let rules = try XCTUnwrap(try ClientRules.load(app: "naarscars"))
        let avatar = try XCTUnwrap(rules.images.first { $0.name == "avatar" })
        // 100KB = 100,000 bytes: below the avatar preset's 204,800, so the preset does not fit.
        let tight = try buckets(
            #"[{"id": "avatars", "fileSizeLimit": "100KB"}, {"id": "message-images", "fileSizeLimit": "2MB"}, {"id": "town-hall-images", "fileSizeLimit": "2MB"}]"#
        )
        let refused = try ClientRulesReference.imagePresetsFitBuckets(rules, buckets: tight)
        XCTAssertTrue(
            refused.violations.contains { $0.message.contains("\(avatar.maxBytes) bytes but bucket 'avatars' accepts at most 100000") }, "\(refused.violations)"
        )
        // 1MiB is enough for every preset: nothing fails, and every preset was checked.
        let roomy = try buckets(
            #"[{"id": "avatars", "fileSizeLimit": "1MiB"}, {"id": "message-images", "fileSizeLimit": "1MiB"}, {"id": "town-hall-images", "fileSizeLimit": "1MiB"}]"#
        )
        let fits = try ClientRulesReference.imagePresetsFitBuckets(rules, buckets: roomy)
        XCTAssertEqual(fits.violations, [])
        XCTAssertTrue(fits.passed, "every preset was checked against a bucket")
    }

    func testTheAppsOwnStorageFileIsReadByTheSameDecoder() throws {
        let declared = try ClientRulesReference.storageBuckets("naarscars")
        XCTAssertEqual(declared.first { $0.id == "avatars" }?.fileSizeLimit, 204_800)
    }
}
