import Foundation
import MockBinding

/// A city as the report engine sees it: identity, display fields and its scores by category
/// (categories without a finite score are absent).
package struct ReportCity: Sendable, Equatable {
    /// Slug.
    package var id: String
    package var name: String
    package var fullName: String
    package var country: String
    package var imageURL: String?
    /// Scores by category (0-10).
    package var scores: [String: Double]

    /// A city; non-finite scores are dropped.
    package init(id: String, name: String, fullName: String, country: String, imageURL: String? = nil, scores: [String: Double]) {
        self.id = id; self.name = name; self.fullName = fullName; self.country = country; self.imageURL = imageURL
        self.scores = scores.filter { $0.value.isFinite }
    }

    /// A city from its `cities` row and its `city_scores` rows (NULL scores are absent).
    package init(city: City, scores: [CityScore]) {
        var s: [String: Double] = [:]
        for r in scores where r.cityID == city.id { if let v = r.score { s[r.category] = v } }
        self.init(id: city.id, name: city.name, fullName: city.fullName, country: city.country, imageURL: city.imageURL, scores: s)
    }
}

/// A catalog prepared for scoring under a set of rules: the preference-independent parts of
/// every city's score are computed once, so a report over 100k cities costs one pass.
package struct ReportCatalog: Sendable {
    package let cities: [ReportCity]
    /// Primary category scores, `primary.count` per city, missing ones replaced.
    let primaryValues: [Double]
    /// Σ bonusWeight * score * 10 per city.
    let bonusParts: [Double]
    let index: [String: Int]

    /// Prepares `cities` for `rules`.
    package init(cities: [ReportCity], rules: ReportRules) {
        self.cities = cities
        var pv: [Double] = []
        pv.reserveCapacity(cities.count * rules.primary.count)
        var bp: [Double] = []
        bp.reserveCapacity(cities.count)
        var idx: [String: Int] = [:]
        idx.reserveCapacity(cities.count)
        for (i, c) in cities.enumerated() {
            for p in rules.primary { pv.append(c.scores[p.category] ?? rules.missingScore) }
            var b = 0.0
            for cat in rules.bonusCategories { b += rules.bonusWeight * ((c.scores[cat] ?? rules.missingScore) / 10 * 100) }
            bp.append(b)
            if idx[c.id] == nil { idx[c.id] = i }
        }
        primaryValues = pv
        bonusParts = bp
        index = idx
    }

    package func city(_ id: String) -> ReportCity? { index[id].map { cities[$0] } }
}

/// A request the engine refuses (the edge function answers 400).
package enum ReportInputError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A preference outside the allowed range or not finite.
    case preferenceOutOfRange(key: String, value: Double, min: Double, max: Double)
    /// The current city is not in the catalog.
    case unknownCity(String)

    package var description: String {
        switch self {
        case .preferenceOutOfRange(let k, let v, let lo, let hi):
            return "preferences.\(k) must be a number from \(JSONValue.formatDouble(lo)) to \(JSONValue.formatDouble(hi)), got \(JSONValue.formatDouble(v))"
        case .unknownCity(let id): return "unknown city '\(id)'"
        }
    }
}

/// A scored candidate (§4.6 steps 4-5).
package struct ScoredCandidate: Sendable, Equatable {
    package var cityID: String
    /// The score before clamping and rounding.
    package var rawScore: Double
    /// The clamped, rounded score.
    package var matchPercent: Int
}

/// A refiner pick the engine dropped, and why (§4.6 step 7).
package struct DroppedPick: Sendable, Equatable {
    /// The entry's city id, or its JSON when it had none.
    package var entry: String
    /// Why it was dropped.
    package var reason: String
}

/// Why the engine used the algorithmic fallback (§4.6 step 8).
package enum FallbackReason: Sendable, Equatable, CustomStringConvertible {
    case refinerFailed(String)
    /// The reply was not the expected JSON.
    case unparseable(String)
    /// Fewer valid picks than required.
    case tooFewValidPicks(valid: Int, required: Int)

    package var description: String {
        switch self {
        case .refinerFailed(let m): return "refiner failed: \(m)"
        case .unparseable(let m): return "reply unusable: \(m)"
        case .tooFewValidPicks(let v, let r): return "\(v) valid picks, at least \(r) required"
        }
    }
}

