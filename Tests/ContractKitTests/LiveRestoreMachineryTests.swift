import XCTest
@testable import ContractKit

/// The parts of a live run's restore that decide what to skip: which requests only read, and
/// the order rows of a table referring to itself are written in.
final class LiveRestoreMachineryTests: XCTestCase {
    func testOnlyReadsTheServicesRunReadOnlyCountAsReads() {
        for (method, path) in [
            ("GET", "/rest/v1/profiles"), ("HEAD", "/rest/v1/profiles"), ("GET", "/rest/v1/rpc/nearby_rides"),
            ("GET", "/storage/v1/object/avatars/a/b.jpg"), ("GET", "/storage/v1/object/public/avatars/x.png"),
            ("HEAD", "/storage/v1/object/info/avatars/x.png"), ("GET", "/storage/v1/bucket"), ("GET", "/storage/v1/bucket/avatars"),
            ("POST", "/storage/v1/object/list/avatars"), ("GET", "/auth/v1/user"), ("GET", "/auth/v1/settings"),
            ("GET", "/auth/v1/admin/users"), ("GET", "/auth/v1/admin/users/a11ce000-0000-4000-8000-000000000001"),
            ("GET", "/__admin/inbox")
        ] {
            XCTAssertTrue(LiveReadOnly.reads(method: method, path: path), "\(method) \(path)")
        }
        for (method, path) in [
            ("POST", "/rest/v1/profiles"), ("PATCH", "/rest/v1/profiles"), ("DELETE", "/rest/v1/profiles"), ("PUT", "/rest/v1/profiles"),
            ("POST", "/rest/v1/rpc/nearby_rides"), ("POST", "/storage/v1/object/avatars/a.jpg"), ("DELETE", "/storage/v1/object/avatars"),
            ("POST", "/storage/v1/object/sign/avatars/a.jpg"), ("GET", "/auth/v1/verify"), ("GET", "/auth/v1/reauthenticate"),
            ("GET", "/auth/v1/authorize"), ("POST", "/auth/v1/token"), ("GET", "/auth/v1/admin/users/x/factors"),
            ("GET", "/functions/v1/generate-report"), ("POST", "/__admin/reset")
        ] {
            XCTAssertFalse(LiveReadOnly.reads(method: method, path: path), "\(method) \(path)")
        }
    }

    func testAWriteToATableNamesItAndTheEventsItFires() {
        func write(_ method: String, _ path: String, _ headers: HTTPHeaders = [:]) -> LiveWrite? {
            LiveReadOnly.write(method: method, path: path, headers: headers)
        }
        XCTAssertNil(write("GET", "/rest/v1/profiles"))
        XCTAssertEqual(write("POST", "/rest/v1/profiles"), .table("profiles", events: ["insert"]))
        XCTAssertEqual(
            write("POST", "/rest/v1/profiles", ["Prefer": "return=minimal,resolution=merge-duplicates"]), .table("profiles", events: ["insert", "update"]))
        XCTAssertEqual(write("POST", "/rest/v1/profiles", ["Prefer": "resolution=ignore-duplicates"]), .table("profiles", events: ["insert"]))
        XCTAssertEqual(write("PUT", "/rest/v1/profiles"), .table("profiles", events: ["insert", "update"]))
        XCTAssertEqual(write("PATCH", "/rest/v1/profiles"), .table("profiles", events: ["update"]))
        XCTAssertEqual(write("DELETE", "/rest/v1/profiles"), .table("profiles", events: ["delete"]))
        XCTAssertEqual(write("POST", "/rest/v1/rpc/delete_account"), .anything)
        XCTAssertEqual(write("PATCH", "/rest/v1/profiles", ["Content-Profile": "private"]), .anything)
        XCTAssertEqual(write("POST", "/auth/v1/signup"), .anything)
        XCTAssertEqual(write("POST", "/functions/v1/generate-report"), .anything)
    }

    func testRowsReferringToRowsOfTheSameTableComeAfterThem() throws {
        let json = """
            {"tables": [{"name": "request_qa", "columns": [{"name": "id", "type": "uuid", "primaryKey": true}, {"name": "parent_id", "type": "uuid"}],
              "foreignKeys": [{"columns": ["parent_id"], "references": {"table": "request_qa", "columns": ["id"]}, "onDelete": "cascade"}]}]}
            """
        let schema = try DatabaseSchema.decode(SpecNode(value: JSONValue.parse(Data(json.utf8)), file: "schema.json"))
        let t = try XCTUnwrap(schema.table("request_qa"))
        let rows: [[String: JSONValue]] = [
            ["id": "c", "parent_id": "b"], ["id": "b", "parent_id": "a"], ["id": "a", "parent_id": .null], ["id": "d", "parent_id": "x"]
        ]
        let order = LiveRestore.parentsFirst(rows, in: t).compactMap { $0["id"]?.stringValue }
        XCTAssertEqual(order.count, 4)
        for (child, parent) in [("c", "b"), ("b", "a")] {
            XCTAssertLessThan(try XCTUnwrap(order.firstIndex(of: parent)), try XCTUnwrap(order.firstIndex(of: child)), "\(order)")
        }
        // A cycle keeps going (the given order decides).
        let cycle: [[String: JSONValue]] = [["id": "a", "parent_id": "b"], ["id": "b", "parent_id": "a"]]
        XCTAssertEqual(LiveRestore.parentsFirst(cycle, in: t).count, 2)
    }
}
