import Foundation

/// A relationship PostgREST's schema cache derives from foreign keys
/// (src/library/PostgREST/SchemaCache.hs): many-to-one from a table's own foreign key, its
/// inverse one-to-many, one-to-one when the foreign key's columns are unique, and many-to-many
/// through a junction table holding foreign keys to both sides whose columns are all in the
/// junction's primary key.
struct Relationship {
    enum Cardinality: String { case manyToOne = "many-to-one", oneToMany = "one-to-many", oneToOne = "one-to-one", manyToMany = "many-to-many" }

    /// The junction of a many-to-many relationship.
    struct Junction {
        let table: TableSchema
        let sourceConstraint: String
        let targetConstraint: String
        /// Junction columns pointing at the origin, and the origin columns they reference (indexes).
        let sourceJunctionCols: [Int]
        let sourceParentCols: [Int]
        let targetJunctionCols: [Int]
        let targetCols: [Int]
        let sourceNames: [String]
        let targetNames: [String]
    }

    let origin: TableSchema
    let target: TableSchema
    let cardinality: Cardinality
    /// The foreign key's name (for many-to-many, the junction's table name is the hint).
    let constraint: String
    /// (origin column, target column) pairs of a direct relationship.
    let columns: [(String, String)]
    let junction: Junction?

    var isSelf: Bool { origin.qualifiedName == target.qualifiedName }
    var toMany: Bool { cardinality == .oneToMany || cardinality == .manyToMany }
    var parentCols: [Int] { columns.compactMap { origin.columnIndex($0.0) } }
    var childCols: [Int] { columns.compactMap { target.columnIndex($0.1) } }

    static func isUnique(_ cols: [String], in t: TableSchema) -> Bool {
        Set(cols) == Set(t.primaryKey) || t.uniques.contains { Set($0.columns) == Set(cols) }
    }

    /// A relation's own foreign keys, for a simple view those of its base it shows (under the
    /// view's column names, one per combination when a column is shown twice).
    static func junctionKeys(of t: TableSchema, schema: DatabaseSchema) -> [ForeignKey] {
        guard let base = schema.viewChain(t)?.base else { return t.foreignKeys }
        return t.foreignKeys
            + base.foreignKeys.flatMap { fk in
                combinations(fk.columns.map { schema.viewColumns(showing: $0, in: t) }).map { cols in
                    var k = fk
                    k.columns = cols
                    return k
                }
            }
    }

    /// Every pick of one name from each list, the first list varying slowest (none when a
    /// list is empty).
    static func combinations(_ choices: [[String]]) -> [[String]] {
        choices.reduce([[]]) { acc, names in acc.flatMap { prefix in names.map { prefix + [$0] } } }
    }

    /// Every relationship from `origin` to the exposed tables.
    static func all(from origin: TableSchema, schema: DatabaseSchema) -> [Relationship] {
        all(from: origin, index: RelationIndex(schema))
    }