/// How the matches were chosen.
package enum Refinement: Sendable, Equatable {
    /// The refiner's picks were used.
    case refined
    /// The top algorithmic picks were used.
    case fallback(FallbackReason)
}

/// Everything a report run decided: the §4.6 response (without `report_id`, which only saving
/// assigns) plus what led to it.
package struct ReportOutcome: Sendable, Equatable {
    /// The response body (report_id nil).
    package var response: GenerateReportResponse
    /// The candidates sent to the refiner, best first.
    package var candidates: [ScoredCandidate]
    /// Refined or fallback, and why.
    package var refinement: Refinement
    package var dropped: [DroppedPick]
    /// The summary for `city_reports.ai_summary` (nil on fallback).
    package var aiSummary: String?
}

/// The report algorithm of §4.6 as a pure function of (current city, preferences, catalog,
/// refiner) under `ReportRules`. Steps 1 (authenticate), 2-3 (fetch) and 10 (save) are the edge
/// function's (`TeleportMeApp`); this does step 3's exclusion and steps 4-9 and 11.
package struct ReportEngine: Sendable {
    package let rules: ReportRules

    /// An engine for `rules`.
    package init(rules: ReportRules) { self.rules = rules }

    /// Checks every preference is finite and within the allowed range.
    package func validate(_ p: ReportPreferences) throws {
        for key in rules.preferenceKeys {
            let v = p.weight(key) ?? .nan
            if !v.isFinite || v < rules.preferenceMin || v > rules.preferenceMax {
                throw ReportInputError.preferenceOutOfRange(key: key, value: v, min: rules.preferenceMin, max: rules.preferenceMax)
            }
        }
    }

    /// The primary weights (pref/10) in the order of `rules.primary`.
    func weights(_ p: ReportPreferences) -> [Double] {
        rules.primary.map { (p.weight($0.preference) ?? 0) / 10 }
    }

    /// Step 4 before clamping: the weighted primary part and the bonus, combined.
    func rawScore(primaryValues pv: UnsafeBufferPointer<Double>, offset: Int, bonus: Double, weights w: [Double], weightSum: Double) -> Double {
        var primary = 0.0
        let n = w.count
        switch rules.normalisation {
        case .weightedMean:
            if weightSum > 0 {
                for k in 0..<n { primary += w[k] * (pv[offset + k] / 10) * 100 }
                primary /= weightSum
            } else if rules.zeroWeights == .equal {
                for k in 0..<n { primary += (pv[offset + k] / 10) * 100 }
                primary /= Double(n)
            }
        case .maxPossible:
            for k in 0..<n { primary += w[k] * (pv[offset + k] / 10) * 100 }
            primary /= Double(n)
        }
        switch rules.bonusFormula {
        case .blend: return (1 - Double(rules.bonusCategories.count) * rules.bonusWeight) * primary + bonus
        case .additive: return primary + bonus
        }
    }

    /// Clamp, then round (step 4's 40-99%).
    package func matchPercent(_ raw: Double) -> Int {
        Int(rules.rounding.apply(min(max(raw, rules.clampMin), rules.clampMax)))
    }

    /// The raw score of one city (for tests and reports).
    package func rawScore(of city: ReportCity, preferences: ReportPreferences) -> Double {
        let catalog = ReportCatalog(cities: [city], rules: rules)
        let w = weights(preferences)
        return catalog.primaryValues.withUnsafeBufferPointer { pv in
            rawScore(primaryValues: pv, offset: 0, bonus: catalog.bonusParts[0], weights: w, weightSum: w.reduce(0, +))
        }
    }

    /// Steps 3-5: every catalog city except the current one, scored; the best `top` in rank order.
    package func topCandidates(current: String, preferences: ReportPreferences, catalog: ReportCatalog, top: Int? = nil) -> [ScoredCandidate] {
        let k = top ?? rules.topCandidates
        let w = weights(preferences)
        let wsum = w.reduce(0, +)
        let n = rules.primary.count
        let byPercent = rules.sortBy == .matchPercent
        let ascendingIDs = rules.tieBreak == .cityIdAscending
        // Best-first list of at most k (index, key); a candidate enters when it beats the worst.
        var best: [(i: Int, key: Double, raw: Double)] = []
        best.reserveCapacity(k + 1)
        func beats(_ a: (i: Int, key: Double, raw: Double), _ b: (i: Int, key: Double, raw: Double)) -> Bool {
            if a.key != b.key { return a.key > b.key }
            let x = catalog.cities[a.i].id.utf8, y = catalog.cities[b.i].id.utf8
            return ascendingIDs ? x.lexicographicallyPrecedes(y) : y.lexicographicallyPrecedes(x)
        }
        // The current city is excluded by index: the hot loop touches only the score arrays.
        let currentIndex = catalog.index[current] ?? -1
        let duplicates = catalog.index.count != catalog.cities.count
        catalog.primaryValues.withUnsafeBufferPointer { pv in
            for i in 0..<catalog.bonusParts.count {
                if k == 0 || i == currentIndex || (duplicates && catalog.cities[i].id == current) { continue }
                let raw = rawScore(primaryValues: pv, offset: i * n, bonus: catalog.bonusParts[i], weights: w, weightSum: wsum)
                let cand = (i: i, key: byPercent ? Double(matchPercent(raw)) : raw, raw: raw)
                if best.count == k, !beats(cand, best[k - 1]) { continue }
                var pos = best.count
                while pos > 0 && beats(cand, best[pos - 1]) { pos -= 1 }
                best.insert(cand, at: pos)
                if best.count > k { best.removeLast() }
            }
        }
        return best.map { ScoredCandidate(cityID: catalog.cities[$0.i].id, rawScore: $0.raw, matchPercent: matchPercent($0.raw)) }
    }

    /// The whole report for a current city given by id (it must be in the catalog).
    package func generate(currentCityID: String, preferences: ReportPreferences, catalog: ReportCatalog, refiner: any Refiner) throws -> ReportOutcome {
        guard let current = catalog.city(currentCityID) else { throw ReportInputError.unknownCity(currentCityID) }
        return try generate(current: current, preferences: preferences, catalog: catalog, refiner: refiner)
    }

    /// Convenience: prepares the catalog and runs the report.
    package func generate(current: ReportCity, preferences: ReportPreferences, catalog: [ReportCity], refiner: any Refiner) throws -> ReportOutcome {
        try generate(current: current, preferences: preferences, catalog: ReportCatalog(cities: catalog, rules: rules), refiner: refiner)
    }

    /// Steps 3-9 and 11 of §4.6. Throws only `ReportInputError` for out-of-range preferences; a
    /// failing or misbehaving refiner leads to the fallback, never to an error.
    package func generate(current: ReportCity, preferences: ReportPreferences, catalog: ReportCatalog, refiner: any Refiner) throws -> ReportOutcome {
        try validate(preferences)
        let cands = topCandidates(current: current.id, preferences: preferences, catalog: catalog)
        let refinerCands = cands.map { c -> RefinerCandidate in
            let city = catalog.city(c.cityID)!
            return RefinerCandidate(cityID: city.id, cityName: city.name, cityCountry: city.country, matchPercent: c.matchPercent, scores: city.scores)
        }
        let request = RefinerRequest(
            currentCity: current, preferences: preferences, candidates: refinerCands,
            minPicks: rules.refinedMin, maxPicks: rules.refinedMax)
        // Steps 6-8.
        var refinement = Refinement.refined
        var picks: [(candidate: Int, insight: String)] = []
        var dropped: [DroppedPick] = []
        var summary: String?
        do {
            let reply = try refiner.refine(request)
            let parsed = parse(reply, pool: cands)
            switch parsed {
            case .failure(let reason):
                refinement = .fallback(reason)
            case .success(let r):
                dropped = r.dropped
                if r.picks.count < rules.refinedMin {
                    refinement = .fallback(.tooFewValidPicks(valid: r.picks.count, required: rules.refinedMin))
                } else {
                    picks = r.picks
                    summary = r.summary
                }
            }
        } catch {
            refinement = .fallback(.refinerFailed("\(error)"))
        }
        if case .fallback = refinement {
            summary = nil
            picks = cands.prefix(rules.fallbackCount).enumerated().map { i, c in
                (i, genericInsight(catalog.city(c.cityID)!, c.matchPercent))
            }
        } else if rules.rankOrder == .score {
            picks.sort { $0.candidate < $1.candidate }
        }
        // Step 9 and the response (step 11).
        let matches = picks.enumerated().map { rank, pick -> CityMatch in
            let c = cands[pick.candidate]
            let city = catalog.city(c.cityID)!
            return CityMatch(
                cityID: city.id, cityName: city.name, cityFullName: city.fullName, cityCountry: city.country,
                cityImageURL: city.imageURL, matchPercent: c.matchPercent, rank: rank + 1,
                comparison: comparison(city, current), aiInsight: pick.insight, scores: city.scores)
        }
        let response = GenerateReportResponse(
            reportID: nil, currentCity: ReportCurrentCity(id: current.id, name: current.name, scores: current.scores), matches: matches)
        return ReportOutcome(response: response, candidates: cands, refinement: refinement, dropped: dropped, aiSummary: summary)
    }

    struct ParsedReply {
        var picks: [(candidate: Int, insight: String)]
        var dropped: [DroppedPick]
        var summary: String?
    }

    enum ParseResult {
        case success(ParsedReply)
        case failure(FallbackReason)
    }

    /// Step 7: parse the reply and keep the valid picks (in the pool, first mention, non-empty
    /// insight), at most `refinedMax`.
    func parse(_ reply: String, pool: [ScoredCandidate]) -> ParseResult {
        var text = reply.trimmingCharacters(in: .whitespacesAndNewlines)
        if rules.stripCodeFences, text.hasPrefix("```"), text.hasSuffix("```"), text.count >= 6 {
            // The fence, then its info string (`json`), if any.
            text = String(text.dropFirst(3).dropLast(3).drop { $0.isLetter || $0.isNumber })
            text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let json: JSONValue
        do { json = try JSONValue.parse(text) } catch {
            return .failure(.unparseable("not JSON (\(error))"))
        }
        guard case .object(let obj) = json else { return .failure(.unparseable("expected a JSON object, found \(json.typeName)")) }
        guard case .array(let entries)? = obj["matches"] else {
            return .failure(.unparseable("no 'matches' array"))
        }
        let poolIndex = Dictionary(pool.enumerated().map { ($1.cityID, $0) }, uniquingKeysWith: { a, _ in a })
        var out = ParsedReply(picks: [], dropped: [], summary: nil)
        var seen = Set<String>()
        for e in entries {
            guard case .object(let o) = e else { out.dropped.append(DroppedPick(entry: e.serialized(), reason: "not an object")); continue }
            guard let id = o["city_id"]?.stringValue else {
                out.dropped.append(DroppedPick(entry: e.serialized(), reason: "city_id is not a string")); continue
            }
            guard let ci = poolIndex[id] else { out.dropped.append(DroppedPick(entry: id, reason: "not in the candidate pool")); continue }
            if seen.contains(id) { out.dropped.append(DroppedPick(entry: id, reason: "duplicate")); continue }
            guard let insight = o["insight"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !insight.isEmpty else {
                out.dropped.append(DroppedPick(entry: id, reason: "no insight")); continue
            }
            if out.picks.count >= rules.refinedMax { out.dropped.append(DroppedPick(entry: id, reason: "beyond the \(rules.refinedMax) kept")); continue }
            seen.insert(id)
            out.picks.append((ci, insight))
        }
        if let s = obj["summary"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty { out.summary = s }
        return .success(out)
    }

    /// Step 8's generic insight.
    func genericInsight(_ city: ReportCity, _ percent: Int) -> String {
        var strongest = rules.primary[0].category
        var strongestScore = city.scores[strongest] ?? rules.missingScore
        for p in rules.primary.dropFirst() {
            let v = city.scores[p.category] ?? rules.missingScore
            if v > strongestScore { strongest = p.category; strongestScore = v }
        }
        return Template.render(
            rules.fallbackInsightTemplate,
            [
                "city_name": city.name, "match_percent": String(percent), "strongest_category": strongest,
                "strongest_score": JSONValue.formatDouble(rules.rounding.apply(strongestScore, decimals: rules.comparisonDecimals))
            ])
    }

    /// Step 9: the display categories both cities have a score for.
    func comparison(_ match: ReportCity, _ current: ReportCity) -> [String: ComparisonEntry] {
        var out: [String: ComparisonEntry] = [:]
        let d = rules.comparisonDecimals
        for disp in rules.comparison {
            guard let m = match.scores[disp.category], let c = current.scores[disp.category] else { continue }
            let mr = rules.rounding.apply(m, decimals: d), cr = rules.rounding.apply(c, decimals: d)
            out[disp.category] = ComparisonEntry(matchScore: mr, currentScore: cr, delta: rules.rounding.apply(mr - cr, decimals: d))
        }
        return out
    }
}
