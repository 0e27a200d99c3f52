import Foundation
import MockBinding

/// A candidate as the refiner sees it (§4.6 step 6: "top 8 with scores").
package struct RefinerCandidate: Codable, Sendable, Equatable {
    /// City id: the only ids the refiner may answer with.
    package var cityID: String
    package var cityName: String
    package var cityCountry: String
    /// The algorithmic match percent.
    package var matchPercent: Int
    /// All the city's scores.
    package var scores: [String: Double]

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case cityID = "city_id", cityName = "city_name", cityCountry = "city_country", matchPercent = "match_percent", scores
    }
}

/// What the refiner is asked (§4.6 step 6): the user's preferences, the current city and the
/// top candidates in algorithmic order.
package struct RefinerRequest: Sendable, Equatable {
    package var currentCity: ReportCity
    /// The sliders.
    package var preferences: ReportPreferences
    /// The top candidates, best first.
    package var candidates: [RefinerCandidate]
    /// Fewest picks wanted.
    package var minPicks: Int
    /// Most picks wanted.
    package var maxPicks: Int
}

/// The GPT-4o-mini step of §4.6 (step 6): picks 3-5 of the candidates and writes one sentence
/// per city. Returns the model's raw text; the engine parses and validates it (step 7) and falls
/// back (step 8) when this throws or the text is unusable.
package protocol Refiner: Sendable {
    /// The raw reply for a request.
    func refine(_ request: RefinerRequest) throws -> String
}

/// A refiner failure (network, timeout, API error).
package struct RefinerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong.
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

/// A refiner that answers a fixed text, for tests and golden cases.
package struct FixedRefiner: Refiner {
    package var reply: String
    /// A refiner answering `reply`.
    package init(reply: String) { self.reply = reply }
    package func refine(_ request: RefinerRequest) throws -> String { reply }
}

/// A refiner that always fails (an OpenAI outage).
package struct FailingRefiner: Refiner {
    /// The failure.
    package var error: RefinerError
    /// A refiner throwing `message`.
    package init(_ message: String) { error = RefinerError(message) }
    package func refine(_ request: RefinerRequest) throws -> String { throw error }
}

/// The mock's deterministic stand-in for GPT-4o-mini, driven by `report.json`'s `mockRefiner`:
/// picks the candidates within `closeToBest` points of the best (at least `min`, at most `max`,
/// in candidate order), writes one sentence per pick about the user's top-weighted primary
/// category, and answers JSON in a Markdown code fence as GPT-4o-mini usually does.
package struct DeterministicRefiner: Refiner {
    /// The rules (primary categories, mockRefiner, comparison decimals).
    package let rules: ReportRules

    /// A refiner for these rules.
    package init(rules: ReportRules) { self.rules = rules }

    package func refine(_ request: RefinerRequest) throws -> String {
        let m = rules.mockRefiner
        let cands = request.candidates
        guard let best = cands.first?.matchPercent else { return "```json\n{\"matches\": []}\n```" }
        var count = cands.prefix { Double(best - $0.matchPercent) <= m.closeToBest }.count
        count = min(max(count, m.min), m.max, cands.count)
        // The user's top priority: the highest weight, ties in the order of `primary`.
        var top = rules.primary[0]
        for p in rules.primary where (request.preferences.weight(p.preference) ?? 0) > (request.preferences.weight(top.preference) ?? 0) {
            top = p
        }
        func fmt(_ v: Double?) -> String {
            guard let v else { return "n/a" }
            return JSONValue.formatDouble(rules.rounding.apply(v, decimals: rules.comparisonDecimals))
        }
        var picks: [JSONValue] = []
        for c in cands.prefix(count) {
            let insight = Template.render(
                m.insightTemplate,
                [
                    "city_name": c.cityName, "top_category": top.category, "top_score": fmt(c.scores[top.category]),
                    "current_top_score": fmt(request.currentCity.scores[top.category]),
                    "current_city_name": request.currentCity.name
                ])
            picks.append(["city_id": .string(c.cityID), "insight": .string(insight)])
        }
        let summary = Template.render(
            m.summaryTemplate,
            [
                "first_city_name": cands[0].cityName, "current_city_name": request.currentCity.name
            ])
        let body: JSONValue = ["matches": .array(picks), "summary": .string(summary)]
        return "```json\n" + body.serialized(.pretty) + "\n```"
    }
}