    /// `all(from:schema:)` over an index one search shares across its tables.
    static func all(from origin: TableSchema, index: RelationIndex) -> [Relationship] {
        let schema = index.schema
        var out: [Relationship] = []
        let exposed = schema.tables.filter { $0.schema == schema.apiSchema }
        for fk in index.foreignKeys(of: origin) {
            guard let t = index.table(fk.refTable), t.schema == schema.apiSchema else { continue }
            let card: Cardinality = isUnique(fk.columns, in: origin) ? .oneToOne : .manyToOne
            out.append(
                Relationship(origin: origin, target: t, cardinality: card, constraint: fk.name, columns: Array(zip(fk.columns, fk.refColumns)), junction: nil))
        }
        for t in exposed {
            for fk in index.foreignKeys(of: t) where index.table(fk.refTable)?.qualifiedName == origin.qualifiedName {
                let card: Cardinality = isUnique(fk.columns, in: t) ? .oneToOne : .oneToMany
                out.append(
                    Relationship(
                        origin: origin, target: t, cardinality: card, constraint: fk.name, columns: Array(zip(fk.refColumns, fk.columns)), junction: nil))
            }
        }
        for j in exposed {
            // A view can be the junction too (SchemaCache.hs `addM2MRels` runs after the views'
            // keys are added): the base's foreign keys whose columns it shows, its key the base's;
            // its ends may be views over the tables those keys reference (`screens ↔ labels`
            // through `label_screen`, each a view over a private table: EmbedDisambiguationSpec).
            let keys = index.foreignKeys(of: j)
            for fk1 in keys where index.table(fk1.refTable)?.qualifiedName == origin.qualifiedName {
                for fk2 in keys where fk2.name != fk1.name {
                    guard let t = index.table(fk2.refTable), t.schema == schema.apiSchema else { continue }
                    guard Set(fk1.columns + fk2.columns).isSubset(of: Set(j.primaryKey)) else { continue }
                    let junction = Junction(
                        table: j, sourceConstraint: fk1.name, targetConstraint: fk2.name,
                        sourceJunctionCols: fk1.columns.compactMap(j.columnIndex), sourceParentCols: fk1.refColumns.compactMap(origin.columnIndex),
                        targetJunctionCols: fk2.columns.compactMap(j.columnIndex), targetCols: fk2.refColumns.compactMap(t.columnIndex),
                        sourceNames: fk1.columns, targetNames: fk2.columns)
                    out.append(Relationship(origin: origin, target: t, cardinality: .manyToMany, constraint: j.name, columns: [], junction: junction))
                }
            }
        }
        return out
    }

    /// PostgREST's `findRel` (src/library/PostgREST/Plan.hs): the target names a table, or (for
    /// direct relationships) a foreign key or its single origin column; a hint names the foreign
    /// key, a single column on either side, or a junction table. In a self-relationship the
    /// table name means the children (one-to-many) and the column name the parent; a hint there
    /// names the children's column. None found is PGRST200, several PGRST201 (300).
    static func find(from origin: TableSchema, target name: String, hint: String?, schema: DatabaseSchema) throws -> Relationship {
        let candidates = all(from: origin, schema: schema).filter { r in
            let single = r.columns.count == 1 ? r.columns[0] : nil
            let direct = r.junction == nil
            if r.isSelf {
                if let hint {
                    return name == r.target.name && r.cardinality == .oneToMany && single?.1 == hint
                }
                return (name == r.target.name && r.cardinality == .oneToMany) || (direct && single?.0 == name && r.cardinality == .manyToOne)
            }
            if let hint {
                return name == r.target.name
                    && ((direct && r.constraint == hint) || single?.0 == hint || single?.1 == hint || (!direct && r.constraint == hint))
            }
            return name == r.target.name || (direct && !r.target.isView && (r.constraint == name || single?.0 == name))
        }
        if candidates.count == 1 { return candidates[0] }
        if candidates.isEmpty { throw notFound(origin.name, name, hint: hint, schema: schema) }
        throw ambiguous(origin.name, name, candidates.sorted(by: schemaCacheOrder))
    }

    /// The order of PostgREST's schema cache lists (SchemaCache.hs sorts each table's
    /// relationships with the derived `Ord` of `Relationship`): target table, self or not, then
    /// the cardinality in its declaration order (one-to-many, many-to-one, one-to-one,
    /// many-to-many), then the constraint's name and columns (for many-to-many the junction's
    /// name and its two constraints). A PGRST201's details and hint list candidates so.
    static func schemaCacheOrder(_ a: Relationship, _ b: Relationship) -> Bool {
        func rank(_ c: Cardinality) -> Int {
            switch c {
            case .oneToMany: 0
            case .manyToOne: 1
            case .oneToOne: 2
            case .manyToMany: 3
            }
        }
        func key(_ r: Relationship) -> [String] {
            let head = [r.target.schema, r.target.name, r.isSelf ? "1" : "0", String(rank(r.cardinality))]
            if let j = r.junction {
                return head + [j.table.schema, j.table.name, j.sourceConstraint, j.targetConstraint] + j.sourceNames + [""] + j.targetNames
            }
            return head + [r.constraint] + r.columns.flatMap { [$0.0, $0.1] }
        }
        return key(a).lexicographicallyPrecedes(key(b))
    }

