import XCTest
import ContractModel

/// The contract decoder: coding paths render as JSON paths, errors name file and path in
/// SpecNode's words, unknown keys are rejected, enums and units decode in one place.
final class ContractDecoderTests: XCTestCase {
    enum Kind: String, ContractEnum { case table, view }

    struct Column: Decodable {
        var name: String
        var size: ByteSize?
        enum CodingKeys: String, CodingKey, CaseIterable { case name, size, note }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            size = try c.decodeIfPresent(ByteSize.self, forKey: .size)
        }
    }

    struct Table: Decodable {
        var kind: Kind
        var columns: [String: Column]
        var tags: [String]
        var seenPath: String
        enum CodingKeys: String, CodingKey { case kind, columns, tags }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            kind = try c.decode(Kind.self, forKey: .kind)
            columns = try c.decode([String: Column].self, forKey: .columns)
            tags = try c.decodeIfPresent([String].self, forKey: .tags) ?? []
            seenPath = decoder.jsonPath
        }
    }

    struct File: Decodable { var tables: [Table] }

    func decode(_ json: String) -> String {
        do {
            let f = try SpecNode(value: try JSONValue.parse(json), file: "Contracts/x/t.json").decode(File.self)
            return "ok " + f.tables.map(\.seenPath).joined(separator: " ")
        } catch { return "\(error)" }
    }

    func testPathsAndMessages() {
        XCTAssertEqual(decode(#"{"tables": [{"kind": "table", "columns": {}}]}"#), "ok $.tables[0]")
        XCTAssertEqual(
            decode(#"{"tables": [{"kind": "table", "columns": {}}, {"kind": "table", "columns": {"email": {"name": 3}}}]}"#),
            "Contracts/x/t.json: $.tables[1].columns.email.name: expected a string, found number")
        XCTAssertEqual(
            decode(#"{"tables": [{"kind": "table", "columns": {"odd key": {}}}]}"#),
            #"Contracts/x/t.json: $.tables[0].columns["odd key"]: missing required key 'name'"#)
        XCTAssertEqual(
            decode(#"{"tables": [{"kind": "tabel", "columns": {}}]}"#),
            "Contracts/x/t.json: $.tables[0].kind: unknown value 'tabel' (expected one of: table, view)")
        XCTAssertEqual(
            decode(#"{"tables": [{"kind": "view", "columns": {"a": {"name": "a", "size": "2 parsecs"}}}]}"#),
            "Contracts/x/t.json: $.tables[0].columns.a.size: invalid size '2 parsecs' (bytes, or a number with B, KB, MB, GB, KiB, MiB, GiB)")
        XCTAssertEqual(decode(#"{"tables": {}}"#), "Contracts/x/t.json: $.tables: expected an array, found object")
    }

    func testUnknownKeysAreRejected() {
        // Keys read by the type: the list names what it asked for.
        XCTAssertEqual(
            decode(#"{"tables": [{"kind": "view", "columns": {}, "colums": {}}]}"#),
            "Contracts/x/t.json: $.tables[0].colums: unknown key 'colums' (known here: columns, kind, tags)")
        // Keys declared by a CaseIterable key type count even when not read (`note`).
        XCTAssertEqual(decode(#"{"tables": [{"kind": "view", "columns": {"a": {"name": "a", "note": "x"}}}]}"#), "ok $.tables[0]")
        XCTAssertEqual(
            decode(#"{"tables": [{"kind": "view", "columns": {"a": {"name": "a", "nmae": "x"}}}]}"#),
            "Contracts/x/t.json: $.tables[0].columns.a.nmae: unknown key 'nmae' (known here: name, note, size)")
        XCTAssertEqual(
            decode(#"{"$comment": "c", "tables": [], "extra": 1}"#),
            "Contracts/x/t.json: $.extra: unknown key 'extra' (known here: tables)")
    }

    /// Synthesized `Decodable` plus the decoder's `validate` hook.
    struct Span: Decodable, ContractChecked {
        var from: Int, to: Int
        func validate(_ decoder: Decoder) throws {
            if to < from { throw decoder.fail("to", "to (\(to)) is below from (\(from))") }
        }
    }
    /// A mutant: the same members without the hook, so nothing checks their order.
    struct UncheckedSpan: Decodable { var from: Int, to: Int }
    struct Spans<S: Decodable>: Decodable { var spans: [S] }

    func spans<S: Decodable>(_ json: String, _ type: S.Type) -> String {
        do {
            _ = try SpecNode(value: try JSONValue.parse(json), file: "Contracts/x/t.json").decode(Spans<S>.self)
            return "ok"
        } catch { return "\(error)" }
    }

    func testNotesAreTextAndValidateRunsAtTheNode() {
        let notes = #"{"spans": [{"from": 1, "to": 2, "doc": "d", "decision": "why", "source": "§1"}]}"#
        XCTAssertEqual(spans(notes, Span.self), "ok")
        XCTAssertEqual(
            spans(#"{"spans": [{"from": 1, "to": 2, "doc": 3}]}"#, Span.self), "Contracts/x/t.json: $.spans[0].doc: expected a string, found number")
        XCTAssertEqual(
            spans(#"{"spans": [{"from": 1, "to": 2, "dco": "d"}]}"#, Span.self),
            "Contracts/x/t.json: $.spans[0].dco: unknown key 'dco' (known here: from, to)")
        let reversed = #"{"spans": [{"from": 1, "to": 2}, {"from": 3, "to": 2}]}"#
        XCTAssertEqual(spans(reversed, Span.self), "Contracts/x/t.json: $.spans[1].to: to (2) is below from (3)")
        XCTAssertEqual(spans(reversed, UncheckedSpan.self), "ok", "the mutant lets the reversed span through")
    }

    func testSizesAreParsedOnce() throws {
        XCTAssertEqual(try ByteSize(.string("2MB")).bytes, 2_000_000)
        XCTAssertEqual(try ByteSize(.string("50MiB")).bytes, 50 << 20)
        XCTAssertEqual(try ByteSize(.int(12)).bytes, 12)
        XCTAssertThrowsError(try ByteSize(.int(-1)))
    }
}
