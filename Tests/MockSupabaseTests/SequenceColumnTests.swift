import XCTest
@testable import MockSupabase

/// Identity and serial columns (contract format `"identity"` and the `serial` types): inserts
/// without the key get the sequence's next value; `GENERATED ALWAYS` refuses an explicit value
/// as PostgreSQL does (428C9); fixtures advance the sequence past what they load.
final class SequenceColumnTests: XCTestCase {
    func testIdentityAndSerialColumnsNumberInsertedRows() throws {
        let f = try RestSpecFixture()
        let h: HTTPHeaders = ["Prefer": "return=representation"]
        XCTAssertEqual(try f.send("POST", "tickets?select=id,title", headers: h, body: #"{"title":"a"}"#).text, #"[{"id":1,"title":"a"}]"#)
        XCTAssertEqual(
            try f.send("POST", "tickets?select=id,title", headers: h, body: #"[{"title":"b"},{"title":"c"}]"#).text,
            "[{\"id\":2,\"title\":\"b\"}, \n {\"id\":3,\"title\":\"c\"}]")
        try f.send("POST", "tickets", body: #"{"id":9,"title":"x"}"#).assertPostgrestError(
            400, "428C9", "cannot insert a non-DEFAULT value into column \"id\"",
            details: "Column \"id\" is an identity column defined as GENERATED ALWAYS.", hint: "Use OVERRIDING SYSTEM VALUE to override.")
        XCTAssertEqual(try f.send("POST", "logs", headers: h, body: #"{"msg":"m"}"#).text, #"[{"id":2,"msg":"m"}]"#, "fixtures moved the sequence past id 1")
        // A serial column takes explicit values without moving its sequence.
        XCTAssertEqual(try f.send("POST", "logs", headers: h, body: #"{"id":3,"msg":"explicit"}"#).status, 201)
        try f.send("POST", "logs", body: #"{"msg":"collides"}"#).assertPostgrestError(409, "23505")
        XCTAssertEqual(try f.send("POST", "logs", headers: h, body: #"{"msg":"next"}"#).text, #"[{"id":4,"msg":"next"}]"#, "the failed insert used up 3")
    }

    func testVarcharAndCharLengths() throws {
        let f = try RestSpecFixture()
        let h: HTTPHeaders = ["Prefer": "return=representation"]
        XCTAssertEqual(
            try f.send("POST", "tickets?select=code,grade", headers: h, body: #"{"code":"ab  ","grade":"A"}"#).text, #"[{"code":"ab  ","grade":"A  "}]"#)
        XCTAssertEqual(
            try f.send("POST", "tickets?select=code", headers: h, body: #"{"code":"abcd   "}"#).text, #"[{"code":"abcd"}]"#,
            "only spaces past the limit are cut")
        try f.send("POST", "tickets", body: #"{"code":"abcde"}"#).assertPostgrestError(400, "22001", "value too long for type character varying(4)")
        try f.send("POST", "tickets", body: #"{"grade":"ABCD"}"#).assertPostgrestError(400, "22001", "value too long for type character(3)")
        XCTAssertEqual(f.backend.database.count("tickets"), 2)
    }

    func testFormatRejectsAnUnknownIdentityKind() {
        let json = #"{"tables": [{"name": "t", "columns": [{"name": "id", "type": "integer", "identity": "sometimes"}]}]}"#
        XCTAssertThrowsError(try DatabaseSchema.decode(SpecNode(value: try JSONValue.parse(json), file: "inline")))
    }
}