    /// Whether a junction outside the exposed schemas joins `t` to an exposed table: a
    /// many-to-many PostgREST detects and then hides (SchemaCache.hs `hasInternalJunction`).
    static func hasInternalJunction(_ t: TableSchema, index: RelationIndex) -> Bool {
        let schema = index.schema
        return schema.tables.contains { j in
            guard j.schema != schema.apiSchema else { return false }
            let keys = index.foreignKeys(of: j)
            return keys.contains { fk1 in
                index.table(fk1.refTable)?.qualifiedName == t.qualifiedName
                    && keys.contains { fk2 in
                        fk2.name != fk1.name && index.table(fk2.refTable)?.schema == schema.apiSchema
                            && Set(fk1.columns + fk2.columns).isSubset(of: Set(j.primaryKey))
                    }
            }
        }
    }

    static func notFound(_ parent: String, _ child: String, hint: String?, schema: DatabaseSchema) -> PostgresError {
        let details =
            "Searched for a foreign key relationship between '\(parent)' and '\(child)'" + (hint.map { " using the hint '\($0)'" } ?? "")
            + " in the schema '\(schema.apiSchema)', but no matches were found."
        // Error.hs `noRelBetweenHint`: when the parent has relationships, a close name among the
        // tables they reach (not the child itself); otherwise a close name among the tables that
        // have relationships, at `getOne`'s default score.
        // A table whose only relationships run through a junction outside the exposed schemas
        // keeps its (now empty) entry in the schema cache (SchemaCache.hs `removeInternal` filters
        // the lists, not the keys), so it counts as having relationships and reaches no table.
        var suggestion: String?
        let index = RelationIndex(schema)
        let withRels = schema.tables.filter {
            $0.schema == schema.apiSchema && (!all(from: $0, index: index).isEmpty || hasInternalJunction($0, index: index))
        }
        if let p = withRels.first(where: { $0.name == parent }) {
            let related = all(from: p, index: index).sorted(by: schemaCacheOrder).map(\.target.name)
            if let best = FuzzyNameSet(related).get(child).first(where: { $0.score < 1 }) {
                suggestion = "Perhaps you meant '\(best.name)' instead of '\(child)'."
            }
        } else if let best = FuzzyNameSet(withRels.map(\.name)).getOne(parent) {
            suggestion = "Perhaps you meant '\(best)' instead of '\(parent)'."
        }
        return PostgresError(
            "PGRST200", "Could not find a relationship between '\(parent)' and '\(child)' in the schema cache", details: details, hint: suggestion)
    }

    static func ambiguous(_ parent: String, _ child: String, _ rels: [Relationship]) -> PostgresError {
        func cols(_ c: [String]) -> String { "(" + c.joined(separator: ", ") + ")" }
        let details: [JSONValue] = rels.map { r in
            let text: String
            if let j = r.junction {
                text = "\(j.table.name) using \(j.sourceConstraint)\(cols(j.sourceNames)) and \(j.targetConstraint)\(cols(j.targetNames))"
            } else {
                text = "\(r.constraint) using \(r.origin.name)\(cols(r.columns.map(\.0))) and \(r.target.name)\(cols(r.columns.map(\.1)))"
            }
            return [
                "cardinality": .string(r.cardinality.rawValue), "embedding": .string("\(r.origin.name) with \(r.target.name)"), "relationship": .string(text)
            ]
        }
        var e = PostgresError(
            "PGRST201", "Could not embed because more than one relationship was found for '\(parent)' and '\(child)'",
            hint:
                "Try changing '\(child)' to one of the following: \(rels.map { "'\($0.target.name)!\($0.constraint)'" }.joined(separator: ", ")). Find the desired relationship in the 'details' key."
        )
        e.detailsJSON = .array(details)
        return e
    }
}
