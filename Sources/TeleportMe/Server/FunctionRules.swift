import Foundation
import ContractKit

/// The rules of TeleportMe's database functions, triggers and edge function, read strictly from
/// `Contracts/teleportme/functions.json`.
public struct FunctionRules: Sendable, Equatable {
    /// `search_cities(search_term)`.
    public struct Search: Sendable, Equatable {
        /// The parameter name.
        public var parameter: String
        /// Columns compared with the term.
        public var columns: [String]
        /// Similarity threshold, a `numeric` literal in the SQL: compared in double precision
        /// with `similarity()`'s `real` result, as PostgreSQL does.
        public var threshold: Double
        /// Whether a similarity equal to the threshold matches.
        public var inclusive: Bool
        /// Most rows returned.
        public var limit: Int
        /// Columns breaking similarity ties, ascending.
        public var tieBreak: [String]
    }

    /// search_cities.
    public var search: Search
    /// raw_user_meta_data keys tried for the profile name.
    public var nameKeys: [String]
    /// Tables with the update_updated_at trigger.
    public var updatedAtTables: [String]
    /// Whether generate-report requires a JWT at the gateway.
    public var reportVerifyJWT: Bool
    /// Error code for a malformed body.
    public var invalidBodyCode: String
    /// Error code for an unknown city.
    public var unknownCityCode: String
    /// Error code for a bad preference.
    public var invalidPreferenceCode: String

    /// `Contracts/teleportme/functions.json`.
    public static var defaultURL: URL { ContractsLocator.app("teleportme").appendingPathComponent("functions.json") }

    /// Loads functions.json; `schema` validates the table and column names it mentions.
    public static func load(_ url: URL = defaultURL, schema: DatabaseSchema? = nil) throws -> FunctionRules {
        try decode(SpecNode.load(url, displayName: "Contracts/teleportme/functions.json"), schema: schema)
    }

    /// Decodes functions.json strictly.
    public static func decode(_ root: SpecNode, schema: DatabaseSchema?) throws -> FunctionRules {
        func checkColumns(_ node: SpecNode, table: String) throws -> [String] {
            let cols = try node.strings()
            if let t = schema?.table(table) {
                for (i, c) in cols.enumerated() where t.columnIndex(c) == nil {
                    throw SpecNode(value: .string(c), file: node.file, path: "\(node.path)[\(i)]").fail("unknown column '\(c)' of '\(table)'")
                }
            }
            return cols
        }
        return try root.object { o in
            _ = o.optional("app"); _ = o.optional("source")
            let search = try o.required("search_cities").object { s -> Search in
                _ = try s.required("decision").string()
                let returnsNode = try s.required("returns")
                let returns = try returnsNode.string()
                if returns != "cities" { throw returnsNode.fail("only 'cities' (SETOF cities) is supported") }
                let thNode = try s.required("threshold")
                let th = try thNode.double()
                if th < 0 || th > 1 { throw thNode.fail("a similarity threshold is within 0-1") }
                let limNode = try s.required("limit")
                let lim = try limNode.int()
                if lim < 1 { throw limNode.fail("must be at least 1") }
                return Search(parameter: try s.required("parameter").string(),
                              columns: try checkColumns(try s.required("columns"), table: "cities"),
                              threshold: th, inclusive: try s.required("inclusive").bool(), limit: lim,
                              tieBreak: try checkColumns(try s.required("tieBreak"), table: "cities"))
            }
            let nameKeys = try o.required("handle_new_user").object { h in
                _ = try h.required("decision").string()
                return try h.required("nameKeys").strings()
            }
            let tables = try o.required("update_updated_at").object { u -> [String] in
                _ = try u.required("decision").string()
                let node = try u.required("tables")
                let ts = try node.strings()
                if let schema {
                    for (i, t) in ts.enumerated() {
                        let at = SpecNode(value: .string(t), file: node.file, path: "\(node.path)[\(i)]")
                        guard let table = schema.table(t) else { throw at.fail("unknown table '\(t)'") }
                        if table.columnIndex("updated_at") == nil { throw at.fail("table '\(t)' has no updated_at column") }
                    }
                }
                return ts
            }
            return try o.required("generate_report").object { g in
                _ = try g.required("decision").string()
                let verify = try g.required("verifyJWT").bool()
                let codes = try g.required("errors").object { e in
                    (try e.required("invalidBody").string(), try e.required("unknownCity").string(), try e.required("invalidPreference").string())
                }
                return FunctionRules(search: search, nameKeys: nameKeys, updatedAtTables: tables, reportVerifyJWT: verify,
                                     invalidBodyCode: codes.0, unknownCityCode: codes.1, invalidPreferenceCode: codes.2)
            }
        }
    }
}
