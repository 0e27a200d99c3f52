import Foundation

/// PostgREST's schema-cache errors that carry a "Perhaps you meant …" hint (src/library/PostgREST/
/// Error.hs: `tableNotFoundHint`, `noRpcHint`; `noRelBetweenHint` is in Relationship.swift), all
/// computed with `FuzzyNameSet`.
extension MockSupabase {
    /// Error.hs `getFuzzyHint`: table and function names are suggested only at this similarity
    /// or more ("not a security risk" is PostgREST's reason for the lower default on parameters).
    static let nameHintMinScore = 0.75

    /// PGRST205 for a table or view the exposed schema does not hold; the hint is the closest of
    /// the schema's tables and views (PostgREST builds the index only for schemas of fewer than
    /// 500 relations).
    func tableNotFound(_ name: String, in schemaName: String) -> PostgresError {
        let names = database.schema.tables.filter { $0.schema == schemaName }.map(\.name)
        let match = names.count < 500 ? FuzzyNameSet(names).getOne(name, minScore: Self.nameHintMinScore) : nil
        return PostgresError(
            "PGRST205", "Could not find the table '\(schemaName).\(name)' in the schema cache",
            hint: match.map { "Perhaps you meant the table '\(schemaName).\($0)'" })
    }

    /// PGRST202's hint: with no function of that name, the closest function name (no
    /// arguments shown); with one, its parameter list (sorted, in parentheses) if the given
    /// argument names come close to it at `getOne`'s default score.
    func functionHint(_ name: String, given: [String], found: RPCFunction?) -> String? {
        let prefix = "Perhaps you meant to call the function \(database.schema.apiSchema)."
        guard let found else {
            return FuzzyNameSet(rpcNames).getOne(name, minScore: Self.nameHintMinScore).map { prefix + $0 }
        }
        func listed(_ names: [String]) -> String { "(" + names.sorted().joined(separator: ", ") + ")" }
        return FuzzyNameSet([listed(found.parameters.map(\.name))]).getOne(listed(given)).map { prefix + name + $0 }
    }
}
