import XCTest
import MockBinding
@testable import MockSupabase

/// The generic `models` rule kind on a tiny schema: coverage, row round trips, tables without a
/// model, interaction bodies, and an app's own JSON coding, each shown rejecting a wrong model.
final class ModelSuiteTests: XCTestCase {
    /// `notes(id uuid pk, owner uuid not null, text text, created_at timestamptz)`, with
    /// `created_at` as text (`Note`) or as a `Date` (`DatedNote`: decodes only with a coder that
    /// reads PostgreSQL's timestamps).
    struct NoteModel<Stamp: Codable & Sendable & Equatable>: TableModel {
        static var table: String { "notes" }
        static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
        var id: String; var owner: String; var text: String?; var createdAt: Stamp?
        enum CodingKeys: String, CodingKey, CaseIterable { case id, owner, text, createdAt = "created_at" }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id); try c.encode(owner, forKey: .owner)
            try c.encode(text, forKey: .text); try c.encode(createdAt, forKey: .createdAt)
        }
    }
    typealias Note = NoteModel<String>
    typealias DatedNote = NoteModel<Date>

    /// Declares its keys in another order than the table's columns.
    struct ShuffledNote: TableModel {
        static let table = "notes"
        static var columns: [String] { ["owner", "id", "text", "created_at"] }
        var note: Note
        init(from decoder: Decoder) throws { note = try Note(from: decoder) }
        func encode(to encoder: Encoder) throws { try note.encode(to: encoder) }
    }

    /// Synthesised encoding: leaves NULL columns out; `text` required although nullable.
    struct StrictNote: TableModel {
        static let table = "notes"
        static var columns: [String] { CodingKeys.allCases.map(\.rawValue) }
        var id: String; var owner: String; var text: String; var createdAt: String?
        enum CodingKeys: String, CodingKey, CaseIterable { case id, owner, text, createdAt = "created_at" }
    }

    /// `tags(id uuid pk)`, which the fixtures leave empty.
    struct Tag: TableModel {
        static let table = "tags"
        static var columns: [String] { ["id"] }
        var id: String
    }

    /// A model of a table the schema does not have.
    struct Ghost: TableModel {
        static let table = "ghosts"
        static var columns: [String] { ["id"] }
        var id: String
    }

    static let pgCoder = ModelCoder(
        decoder: {
            let d = JSONDecoder()
            d.dateDecodingStrategy = .custom { dec in
                let c = try dec.singleValueContainer()
                let s = try c.decode(String.self)
                guard let us = PGTime.parseTimestamp(s, assumeUTC: true) else { throw DecodingError.dataCorruptedError(in: c, debugDescription: s) }
                return PGTime.date(micros: us)
            }
            return d
        },
        encoder: {
            let e = JSONEncoder()
            e.dateEncodingStrategy = .custom { date, enc in
                var c = enc.singleValueContainer()
                try c.encode(PGTime.formatTimestamp(PGTime.micros(date), withZone: true))
            }
            return e
        })

    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try
            #"{"tables": [{"name": "notes", "columns": [{"name": "id", "type": "uuid", "primaryKey": true}, {"name": "owner", "type": "uuid", "nullable": false}, {"name": "text", "type": "text"}, {"name": "created_at", "type": "timestamptz"}]}, {"name": "tags", "columns": [{"name": "id", "type": "uuid", "primaryKey": true}]}]}"#
            .write(to: folder.appendingPathComponent("schema.json"), atomically: true, encoding: .utf8)
        try #"{"tables": [{"table": "notes", "select": {"doc": "all", "using": "public"}}, {"table": "tags", "select": {"doc": "all", "using": "public"}}]}"#
            .write(to: folder.appendingPathComponent("policies.json"), atomically: true, encoding: .utf8)
        try
            #"{"personas": [], "tables": [{"table": "notes", "rows": [{"id": "0f000000-0000-4000-8000-000000000001", "owner": "a11ce000-0000-4000-8000-000000000001", "text": null, "created_at": null}, {"id": "0f000000-0000-4000-8000-000000000002", "owner": "a11ce000-0000-4000-8000-000000000001", "text": "hi", "created_at": "2026-01-01T09:30:00.5+00:00"}]}]}"#
            .write(to: folder.appendingPathComponent("fixtures.json"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func backend() throws -> MockSupabase { try MockSupabase(contracts: folder, clock: ManualClock(), ids: SeededIDGenerator(seed: 1)) }

    func results(_ models: [any TableModel.Type], coder: ModelCoder = ModelCoder()) throws -> [String: CaseResult] {
        let r = try ModelSuite.tableResults(app: "x", backend: try backend(), models: models, registry: ModelRegistry(coder: coder))
        return Dictionary(r.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    }

    func testACorrectModelPassesAndATableWithoutRowsOrModelFails() throws {
        let r = try results([Note.self])
        XCTAssertEqual(r["NoteModel<String> ↔ notes columns"]?.passed, true, r["NoteModel<String> ↔ notes columns"]?.message ?? "missing")
        XCTAssertEqual(r["NoteModel<String> round-trips 2 notes rows"]?.passed, true, r["NoteModel<String> round-trips 2 notes rows"]?.message ?? "missing")
        XCTAssertEqual(r["table tags"]?.message, "no model for table tags")
        XCTAssertEqual(r.count, 3)
    }

    /// Mutants: wrong key order, a lossy strict model, a second model of one table, a model of
    /// no table.
    func testWrongModelsAreRejected() throws {
        let r = try results([ShuffledNote.self, StrictNote.self, Ghost.self])
        XCTAssertEqual(
            r["ShuffledNote ↔ notes columns"]?.message,
            "ShuffledNote keys are in a different order than notes's columns: [\"owner\", \"id\", \"text\", \"created_at\"] vs [\"id\", \"owner\", \"text\", \"created_at\"]"
        )
        let strict = try XCTUnwrap(r["StrictNote ↔ notes columns"]?.message)
        XCTAssertTrue(strict.contains("StrictNote.text rejects NULL but the column is nullable"), strict)
        let trips = try XCTUnwrap(r["StrictNote round-trips 2 notes rows"])
        XCTAssertFalse(trips.passed)
        XCTAssertTrue(trips.message.hasPrefix("StrictNote does not decode notes[0]"), trips.message)
        XCTAssertEqual(r["table notes"]?.message, "2 models for table notes: ShuffledNote, StrictNote")
        XCTAssertEqual(r["Ghost ↔ ghosts"]?.message, "no table ghosts in schema.json")
    }

    /// A table the fixtures leave empty is checked with the complete rows interaction responses
    /// returned for its model; without any, the model fails.
    func testEmptyTablesAreCheckedWithInteractionResponses() throws {
        XCTAssertEqual(
            try results([Tag.self])["Tag ↔ tags"]?.message, "no row of tags in the fixtures or in interaction responses (Tag[]) to check the model with")
        let b = try backend()
        let file = try SpecNode(
            value: [
                "name": "n", "source": "s",
                "steps": [
                    [
                        "as": "service_role",
                        "request": [
                            "method": "POST", "path": "/rest/v1/tags", "headers": ["Prefer": "return=representation"],
                            "body": [["id": "7a000000-0000-4000-8000-000000000001"], ["id": "7a000000-0000-4000-8000-000000000002"]]
                        ],
                        "response": ["status": 201], "model": "Tag[]"
                    ],
                    [
                        "as": "service_role", "request": ["method": "GET", "path": "/rest/v1/tags", "query": "select=id,id2:id"],
                        "response": ["status": 200], "model": "Tag[]"
                    ]
                ]
            ], file: "Contracts/x/interactions/tags.json"
        ).decode(InteractionFile.self)
        let replayed = InteractionReplay.replay(file, over: InteractionEndpoint.mock(b, inProcess: true))
        XCTAssertTrue(replayed.passed, replayed.failures.joined(separator: "\n"))
        let rows = ModelSuite.responseRows([replayed], models: [Tag.self], schema: b.configuration.spec.schema)
        XCTAssertEqual(
            rows, ["tags": [["id": "7a000000-0000-4000-8000-000000000001"], ["id": "7a000000-0000-4000-8000-000000000002"]]],
            "complete rows only: the aliased select is not a tags row")
        let r = try ModelSuite.tableResults(app: "x", backend: try backend(), models: [Tag.self], registry: ModelRegistry(), responseRows: rows)
        XCTAssertEqual(r.map(\.name), ["Tag ↔ tags columns", "Tag round-trips 2 tags rows from interaction responses", "table notes"])
        XCTAssertEqual(r.map(\.passed), [true, true, false])
    }

    /// A view's columns are all nullable to PostgreSQL, so a view model's optionality is not
    /// checked; its keys and the columns it writes are.
    func testViewsSkipTheNullabilityCheck() throws {
        var view = try XCTUnwrap(try backend().configuration.spec.schema.table("notes"))
        view.isView = true
        let row: [String: JSONValue] = [
            "id": "0f000000-0000-4000-8000-000000000002", "owner": "a11ce000-0000-4000-8000-000000000001", "text": "hi", "created_at": nil
        ]
        XCTAssertEqual(
            ModelSuite.coverage(StrictNote.self, table: view, row: row),
            ["StrictNote does not write created_at (NULL must be written as null, as PostgREST prints a row)"])
    }

    func testCoverageNamesEveryProblem() throws {
        let table = try XCTUnwrap(try backend().configuration.spec.schema.table("notes"))
        let row: [String: JSONValue] = [
            "id": "0f000000-0000-4000-8000-000000000002", "owner": "a11ce000-0000-4000-8000-000000000001", "text": "hi", "created_at": nil
        ]
        XCTAssertEqual(ModelSuite.coverage(Note.self, table: table, row: row), [])
        XCTAssertEqual(
            ModelSuite.coverage(StrictNote.self, table: table, row: row),
            [
                "StrictNote does not write created_at (NULL must be written as null, as PostgREST prints a row)",
                "StrictNote.text rejects NULL but the column is nullable"
            ])
        XCTAssertEqual(ModelSuite.coverage(Ghost.self, table: table, row: row).first, "Ghost has no key for column notes.owner")
    }

    /// The registry's coder is the app's: a `Date` model fails with plain coders and passes with
    /// the one that reads PostgreSQL's timestamps.
    func testTheAppsCoderIsUsed() throws {
        XCTAssertFalse(try results([DatedNote.self])["NoteModel<Date> round-trips 2 notes rows"]!.passed)
        let r = try results([DatedNote.self], coder: Self.pgCoder)
        XCTAssertEqual(r["NoteModel<Date> ↔ notes columns"]?.passed, true, r["NoteModel<Date> ↔ notes columns"]?.message ?? "")
        XCTAssertEqual(r["NoteModel<Date> round-trips 2 notes rows"]?.passed, true, r["NoteModel<Date> round-trips 2 notes rows"]?.message ?? "")
    }

    enum TinyApp: ContractApp, AppModule {
        static let name = "tiny"
        static let title = "Tiny"
        static func register(on backend: MockSupabase) {}
        static var tableModels: [any TableModel.Type] { [Note.self, StrictNote.self] }
        static var modelRegistry: ModelRegistry {
            var r = ModelRegistry(coder: ModelSuiteTests.pgCoder)
            r.register(Note.self, as: "StrictNote")
            return r
        }
    }

    /// Table models join the app's registry by type name, unless the app registered the name.
    func testTheRegistryOfAnApp() {
        let r = ModelSuite.registry(for: TinyApp.self)
        XCTAssertEqual(r.names, ["NoteModel<String>", "NoteModel<String>[]", "StrictNote", "StrictNote[]"])
        XCTAssertEqual(r.check("StrictNote", ["id": "x", "owner": "y", "text": nil, "created_at": nil]), [], "the app's entry wins")
        XCTAssertNotNil(try? r.coder.decode(DatedNote.self, from: ["id": "x", "owner": "y", "created_at": "2026-01-01 00:00:00+00"]))
    }

    /// Interaction bodies round-trip through the models their steps name; a missing body or an
    /// unknown model fails.
    func testInteractionBodies() throws {
        let file = try SpecNode(
            value: [
                "name": "n", "source": "s",
                "steps": [
                    ["as": "anon", "request": ["method": "GET", "path": "/rest/v1/notes"], "response": ["status": 200], "model": "Note[]"],
                    [
                        "as": "anon",
                        "request": ["method": "POST", "path": "/rest/v1/notes", "body": ["id": "a", "owner": "b", "text": nil, "created_at": nil]],
                        "response": ["status": 201], "model": "Note", "requestModel": "Lossy"
                    ]
                ]
            ], file: "Contracts/x/interactions/notes.json"
        ).decode(InteractionFile.self)
        let replayed = InteractionReplay.replay(file, over: InteractionEndpoint.mock(try backend(), inProcess: true))
        XCTAssertEqual(replayed.transcript.count, 2, replayed.failures.joined(separator: "\n"))
        var registry = ModelRegistry()
        registry.register(Note.self, as: "Note")
        registry.register(StrictNote.self, as: "Lossy")
        let r = ModelSuite.interactionResults(app: "x", [replayed], registry: registry)
        XCTAssertEqual(r.map(\.name), ["notes.json step 1 response as Note[]", "notes.json step 2 response as Note", "notes.json step 2 request as Lossy"])
        XCTAssertEqual(r.map(\.passed), [true, false, false])
        XCTAssertTrue(r[1].message.hasPrefix("Note does not decode $.steps[1].response.body"), r[1].message)
        XCTAssertTrue(r[2].message.hasPrefix("Lossy does not decode $.steps[1].request.body"), r[2].message)
    }
}
