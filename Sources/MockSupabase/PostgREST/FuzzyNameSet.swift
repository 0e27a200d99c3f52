import Foundation

/// The name matcher behind PostgREST's "Perhaps you meant …" hints (PGRST200, PGRST202, PGRST205):
/// the Haskell `fuzzyset` package at the version PostgREST pins (0.2.4, `Data.FuzzySet`), with
/// its defaults (`defaultSet`: gram sizes 2 and 3, Levenshtein re-scoring on).
///
/// How a lookup scores, as that package does it:
/// - a name equal to the query after lowercasing is the one answer, score 1;
/// - otherwise each name is cut into n-grams of its normalized form (lowercased, only letters,
///   digits, spaces and commas kept, so `_` is dropped; wrapped in `-`), and the names sharing a
///   gram with the query are ranked by cosine similarity of the gram-count vectors; the best 50
///   are re-scored by normalized Levenshtein similarity (`1 − distance / longer length`, on the
///   lowercased but unfiltered names) and ranked again (both sorts stable);
/// - the names scoring at least the minimum are the answer, trigrams first: bigrams are tried
///   only when trigrams give nothing.
///
/// Ties keep the set's internal order, which for the package is its items' insertion order with
/// the list added from its end (`foldr`); the order PostgREST builds its lists in comes from
/// hash maps, which this type does not reproduce: callers pass names in schema order.
package struct FuzzyNameSet: Sendable {
    /// `getOne`'s and `get`'s default minimum score.
    package static let defaultMinScore = 0.33

    private struct Item: Sendable {
        var magnitude: Double
        var entry: String
    }

    /// Lowercased name → the name as given.
    private var exact: [String: String] = [:]
    /// Per gram size, the items in insertion order.
    private var items: [Int: [Item]] = [:]
    /// A gram → (item index, count of the gram in that item).
    private var grams: [String: [(index: Int, count: Int)]] = [:]
    private let sizes = 2...3

    /// A set of the names, added as `Data.FuzzySet.fromList` adds them (last name first).
    package init(_ names: [String]) {
        for name in names.reversed() { add(name) }
    }

    private mutating func add(_ value: String) {
        let key = value.lowercased()
        // `addToSet` skips a name whose lowercased form equals a name already held (as given).
        if exact.values.contains(key) { return }
        for n in sizes {
            let vector = Self.gramVector(key, n)
            let index = items[n, default: []].count
            items[n, default: []].append(Item(magnitude: Self.norm(vector.values), entry: key))
            for (gram, count) in vector { grams[gram, default: []].append((index, count)) }
        }
        exact[key] = value
    }

    /// `Data.FuzzySet.getWithMinScore`: the matches scoring at least `minScore`, best first.
    package func get(_ value: String, minScore: Double = defaultMinScore) -> [(score: Double, name: String)] {
        let key = value.lowercased()
        if let match = exact[key] { return [(1, match)] }
        for n in sizes.reversed() {
            let found = matches(key, n, minScore)
            if !found.isEmpty { return found }
        }
        return []
    }

    /// `Data.FuzzySet.getOneWithMinScore`: the best match scoring at least `minScore`.
    package func getOne(_ value: String, minScore: Double = defaultMinScore) -> String? {
        get(value, minScore: minScore).first?.name
    }

    private func matches(_ key: String, _ n: Int, _ minScore: Double) -> [(score: Double, name: String)] {
        let query = Self.gramVector(key, n)
        let queryMagnitude = Self.norm(query.values)
        var dots: [Int: Int] = [:]
        for (gram, count) in query {
            // Grams of the other size never equal these, so the shared dictionary is per size.
            for info in grams[gram] ?? [] {
                dots[info.index, default: 0] += info.count * count
            }
        }
        guard let vector = items[n] else { return [] }
        let cosine = dots.keys.sorted().map { i in
            (score: Double(dots[i]!) / (queryMagnitude * vector[i].magnitude), entry: vector[i].entry)
        }
        let ranked = Self.stableSortedDescending(cosine)
        let rescored = ranked.prefix(50).map { (score: Self.levenshteinSimilarity(key, $0.entry), entry: $0.entry) }
        return Self.stableSortedDescending(rescored).filter { $0.score >= minScore }.map { ($0.score, exact[$0.entry] ?? "") }
    }

    private static func stableSortedDescending(_ list: [(score: Double, entry: String)]) -> [(score: Double, entry: String)] {
        list.enumerated().sorted { a, b in a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset }
            .map(\.element)
    }

    /// The package's `normalized`: lowercased, keeping letters, numbers (GHC's `isAlphaNum`),
    /// white space (`isSpace`) and commas.
    static func normalized(_ s: String) -> [Unicode.Scalar] {
        s.lowercased().unicodeScalars.filter { c in
            switch c.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber, .otherNumber:
                return true
            case .spaceSeparator: return true
            default: return c == "," || c == " " || (0x09...0x0D).contains(c.value) || c.value == 0xA0
            }
        }
    }

    /// Gram counts of the normalized string wrapped in `-`.
    static func gramVector(_ s: String, _ n: Int) -> [String: Int] {
        let chars: [Unicode.Scalar] = ["-"] + normalized(s) + ["-"]
        var out: [String: Int] = [:]
        guard chars.count >= n else { return out }
        for start in 0...(chars.count - n) {
            var gram = String.UnicodeScalarView()
            gram.append(contentsOf: chars[start..<(start + n)])
            out[String(gram), default: 0] += 1
        }
        return out
    }

    private static func norm<C: Collection>(_ counts: C) -> Double where C.Element == Int {
        Double(counts.reduce(0) { $0 + $1 * $1 }).squareRoot()
    }

    /// `Data.Text.Metrics.levenshteinNorm` over code points: 1 for equal strings.
    static func levenshteinSimilarity(_ a: String, _ b: String) -> Double {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        let longest = max(x.count, y.count)
        guard longest > 0 else { return 1 }
        var prev = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var cur = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        let distance = x.isEmpty ? y.count : prev[y.count]
        return distance == 0 ? 1 : 1 - Double(distance) / Double(longest)
    }
}
