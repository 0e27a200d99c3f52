import XCTest
@testable import MockSupabase

/// The "Perhaps you meant …" matcher against the answers PostgREST documents for it: the
/// doctests of Error.hs (`noRelBetweenHint`, `noRpcHint`) and ErrorSpec's 75% table hints.
final class FuzzyNameSetTests: XCTestCase {
    /// A matcher under test: the names, the query and the minimum score give the suggestion.
    typealias Matcher = (_ names: [String], _ query: String, _ minScore: Double) -> String?

    struct Expectation {
        var names: [String]
        var query: String
        var minScore: Double
        var suggestion: String?
    }

    static let expectations: [Expectation] = [
        // noRelBetweenHint: a parent among the tables with relationships, a child among the
        // tables the parent's relationships reach.
        Expectation(names: ["films"], query: "film", minScore: 0.33, suggestion: "films"),
        Expectation(names: ["directors", "roles", "actors"], query: "role", minScore: 0.33, suggestion: "roles"),
        Expectation(names: ["films"], query: "noclosealternative", minScore: 0.33, suggestion: nil),
        Expectation(names: ["directors", "roles", "actors"], query: "noclosealternative", minScore: 0.33, suggestion: nil),
        // noRpcHint: function names at 75%, parameter lists at 33%.
        Expectation(names: ["test", "another"], query: "testt", minScore: 0.75, suggestion: "test"),
        Expectation(names: ["test", "another"], query: "other", minScore: 0.75, suggestion: nil),
        Expectation(names: ["test", "another"], query: "noclosealternative", minScore: 0.75, suggestion: nil),
        Expectation(names: ["(name, param, val)", "(attr, id)"], query: "(nam, pqaram, vall)", minScore: 0.33, suggestion: "(name, param, val)"),
        Expectation(names: ["(name, param, val)", "(attr, id)"], query: "(param, val)", minScore: 0.33, suggestion: "(name, param, val)"),
        Expectation(names: ["(name, param, val)", "(attr, id)"], query: "(attrs, id)", minScore: 0.33, suggestion: "(attr, id)"),
        Expectation(names: ["(name, param, val)", "(attr, id)"], query: "(id)", minScore: 0.33, suggestion: "(attr, id)"),
        Expectation(names: ["(name, param, val)", "(attr, id)"], query: "(noclosealternative)", minScore: 0.33, suggestion: nil),
        // ErrorSpec: table names at 75%; QuerySpec: a partition's name (68% alike) gets none.
        Expectation(names: ["items", "projects", "clients", "tasks"], query: "projectx", minScore: 0.75, suggestion: "projects"),
        Expectation(names: ["items", "projects", "clients", "tasks"], query: "projecxx", minScore: 0.75, suggestion: "projects"),
        Expectation(names: ["items", "projects", "clients", "tasks"], query: "projxxxx", minScore: 0.75, suggestion: nil),
        Expectation(names: ["car_models", "car_model_sales", "car_brands"], query: "car_model_sales_202101", minScore: 0.75, suggestion: nil),
        Expectation(names: ["car_models", "car_model_sales", "car_brands"], query: "car_model_sales_202101", minScore: 0.33, suggestion: "car_model_sales"),
        // An exact match but for case is the answer, score 1.
        Expectation(names: ["projects"], query: "PROJECTS", minScore: 0.75, suggestion: "projects")
    ]

    /// The failures of a matcher on the expectations (empty when it answers as PostgREST does).
    static func failures(of matcher: Matcher) -> [String] {
        expectations.compactMap { e in
            let got = matcher(e.names, e.query, e.minScore)
            return got == e.suggestion ? nil : "\(e.query) in \(e.names) at \(e.minScore): \(got ?? "nil") ≠ \(e.suggestion ?? "nil")"
        }
    }

    func testMatchesPostgRESTsHints() {
        XCTAssertEqual(Self.failures { FuzzyNameSet($0).getOne($1, minScore: $2) }, [])
    }

    /// The rule the hints used before: the name at the smallest edit distance, within a third of
    /// the query's length. It suggests a partition's parent table PostgREST does not.
    func testRejectsTheEditDistanceRule() {
        let mutant: Matcher = { names, query, _ in
            let best = names.min { levenshtein($0, query) < levenshtein($1, query) }
            return best.flatMap { levenshtein($0, query) <= max(2, query.count / 3) ? $0 : nil }
        }
        XCTAssertFalse(Self.failures(of: mutant).isEmpty)
    }

    /// A matcher scoring by cosine alone (no Levenshtein re-score) is rejected too.
    func testRejectsCosineOnly() {
        let mutant: Matcher = { names, query, minScore in
            let q = FuzzyNameSet.gramVector(query.lowercased(), 3)
            func cosine(_ a: [String: Int], _ b: [String: Int]) -> Double {
                let dot = a.reduce(0) { $0 + $1.value * (b[$1.key] ?? 0) }
                let na = Double(a.values.reduce(0) { $0 + $1 * $1 }).squareRoot(), nb = Double(b.values.reduce(0) { $0 + $1 * $1 }).squareRoot()
                return Double(dot) / (na * nb)
            }
            let scored = names.map { ($0, cosine(q, FuzzyNameSet.gramVector($0.lowercased(), 3))) }.filter { $0.1 >= minScore }
            return scored.max { $0.1 < $1.1 }?.0
        }
        XCTAssertFalse(Self.failures(of: mutant).isEmpty)
    }

    func testNormalizationDropsPunctuationButKeepsCommas() {
        XCTAssertEqual(String(String.UnicodeScalarView(FuzzyNameSet.normalized("Has_Count, Column!"))), "hascount, column")
        XCTAssertEqual(FuzzyNameSet.gramVector("xxxx", 2), ["-x": 1, "xx": 3, "x-": 1])
    }

    /// `get` keeps the order of its scores, best first, and leaves out an exact match but for
    /// case only through its score of 1 (the relationship hint skips such a child).
    func testGetListsBestFirst() {
        let set = FuzzyNameSet(["roles", "rolls", "actors"])
        XCTAssertEqual(set.get("role").map(\.name), ["roles", "rolls"])
        XCTAssertEqual(set.get("Roles").map(\.score), [1])
    }
}
