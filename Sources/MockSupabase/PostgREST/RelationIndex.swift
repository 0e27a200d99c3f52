import Foundation

/// A schema's relations indexed for one relationship search: name lookups and each relation's
/// foreign keys computed once and
/// kept, and the simple views over each base table found in one pass. Finding every
/// relationship of a table looks at every table's keys, and each key at every view over the
/// table it references; without the index, a schema of a few hundred relations (PostgREST's
/// own test schema) spent seconds per embed scanning the schema again for each lookup.
final class RelationIndex {
    let schema: DatabaseSchema
    private var lookups: [String: TableSchema?] = [:]
    private var keys: [String: [ForeignKey]] = [:]
    /// Base table (qualified name) → the simple views whose chain ends at it, in schema order.
    private lazy var viewsOver: [String: [TableSchema]] = {
        var out: [String: [TableSchema]] = [:]
        for v in schema.tables {
            if let base = schema.viewChain(v)?.base { out[base.qualifiedName, default: []].append(v) }
        }
        return out
    }()

    init(_ schema: DatabaseSchema) { self.schema = schema }

    /// `DatabaseSchema.table(_:)`, remembered.
    func table(_ name: String) -> TableSchema? {
        if let hit = lookups[name] { return hit }
        let t = schema.table(name)
        lookups[name] = t
        return t
    }

    /// A relation's foreign keys as PostgREST's schema cache sees them: a table's own, and for a
    /// simple view those its base table's columns carry into it (SchemaCache.hs follows view
    /// columns to their base columns): the base's foreign keys whose columns the view shows, and
    /// every foreign key pointing at the base whose referenced columns the view shows, then
    /// pointing at the view. Keys keep the base constraint's name and take the view's column
    /// names; a view showing a key column under several names gets one key per combination
    /// (`addViewM2OAndO2ORels`, PostgREST issue 2459).
    func foreignKeys(of t: TableSchema) -> [ForeignKey] {
        if let known = keys[t.qualifiedName] { return known }
        let direct = Relationship.junctionKeys(of: t, schema: schema)
        var out = direct
        for fk in direct {
            guard let ref = table(fk.refTable) else { continue }
            for v in viewsOver[ref.qualifiedName] ?? [] {
                for refColumns in Relationship.combinations(fk.refColumns.map { schema.viewColumns(showing: $0, in: v) }) {
                    var k = fk
                    k.refTable = v.schema == schema.apiSchema ? v.name : v.qualifiedName
                    k.refColumns = refColumns
                    out.append(k)
                }
            }
        }
        keys[t.qualifiedName] = out
        return out
    }
}
