import Foundation

/// `Contracts/<app>/models.json`: the naming an app's generated table models use where the
/// schema's names are not enough (type names, property renames, enum types for check-constrained
/// text, the Swift type of a jsonb column, which tables to emit). Every key is optional and the
/// file itself may be absent: without it every public table gets a model named from its table.
/// Format: Contracts/FORMAT.md, "models.json".
package struct ModelOverlay: Sendable, Equatable {
    /// The Swift representation chosen for a PostgreSQL type across the app's models.
    package enum Representation: String, Sendable, CaseIterable {
        /// The shared value type (`PGUUID`), the default.
        case shared
        /// `String` (uuid only): the text as received, a case-preserving round trip.
        case string
    }

    /// One enum of schema.json's `enums` or of a check-constrained text column.
    package struct EnumNaming: Sendable, Equatable {
        /// The Swift type name (`RideStatus`).
        package var type: String?
        /// Case names by label, where the default (lower camel case of the label) does not fit.
        package var cases: [String: String] = [:]
        package var doc: String?
    }

    package struct ColumnNaming: Sendable, Equatable {
        /// The property name (default: lower camel case of the column).
        package var property: String?
        /// A Codable Swift type for a `jsonb` column (a hand-written payload such as `[CityMatch]`).
        package var type: String?
        /// For a text column whose CHECK is an `in` list: the enum type its labels become.
        package var enumType: String?
        /// Case names by label for `enumType`.
        package var cases: [String: String] = [:]
        /// A view column's nullability (PostgreSQL cannot declare a view column NOT NULL).
        package var nullable: Bool?
        /// The doc comment (default: the column's name, type and schema note).
        package var doc: String?
    }

    package struct TableNaming: Sendable, Equatable {
        /// The Swift type name (default: upper camel case of the singular table name).
        package var type: String?
        /// False to emit no model for the table.
        package var emit: Bool = true
        package var doc: String?
        package var columns: [String: ColumnNaming] = [:]
    }

    /// A request body made of some of a table's columns (an insert, upsert or update).
    package struct PayloadNaming: Sendable, Equatable {
        /// The table whose columns (names, Swift types, property names) the body uses.
        package var table: String
        /// The columns, in the body's order.
        package var columns: [String]
        /// The columns the client may leave out (optional properties); the others are required.
        package var optional: [String] = []
        /// Whether an absent optional is written as `null` (default: left out, so the column's
        /// default applies on insert and the stored value stays on update).
        package var writeNulls: Bool = false
        /// Protocols the payload adopts besides `Codable, Equatable, Sendable`.
        package var conformances: [String] = []
        package var doc: String?
    }

    /// The Swift module (folder under `Sources/`) the models are written into.
    package var module: String?
    /// Representations by PostgreSQL type (`uuid`).
    package var representations: [String: Representation] = [:]
    /// Protocols every model adopts besides `TableModel`.
    package var conformances: [String] = []
    /// Enums by schema.json enum name.
    package var enums: [String: EnumNaming] = [:]
    package var tables: [String: TableNaming] = [:]
    /// Request bodies to emit, by Swift type name.
    package var payloads: [String: PayloadNaming] = [:]

    /// An empty overlay: every name from the schema.
    package init() {}

    /// Reads `models.json` from an app's contracts folder; an absent file is the empty overlay.
    /// Unknown keys and wrong types are errors naming the file and JSON path.
    package static func load(folder: URL, app: String) throws -> ModelOverlay {
        let url = folder.appendingPathComponent("models.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return ModelOverlay() }
        return try decode(SpecNode.load(url, displayName: "Contracts/\(app)/models.json"))
    }

    /// Decodes an overlay strictly.
    package static func decode(_ root: SpecNode) throws -> ModelOverlay { try root.decode(ModelOverlay.self) }
}

extension ModelOverlay: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, module, representations, conformances, enums, tables, payloads }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        module = try c.decodeIfPresent(String.self, forKey: .module)
        for (type, raw) in try (c.decodeIfPresent([String: String].self, forKey: .representations) ?? [:]).sorted(by: { $0.key < $1.key }) {
            let place: [CodingKey] = [CodingKeys.representations, AnyKey(type)]
            guard type == "uuid" else { throw c.fail(place, "no representation choice for type '\(type)' (only uuid)") }
            guard let rep = Representation(rawValue: raw) else { throw c.fail(place, "unknown representation '\(raw)' for uuid (shared, string)") }
            representations[type] = rep
        }
        conformances = try c.decodeIfPresent([String].self, forKey: .conformances) ?? []
        enums = try c.decodeIfPresent([String: EnumNaming].self, forKey: .enums) ?? [:]
        tables = try c.decodeIfPresent([String: TableNaming].self, forKey: .tables) ?? [:]
        payloads = try c.decodeIfPresent([String: PayloadNaming].self, forKey: .payloads) ?? [:]
    }
}

extension ModelOverlay.EnumNaming: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case type, cases, doc }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        cases = try c.decodeIfPresent([String: String].self, forKey: .cases) ?? [:]
        doc = try c.decodeIfPresent(String.self, forKey: .doc)
    }
}

extension ModelOverlay.ColumnNaming: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case property, type, enumType = "enum", cases, nullable, doc }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        property = try c.decodeIfPresent(String.self, forKey: .property)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        enumType = try c.decodeIfPresent(String.self, forKey: .enumType)
        cases = try c.decodeIfPresent([String: String].self, forKey: .cases) ?? [:]
        nullable = try c.decodeIfPresent(Bool.self, forKey: .nullable)
        doc = try c.decodeIfPresent(String.self, forKey: .doc)
    }
}

extension ModelOverlay.TableNaming: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case type, emit, doc, columns }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        emit = try c.decodeIfPresent(Bool.self, forKey: .emit) ?? true
        doc = try c.decodeIfPresent(String.self, forKey: .doc)
        columns = try c.decodeIfPresent([String: ModelOverlay.ColumnNaming].self, forKey: .columns) ?? [:]
    }
}

extension ModelOverlay.PayloadNaming: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case table, columns, optional, writeNulls, conformances, doc }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        table = try c.decode(String.self, forKey: .table)
        columns = try c.decode([String].self, forKey: .columns)
        optional = try c.decodeIfPresent([String].self, forKey: .optional) ?? []
        writeNulls = try c.decodeIfPresent(Bool.self, forKey: .writeNulls) ?? false
        conformances = try c.decodeIfPresent([String].self, forKey: .conformances) ?? []
        doc = try c.decodeIfPresent(String.self, forKey: .doc)
    }
}
