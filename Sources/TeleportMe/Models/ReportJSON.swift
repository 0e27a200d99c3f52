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
// here, the dynamic ones sorted; strings and numbers as JSONValue's own writers print them). The
// text is written as UTF-8 bytes: appending a piece to a `String` is a runtime call each, and the
// report's ~400 pieces cost generate-report more than half the engine's own time (callgrind,
// `contracts-bench report`).

/// A compact JSON text under construction, as UTF-8 bytes.
struct ReportJSONWriter {
    var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends literal JSON text.
    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends `s` as a string literal, as `JSONValue.writeString` writes it.
    mutating func string(_ s: String) {
        let u = s.utf8
        if u.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            var escaped = ""
            JSONValue.writeString(s, to: &escaped)
            bytes.append(contentsOf: escaped.utf8)
            return
        }
        bytes.append(0x22)
        bytes.append(contentsOf: u)
        bytes.append(0x22)
    }

    /// Appends `"key":`.
    mutating func key(_ key: String) {
        string(key)
        bytes.append(0x3A)
    }

    /// Appends a whole number.
    mutating func int(_ i: Int) { bytes.append(contentsOf: String(i).utf8) }

    /// Appends a `Double` as `ReportJSON.number` makes it and `JSONValue` prints that value.
    mutating func number(_ d: Double) throws {
        switch try ReportJSON.number(d) {
        case .int(let i): bytes.append(contentsOf: String(i).utf8)
        case .double(let d):
            // `number` gives `.double` only for a finite, non-integral value, which
            // `formatDouble` prints as its `description` unless that has an exponent.
            let text = d.description
            bytes.append(contentsOf: text.utf8.contains(UInt8(ascii: "e")) ? JSONValue.formatDouble(d).utf8 : text.utf8)
        case let v:
            var text = ""
            v.write(to: &text, style: .compact, indent: 0)
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// An object of dynamic keys (scores, comparisons), keys in bytewise order.
    mutating func object<V>(_ o: [String: V], _ value: (V, inout ReportJSONWriter) throws -> Void) rethrows {
        if o.isEmpty { raw("{}"); return }
        raw("{")
        for (n, field) in o.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if n > 0 { raw(",") }
            key(field.key)
            try value(field.value, &self)
        }
        raw("}")
    }

    mutating func scores(_ s: [String: Double]) throws {
        try object(s) { try $1.number($0) }
    }

    /// The text written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension CityMatch {
    /// `jsonValue()`'s compact text.
    package func writeJSON(to out: inout String) throws {
        var w = ReportJSONWriter(capacity: 1_024)
        try writeJSON(to: &w)
        out += w.text
    }

    func writeJSON(to w: inout ReportJSONWriter) throws {
        w.raw("{\"ai_insight\":")
        w.string(aiInsight)
        w.raw(",\"city_country\":")
        w.string(cityCountry)
        w.raw(",\"city_full_name\":")
        w.string(cityFullName)
        w.raw(",\"city_id\":")
        w.string(cityID)
        w.raw(",\"city_image_url\":")
        if let cityImageURL { w.string(cityImageURL) } else { w.raw("null") }
        w.raw(",\"city_name\":")
        w.string(cityName)
        w.raw(",\"comparison\":")
        try w.object(comparison) { e, w in
            w.raw("{\"current_score\":")
            try w.number(e.currentScore)
            w.raw(",\"delta\":")
            try w.number(e.delta)
            w.raw(",\"match_score\":")
            try w.number(e.matchScore)
            w.raw("}")
        }
        w.raw(",\"match_percent\":")
        w.int(matchPercent)
        w.raw(",\"rank\":")
        w.int(rank)
        w.raw(",\"scores\":")
        try w.scores(scores)
        w.raw("}")
    }
}

extension GenerateReportResponse {
    /// `jsonValue()`'s compact text: the bytes of the §4.6 response body.
    package func jsonText() throws -> String { String(decoding: try jsonBytes(), as: UTF8.self) }

    /// `jsonText()` as UTF-8 bytes.
    package func jsonBytes() throws -> [UInt8] {
        var w = ReportJSONWriter(capacity: 1_024 * (matches.count + 1))
        w.raw("{\"current_city\":{\"id\":")
        w.string(currentCity.id)
        w.raw(",\"name\":")
        w.string(currentCity.name)
        w.raw(",\"scores\":")
        try w.scores(currentCity.scores)
        w.raw("},\"matches\":")
        if matches.isEmpty {
            w.raw("[]")
        } else {
            w.raw("[")
            for (n, m) in matches.enumerated() {
                if n > 0 { w.raw(",") }
                try m.writeJSON(to: &w)
            }
            w.raw("]")
        }
        w.raw(",\"report_id\":")
        if let reportID { w.string(reportID.rawValue) } else { w.raw("null") }
        w.raw("}")
        return w.bytes
    }
}
