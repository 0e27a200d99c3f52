import Foundation

/// One committed row change, as logical replication reports it: the table, the event, the row
/// before (UPDATE, DELETE; every column — what a subscriber sees of it is Realtime's business) and
/// after (INSERT, UPDATE), and the statement's time as the commit time. The rows are kept as
/// values and turned into JSON only when read, so recording a change costs little.
package struct RowChange: Sendable {
    package var table: TableSchema
    package var event: TriggerEvent
    package var commitTime: Date
    let oldValues: [SQLValue]?
    let newValues: [SQLValue]?

    init(table: TableSchema, event: TriggerEvent, old: [SQLValue]?, new: [SQLValue]?, commitTime: Date) {
        self.table = table
        self.event = event
        self.oldValues = old
        self.newValues = new
        self.commitTime = commitTime
    }

    /// OLD as PostgREST would print it.
    package var old: [String: JSONValue]? { oldValues.map(json) }
    /// NEW as PostgREST would print it.
    package var new: [String: JSONValue]? { newValues.map(json) }

    private func json(_ row: [SQLValue]) -> [String: JSONValue] {
        Dictionary(uniqueKeysWithValues: zip(table.columns, row).map { ($0.name, $1.json(as: $0.type)) })
    }
}
