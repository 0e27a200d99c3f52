import Foundation
import ContractKit

/// Aura's conformance checks: public functions that take an implementation (models, a
/// calculator, a generator) and return the violations found, empty when it conforms.
/// The gate's XCTest adapters live in Tests/ContractsTests.
public enum AuraConformance {
    /// The row models of the app, by table.
    public static let rowModels: [any AuraRow.Type] = [AuraUser.self, DailyReading.self, MBTIResult.self, Subscription.self]

    /// Models must code exactly the columns of their table: none missing, none extra.
    public static func modelColumnViolations(schema: DatabaseSchema, models: [(table: String, columns: [String])]) -> [String] {
        var out: [String] = []
        let appTables = schema.tables.filter { $0.schema == "public" }.map(\.name)
        for t in appTables where !models.contains(where: { $0.table == t }) { out.append("\(t): no model") }
        for m in models {
            guard let t = schema.table(m.table) else { out.append("\(m.table): model of a table not in schema.json"); continue }
            let want = t.columns.map(\.name)
            for c in want where !m.columns.contains(c) { out.append("\(m.table).\(c): column missing from the model") }
            for c in m.columns where !want.contains(c) { out.append("\(m.table).\(c): model codes a column the table lacks") }
        }
        return out
    }

    /// Rows as PostgreSQL prints them must decode and re-encode to equal JSON.
    public static func roundTripViolations<T: Codable>(_ type: T.Type, rows: [JSONValue], label: String) -> [String] {
        var out: [String] = []
        for (i, row) in rows.enumerated() {
            do {
                let back = try AuraJSON.encode(try AuraJSON.decode(T.self, from: row))
                if back != row { out.append("\(label)[\(i)]: round trip changed the row: \(row) -> \(back)") }
            } catch {
                out.append("\(label)[\(i)]: does not decode as \(T.self): \(error)")
            }
        }
        return out
    }

    /// A model's optionality must match the table's nullability: NULL in a nullable column
    /// decodes, NULL in a NOT NULL column is refused. `sample` is a complete valid row.
    public static func nullabilityViolations<T: Codable>(_ type: T.Type, table: TableSchema, sample: [String: JSONValue]) -> [String] {
        var out: [String] = []
        for c in table.columns {
            var row = sample
            row[c.name] = .null
            let decodes = (try? AuraJSON.decode(T.self, from: .object(row))) != nil
            if c.nullable && !decodes { out.append("\(table.name).\(c.name): nullable column, but the model refuses NULL") }
            if !c.nullable && decodes { out.append("\(table.name).\(c.name): NOT NULL column, but the model accepts NULL") }
        }
        return out
    }

    /// The zodiac calculator must give every documented case its sign and cover each day of a
    /// leap year exactly once; every boundary of the table must be a documented case.
    public static func zodiacViolations(_ calc: ZodiacCalculator, rules: AuraRules) -> [String] {
        var out = calc.coverageProblems()
        for c in rules.zodiacCases {
            let got = calc.sign(for: c.date)
            if got != c.sign { out.append("\(c.date) (\(c.source)): expected \(c.sign.rawValue), got \(got?.rawValue ?? "none")") }
        }
        for r in calc.signs {
            for day in [r.from, r.to] where !rules.zodiacCases.contains(where: { $0.date.monthDay == day && $0.sign == r.sign }) {
                out.append("\(r.sign.rawValue) boundary \(day) has no documented case")
            }
        }
        return out
    }

    /// The MBTI calculator must give every documented score sheet its type.
    public static func mbtiViolations(_ calc: MBTICalculator, rules: AuraRules) -> [String] {
        var out: [String] = []
        for c in rules.mbtiCases {
            do {
                let got = try calc.typeCode(scores: c.scores)
                if got != c.type { out.append("\(c.scores) (\(c.source)): expected \(c.type), got \(got)") }
            } catch {
                out.append("\(c.scores) (\(c.source)): \(error)")
            }
        }
        return out
    }

    /// Every documented subscription row must give its tier.
    public static func entitlementViolations(_ tierOf: ([String: JSONValue]?, Date) -> SubscriptionTier, rules: AuraRules) -> [String] {
        rules.entitlementCases.compactMap { c in
            let got = tierOf(c.subscription, rules.entitlementCasesNow)
            return got == c.tier ? nil : "\(c.subscription.map { JSONValue.object($0).serialized() } ?? "no row") (\(c.source)): expected \(c.tier.rawValue), got \(got.rawValue)"
        }
    }

    /// A generated reading must respect the tier's word count, the generated fortune range and
    /// the lucky-number and colour rules.
    public static func readingViolations(_ out: HoroscopeStandIn.Output, length: SubscriptionTier, rules: AuraRules, label: String) -> [String] {
        var v: [String] = []
        let words = HoroscopeStandIn.wordCount(out.content)
        let range = rules.wordCount[length]!
        if !range.closed.contains(words) { v.append("\(label): \(words) words, expected \(range.min)…\(range.max) for \(length.rawValue)") }
        if !rules.generatedFortune.closed.contains(out.fortuneScore) { v.append("\(label): fortune \(out.fortuneScore) outside \(rules.generatedFortune.closed)") }
        if !rules.fortuneScore.closed.contains(out.fortuneScore) { v.append("\(label): fortune \(out.fortuneScore) violates the column CHECK") }
        if out.luckyNumbers.count != rules.luckyNumberCount { v.append("\(label): \(out.luckyNumbers.count) lucky numbers, expected \(rules.luckyNumberCount)") }
        if out.luckyNumbers.contains(where: { !rules.luckyNumberRange.closed.contains($0) }) { v.append("\(label): lucky number outside \(rules.luckyNumberRange.closed)") }
        if rules.luckyNumbersDistinct && Set(out.luckyNumbers).count != out.luckyNumbers.count { v.append("\(label): repeated lucky number") }
        if out.powerColors != rules.powerColors { v.append("\(label): power colours \(out.powerColors), expected \(rules.powerColors)") }
        return v
    }
}
