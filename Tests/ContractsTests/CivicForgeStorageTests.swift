import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// The gate: the post-photos bucket (storage.json, §3): own-folder uploads, JPEG only, size
/// limit, and downloads that follow the post's visibility — over the wire.
final class CivicForgeStorageTests: GateTestCase {
    let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x42, count: 60) + [0xFF, 0xD9])

    func upload(_ wire: WireClient, as actor: String, _ name: String, type: String = "image/jpeg", body: Data? = nil) throws -> HTTPResponse {
        try wire.send(method: "POST", path: "/storage/v1/object/post-photos/\(name)", headers: ["Content-Type": type], body: body ?? jpeg, as: actor)
    }

    func testUploadsGoIntoTheUsersOwnFolder() throws {
        let b = try CivicForgeWireTests.backend()
        let wire = WireClient(b)
        let tova = b.configuration.spec.fixtures.persona("tova")!.id, ana = b.configuration.spec.fixtures.persona("ana")!.id
        let ok = try upload(wire, as: "tova", "\(tova)/c3000000-0000-4000-8000-0000000000aa.jpg")
        XCTAssertEqual(ok.status, 200, ok.text)
        XCTAssertEqual(ok.jsonBody?["Key"], .string("post-photos/\(tova)/c3000000-0000-4000-8000-0000000000aa.jpg"))
        let foreign = try upload(wire, as: "tova", "\(ana)/planted.jpg")
        XCTAssertEqual(foreign.status, 400)
        XCTAssertEqual(foreign.jsonBody?["statusCode"], "403", foreign.text)
        XCTAssertEqual(try upload(wire, as: "tova", "loose.jpg").jsonBody?["statusCode"], "403", "the bucket root is nobody's folder")
        XCTAssertEqual(try upload(wire, as: "anon", "\(tova)/anon.jpg").jsonBody?["statusCode"], "403")
        XCTAssertEqual(try upload(wire, as: "tova", "\(tova)/x.png", type: "image/png").jsonBody?["statusCode"], "415", "photos.json: JPEG only")
        let limit = try XCTUnwrap(b.configuration.spec.buckets.first?["fileSizeLimit"]?.intValue)
        XCTAssertEqual(try upload(wire, as: "tova", "\(tova)/big.jpg", body: Data(count: Int(limit) + 1)).jsonBody?["statusCode"], "413")
        XCTAssertEqual(b.storage.objectNames(bucket: "post-photos"), ["\(tova)/c3000000-0000-4000-8000-0000000000aa.jpg"], "refused uploads store nothing")
    }

    func testDownloadsFollowThePostsVisibility() throws {
        let b = try CivicForgeWireTests.backend()
        let wire = WireClient(b)
        let photo = try XCTUnwrap(b.database.rows("post_photos").first)
        let path = photo["storage_path"]!.stringValue!
        XCTAssertEqual(try upload(wire, as: "ana", path).status, 200)
        func get(_ actor: String) throws -> HTTPResponse {
            try wire.send(method: "GET", path: "/storage/v1/object/authenticated/post-photos/\(path)", as: actor)
        }
        XCTAssertEqual(try get("ana").body, jpeg)
        XCTAssertEqual(try get("tova").body, jpeg, "a neighbour sees the couch photo")
        XCTAssertEqual(try get("omar").jsonBody?["statusCode"], "404", "another neighbourhood does not")
        // Three flags hide the couch post: its photo goes with it, except for its author.
        for flagger in ["ben", "cal", "tova"] {
            try b.database.insert("post_flags", [["post_id": photo["post_id"]!]], as: .user(b.configuration.spec.fixtures.persona(flagger)!.id))
        }
        XCTAssertEqual(try get("tova").jsonBody?["statusCode"], "404")
        XCTAssertEqual(try get("ana").body, jpeg)
    }

    /// The folder rule as a check: violations of `{user_id}/*` on a backend.
    func folderViolations(_ b: MockSupabase) throws -> [String] {
        let wire = WireClient(b)
        let f = b.configuration.spec.fixtures
        var out: [String] = []
        if try upload(wire, as: "tova", "\(f.persona("tova")!.id)/own.jpg").status != 200 { out.append("tova cannot upload into her folder") }
        if try upload(wire, as: "tova", "\(f.persona("ana")!.id)/planted.jpg").status == 200 { out.append("tova uploaded into ana's folder") }
        if try upload(wire, as: "tova", "root.jpg").status == 200 { out.append("tova uploaded at the bucket root") }
        return out
    }

    /// Mutant: a bucket whose insert cell forgets the folder rule is caught by the check.
    func testMutantOpenBucketIsRejected() throws {
        XCTAssertEqual(try folderViolations(CivicForgeWireTests.backend()), [])
        let folder = ContractsLocator.app(CivicForgeApp.name)
        var spec = try AppSpec.load(folder: folder)
        guard case .object(var bucket) = spec.buckets[0], case .object(var policies) = bucket["policies"]! else { return XCTFail() }
        policies["insert"] = "authenticated"
        bucket["policies"] = .object(policies)
        spec.buckets[0] = .object(bucket)
        let b = try MockSupabase(
            configuration: MockConfiguration(spec: spec, clock: ManualClock(InteractionReplay.defaultStartTime), ids: SeededIDGenerator(seed: 3)))
        XCTAssertEqual(try folderViolations(b), ["tova uploaded into ana's folder", "tova uploaded at the bucket root"])
    }
}
