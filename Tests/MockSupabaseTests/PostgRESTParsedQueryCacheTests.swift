import XCTest
@testable import MockSupabase

/// The parsed-query cache answers exactly what a fresh parse answers, keeps no failure, and never
/// confuses two different query strings.
final class PostgRESTParsedQueryCacheTests: XCTestCase {
    func testKeysSeparateEverySplitOfTheSameCharacters() {
        let a = ParsedQueryCache.key([("a", "b1:c")], forRPC: false)
        let b = ParsedQueryCache.key([("a", "b"), ("1:c", "")], forRPC: false)
        let c = ParsedQueryCache.key([("a", "b1:c")], forRPC: true)
        XCTAssertEqual(Set([a, b, c]).count, 3)
    }

    func testAHitEqualsAFreshParse() throws {
        let cache = ParsedQueryCache()
        let items: [(name: String, value: String)] = [("select", "id,name"), ("or", "(a.eq.1,b.in.(\"x,y\",z))"), ("order", "id.desc"), ("limit", "3")]
        let fresh = try QueryParser.parse(items)
        for _ in 0..<2 {
            let q = try cache.parse(items)
            XCTAssertEqual(q.select, fresh.select)
            XCTAssertEqual(q.filter, fresh.filter)
            XCTAssertEqual(q.order, fresh.order)
            XCTAssertEqual(q.limit, fresh.limit)
        }
        // Another query must not be answered from the first one's entry.
        XCTAssertEqual(try cache.parse([("select", "id")]).select, try QueryParser.parse([("select", "id")]).select)
    }

    func testFailuresAreNotKeptAndFailAgain() {
        let cache = ParsedQueryCache()
        for _ in 0..<2 { XCTAssertThrowsError(try cache.parse([("id", "eq")])) }
    }

    func testAFullCacheIsEmptiedNotOverrun() throws {
        let cache = ParsedQueryCache(capacity: 2)
        for i in 0..<5 {
            XCTAssertEqual(try cache.parse([("id", "eq.\(i)")]).filter, try QueryParser.parse([("id", "eq.\(i)")]).filter)
        }
    }
}
