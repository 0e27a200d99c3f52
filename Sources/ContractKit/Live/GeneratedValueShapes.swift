import Foundation

/// Matches by shape what a live backend generates itself. A documented interaction was recorded
/// against the mock with seeded ids and a stopped clock; a live backend draws its own UUIDs and
/// reads its own clock. An expected UUID, timestamp or date that is not a value of the fixtures
/// (and so was generated while the interaction ran) becomes the matcher of its shape (`<uuid>`,
/// `<timestamptz>`, `<date>`); a value the fixtures hold must still match exactly.
package struct GeneratedValueShapes: Sendable {
    /// Every string of the fixtures (row values, persona ids and e-mails).
    package let known: Set<String>

    /// The shapes for an app's fixtures.
    package init(fixtures: Fixtures) {
        var known = Set<String>()
        func collect(_ v: JSONValue) {
            switch v {
            case .string(let s): known.insert(s)
            case .array(let a): a.forEach(collect)
            case .object(let o): o.values.forEach(collect)
            default: break
            }
        }
        for p in fixtures.personas { known.insert(p.id); known.insert(p.email) }
        for (_, rows) in fixtures.tables { rows.forEach(collect) }
        self.known = known
    }

    /// `expected` with every generated UUID, timestamp and date replaced by its shape's matcher.
    package func relax(_ expected: JSONValue) -> JSONValue {
        switch expected {
        case .string(let s):
            if known.contains(s) || JSONMatch.matchers[s] != nil { return expected }
            if SQLValue.canonicalUUID(s) == s { return "<uuid>" }
            if JSONMatch.isTimestamptz(s) { return "<timestamptz>" }
            if s.utf8.count == 10, PGTime.parseDate(s) != nil, JSONMatch.matchers["<date>"]!(expected) { return "<date>" }
            return expected
        case .array(let a): return .array(a.map(relax))
        case .object(let o): return .object(o.mapValues(relax))
        default: return expected
        }
    }
}
