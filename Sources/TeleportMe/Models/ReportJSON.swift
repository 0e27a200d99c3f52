import Foundation
import MockBinding

// The report's models as `JSONValue`, built field by field: the value `PostgresRowCoding.encode`
// gives (a `ColumnEncodable` prints every column, an absent one as null; a whole `Double` is an
// `.int`), without the `Encoder` machinery and its per-field reflection, which cost generate-report
// more than the report itself (`contracts-bench report`). `ReportJSONTests` holds each builder
// equal to the encoder on every fixture city.

extension ReportJSON {
    /// A `Double` as `JSONValueEncoder` makes it: the common cases here, the rest by the encoder itself.
    package static func number(_ d: Double) throws -> JSONValue {
        if d.isFinite, d == d.rounded(.towardZero), abs(d) <= 9_007_199_254_740_992 { return .int(Int64(d)) }
        if d.isFinite, abs(d) >= 0.0001, abs(d) < 9_007_199_254_740_992 { return .double(d) }
        return try JSONValueEncoder.encode(d)
    }

    static func scores(_ s: [String: Double]) throws -> JSONValue { .object(try s.mapValues(number)) }
}

/// Namespace of the builders.
package enum ReportJSON {}

extension ComparisonEntry {
    /// `{"match_score", "current_score", "delta"}`.
    package func jsonValue() throws -> JSONValue {
        .object([
            "match_score": try ReportJSON.number(matchScore), "current_score": try ReportJSON.number(currentScore),
            "delta": try ReportJSON.number(delta)
        ])
    }
}

extension CityMatch {
    /// Every column of `CityMatch.columns`, `city_image_url` null when absent.
    package func jsonValue() throws -> JSONValue {
        .object([
            "city_id": .string(cityID), "city_name": .string(cityName), "city_full_name": .string(cityFullName),
            "city_country": .string(cityCountry), "city_image_url": cityImageURL.map(JSONValue.string) ?? .null,
            "match_percent": .int(Int64(matchPercent)), "rank": .int(Int64(rank)),
            "comparison": .object(try comparison.mapValues { try $0.jsonValue() }), "ai_insight": .string(aiInsight),
            "scores": try ReportJSON.scores(scores)
        ])
    }
}

extension ReportPreferences {
    /// `{"cost", "climate", "culture", "job_market"}`.
    package func jsonValue() throws -> JSONValue {
        .object([
            "cost": try ReportJSON.number(cost), "climate": try ReportJSON.number(climate), "culture": try ReportJSON.number(culture),
            "job_market": try ReportJSON.number(jobMarket)
        ])
    }
}

extension GenerateReportResponse {
    /// The §4.6 response; `matches` given when already built (`matchValues`).
    package func jsonValue(matches built: JSONValue? = nil) throws -> JSONValue {
        .object([
            "report_id": reportID.map { .string($0.rawValue) } ?? .null,
            // ReportCurrentCity is plain Codable: its three fields, none optional.
            "current_city": .object(["id": .string(currentCity.id), "name": .string(currentCity.name), "scores": try ReportJSON.scores(currentCity.scores)]),
            "matches": try built ?? matchValues()
        ])
    }

    /// The matches as a JSON array (also `city_reports.results`).
    package func matchValues() throws -> JSONValue { .array(try matches.map { try $0.jsonValue() }) }
}

extension CityReportInsert {
    /// The row inserted into `city_reports`; `results` given when already built.
    package func jsonValue(results built: JSONValue? = nil) throws -> JSONValue {
        .object([
            "user_id": .string(userID.rawValue), "current_city_id": .string(currentCityID), "preferences": try preferences.jsonValue(),
            "results": try built ?? .array(results.map { try $0.jsonValue() }), "ai_summary": aiSummary.map(JSONValue.string) ?? .null
        ])
    }
}

// The response's text written straight from the models, as `JSONValue.serialized()` prints the
// builders' values (compact; object keys in bytewise order, the fixed ones written in that order
// here, the dynamic ones sorted; strings and numbers by JSONValue's own writers).
extension ReportJSON {
    static func write(_ d: Double, to out: inout String) throws {
        switch try number(d) {
        case .int(let i): out += String(i)
        case .double(let d): out += JSONValue.formatDouble(d)
        case let v: v.write(to: &out, style: .compact, indent: 0)
        }
    }

    static func writeKey(_ key: String, to out: inout String) {
        JSONValue.writeString(key, to: &out)
        out += ":"
    }

    /// An object of dynamic keys (scores, comparisons), keys in bytewise order.
    static func writeObject<V>(_ o: [String: V], to out: inout String, _ value: (V, inout String) throws -> Void) rethrows {
        if o.isEmpty { out += "{}"; return }
        out += "{"
        for (n, field) in o.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if n > 0 { out += "," }
            writeKey(field.key, to: &out)
            try value(field.value, &out)
        }
        out += "}"
    }

    static func writeScores(_ s: [String: Double], to out: inout String) throws {
        try writeObject(s, to: &out) { try write($0, to: &$1) }
    }
}

extension CityMatch {
    /// `jsonValue()`'s compact text.
    package func writeJSON(to out: inout String) throws {
        out += "{\"ai_insight\":"
        JSONValue.writeString(aiInsight, to: &out)
        out += ",\"city_country\":"
        JSONValue.writeString(cityCountry, to: &out)
        out += ",\"city_full_name\":"
        JSONValue.writeString(cityFullName, to: &out)
        out += ",\"city_id\":"
        JSONValue.writeString(cityID, to: &out)
        out += ",\"city_image_url\":"
        if let cityImageURL { JSONValue.writeString(cityImageURL, to: &out) } else { out += "null" }
        out += ",\"city_name\":"
        JSONValue.writeString(cityName, to: &out)
        out += ",\"comparison\":"
        try ReportJSON.writeObject(comparison, to: &out) { e, out in
            out += "{\"current_score\":"
            try ReportJSON.write(e.currentScore, to: &out)
            out += ",\"delta\":"
            try ReportJSON.write(e.delta, to: &out)
            out += ",\"match_score\":"
            try ReportJSON.write(e.matchScore, to: &out)
            out += "}"
        }
        out += ",\"match_percent\":"
        out += String(matchPercent)
        out += ",\"rank\":"
        out += String(rank)
        out += ",\"scores\":"
        try ReportJSON.writeScores(scores, to: &out)
        out += "}"
    }
}

extension GenerateReportResponse {
    /// `jsonValue()`'s compact text: the bytes of the §4.6 response body.
    package func jsonText() throws -> String {
        var out = "{\"current_city\":{\"id\":"
        out.reserveCapacity(1_024 * (matches.count + 1))
        JSONValue.writeString(currentCity.id, to: &out)
        out += ",\"name\":"
        JSONValue.writeString(currentCity.name, to: &out)
        out += ",\"scores\":"
        try ReportJSON.writeScores(currentCity.scores, to: &out)
        out += "},\"matches\":"
        if matches.isEmpty {
            out += "[]"
        } else {
            out += "["
            for (n, m) in matches.enumerated() {
                if n > 0 { out += "," }
                try m.writeJSON(to: &out)
            }
            out += "]"
        }
        out += ",\"report_id\":"
        if let reportID { JSONValue.writeString(reportID.rawValue, to: &out) } else { out += "null" }
        out += "}"
        return out
    }
}
