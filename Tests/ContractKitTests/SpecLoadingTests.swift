import XCTest
import MockBinding

/// A broken contract file names the file and the JSON path of what is wrong.
final class SpecLoadingTests: XCTestCase {
    func load(_ json: String) -> SpecError? {
        do {
            _ = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(json), file: "Contracts/x/schema.json"))
            return nil
        } catch let e as SpecError { return e } catch { XCTFail("\(error)"); return nil }
    }

    func testUnknownTypeNamesFileAndPath() {
        let e = load(#"{"tables":[{"name":"t","columns":[{"name":"a","type":"text"},{"name":"b","type":"strng"}]}]}"#)
        XCTAssertEqual(
            e?.description, "Contracts/x/schema.json: $.tables[0].columns[1].type: unknown type 'strng' (declare enums under $.enums, domains under $.domains)")
    }

    func testUnknownKeyIsAnError() {
        let e = load(#"{"tables":[{"name":"t","colums":[]}]}"#)
        XCTAssertEqual(e?.path, "$.tables[0]")
        XCTAssertTrue(e?.message.contains("missing required key 'columns'") == true, e?.description ?? "")
        let e2 = load(#"{"tables":[{"name":"t","columns":[{"name":"a","type":"text","nullabel":false}]}]}"#)
        XCTAssertEqual(e2?.path, "$.tables[0].columns[0].nullabel")
        XCTAssertTrue(e2?.message.hasPrefix("unknown key 'nullabel'") == true)
    }

    /// `exposedSchemas` is PostgREST's db-schemas: tables default to the first; an empty or
    /// repeated list, or GoTrue's `auth`, is refused.
    func testExposedSchemasNameTheTablesDefaultSchema() throws {
        let json =
            #"{"exposedSchemas":["test","other"],"tables":[{"name":"t","columns":[{"name":"a","type":"text"}]},"#
            + #"{"name":"u","schema":"other","columns":[{"name":"t_a","type":"text"}],"foreignKeys":[{"columns":["t_a"],"references":{"table":"t","columns":["a"]}}]}]}"#
        let schema = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(json), file: "Contracts/x/schema.json"))
        XCTAssertEqual(schema.apiSchema, "test")
        XCTAssertEqual(schema.table("t")?.qualifiedName, "test.t")
        XCTAssertEqual(schema.table("u")?.qualifiedName, "other.u")
        let plain = try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(#"{"tables":[]}"#), file: "Contracts/x/schema.json"))
        XCTAssertEqual(plain.exposedSchemas, ["public"])
        for bad in [#"[]"#, #"["a","a"]"#, #"["auth"]"#] {
            let e = load(#"{"exposedSchemas":"# + bad + #","tables":[]}"#)
            XCTAssertEqual(e?.path, "$.exposedSchemas", bad)
        }
    }

    func testDanglingForeignKey() {
        let e = load(
            #"{"tables":[{"name":"t","columns":[{"name":"a","type":"uuid"}],"foreignKeys":[{"columns":["a"],"references":{"table":"nope","columns":["id"]}}]}]}"#
        )
        XCTAssertEqual(e?.path, "$.tables[0].foreignKeys[0]")
        XCTAssertEqual(e?.message, "references unknown table 'nope'")
    }

    func testSyntaxErrorNamesLineAndColumn() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("broken-\(UUID().uuidString).json")
        try Data("{\n  \"tables\": [\n    {,}\n  ]\n}".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try SpecNode.load(url, displayName: "Contracts/x/schema.json")) { e in
            XCTAssertEqual((e as? SpecError)?.description, "Contracts/x/schema.json: $: invalid JSON at line 3, column 6: expected a string key")
        }
    }

    func testPolicyReferencingUnknownColumn() throws {
        let schema = try DatabaseSchema.decode(
            SpecNode(value: try JSONValue.parse(#"{"tables":[{"name":"t","columns":[{"name":"user_id","type":"uuid"}]}]}"#), file: "s"))
        let bad = #"{"tables":[{"table":"t","select":{"doc":"Own","using":{"owner":"owner_id"}}}]}"#
        XCTAssertThrowsError(try PolicySet.decode(SpecNode(value: try JSONValue.parse(bad), file: "Contracts/x/policies.json"), schema: schema)) { e in
            XCTAssertEqual((e as? SpecError)?.description, "Contracts/x/policies.json: $.tables[0].select.using: unknown column 'owner_id' of table 't'")
        }
    }

    func testEveryShippedContractFolderLoads() throws {
        let fm = FileManager.default
        let apps = try fm.contentsOfDirectory(atPath: ContractsLocator.contracts.path).filter {
            fm.fileExists(atPath: ContractsLocator.app($0).appendingPathComponent("schema.json").path)
        }
        XCTAssertTrue(apps.contains("teleportme"))
        for a in apps { XCTAssertNoThrow(try AppSpec.load(folder: ContractsLocator.app(a)), a) }
    }
}
