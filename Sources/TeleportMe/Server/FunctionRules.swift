import Foundation
import MockBinding

/// The rules of TeleportMe's database functions, triggers and edge function, read strictly from
/// `Contracts/teleportme/functions.json`.
package struct FunctionRules: Sendable, Equatable {
    /// `search_cities(search_term)`.
    package struct Search: Sendable, Equatable {
        package var parameter: String
        /// Columns compared with the term.
        package var columns: [String]
        /// Similarity threshold, a `numeric` literal in the SQL: compared in double precision
        /// with `similarity()`'s `real` result, as PostgreSQL does.
        package var threshold: Double
        /// Whether a similarity equal to the threshold matches.
        package var inclusive: Bool
        /// Most rows returned.
        package var limit: Int
        /// Columns breaking similarity ties, ascending.
        package var tieBreak: [String]
    }

    /// search_cities.
    package var search: Search
    /// raw_user_meta_data keys tried for the profile name.
    package var nameKeys: [String]
    /// Tables with the update_updated_at trigger.
    package var updatedAtTables: [String]
    /// Whether generate-report requires a JWT at the gateway.
    package var reportVerifyJWT: Bool
    package var invalidBodyCode: String
    /// Error code for an unknown city.
    package var unknownCityCode: String
    package var invalidPreferenceCode: String

    /// `Contracts/teleportme/functions.json`.
    package static var defaultURL: URL { ContractsLocator.app("teleportme").appendingPathComponent("functions.json") }

    /// Loads functions.json; `schema` validates the table and column names it mentions.
    package static func load(_ url: URL = defaultURL, schema: DatabaseSchema? = nil) throws -> FunctionRules {
        try decode(SpecNode.load(url, displayName: "Contracts/teleportme/functions.json"), schema: schema)
    }

    /// Decodes functions.json strictly.
    package static func decode(_ root: SpecNode, schema: DatabaseSchema?) throws -> FunctionRules {
        try root.decode(FunctionRules.self, values: schema.map { [schemaKey: $0] } ?? [:])
    }
    static let schemaKey = "functions.schema"
}

extension KeyedDecodingContainer {
    /// Column names of `table` (checked when the schema is known).
    fileprivate func columns(_ key: Key, of table: String, _ decoder: Decoder) throws -> [String] {
        let cols = try decode([String].self, forKey: key)
        if let t = (decoder.contractState?.values[FunctionRules.schemaKey] as? DatabaseSchema)?.table(table) {
            for (i, c) in cols.enumerated() where t.columnIndex(c) == nil {
                throw fail([key, AnyKey(intValue: i)!], "unknown column '\(c)' of '\(table)'")
            }
        }
        return cols
    }
}

extension FunctionRules.Search: Decodable {
    enum CodingKeys: String, CodingKey { case decision, returns, threshold, limit, parameter, columns, inclusive, tieBreak }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decode(String.self, forKey: .decision)
        if try c.decode(String.self, forKey: .returns) != "cities" { throw c.fail(.returns, "only 'cities' (SETOF cities) is supported") }
        threshold = try c.decode(Double.self, forKey: .threshold)
        if threshold < 0 || threshold > 1 { throw c.fail(.threshold, "a similarity threshold is within 0-1") }
        limit = try c.decode(Int.self, forKey: .limit)
        if limit < 1 { throw c.fail(.limit, "must be at least 1") }
        parameter = try c.decode(String.self, forKey: .parameter)
        columns = try c.columns(.columns, of: "cities", decoder)
        inclusive = try c.decode(Bool.self, forKey: .inclusive)
        tieBreak = try c.columns(.tieBreak, of: "cities", decoder)
    }
}

extension FunctionRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, search_cities, handle_new_user, update_updated_at, generate_report }
    private struct NewUser: Decodable {
        var decision: String, nameKeys: [String]
    }
    private struct UpdatedAt: Decodable {
        var tables: [String]
        enum CodingKeys: String, CodingKey { case decision, tables }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            _ = try c.decode(String.self, forKey: .decision)
            tables = try c.decode([String].self, forKey: .tables)
            guard let schema = decoder.contractState?.values[FunctionRules.schemaKey] as? DatabaseSchema else { return }
            for (i, t) in tables.enumerated() {
                guard let table = schema.table(t) else { throw c.fail([CodingKeys.tables, AnyKey(intValue: i)!], "unknown table '\(t)'") }
                if table.columnIndex("updated_at") == nil { throw c.fail([CodingKeys.tables, AnyKey(intValue: i)!], "table '\(t)' has no updated_at column") }
            }
        }
    }
    private struct Report: Decodable {
        struct Codes: Decodable { var invalidBody: String, unknownCity: String, invalidPreference: String }
        var decision: String, verifyJWT: Bool, errors: Codes
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        search = try c.decode(Search.self, forKey: .search_cities)
        nameKeys = try c.decode(NewUser.self, forKey: .handle_new_user).nameKeys
        updatedAtTables = try c.decode(UpdatedAt.self, forKey: .update_updated_at).tables
        let r = try c.decode(Report.self, forKey: .generate_report)
        (reportVerifyJWT, invalidBodyCode, unknownCityCode, invalidPreferenceCode) = (
            r.verifyJWT, r.errors.invalidBody, r.errors.unknownCity, r.errors.invalidPreference
        )
    }
}
