import XCTest
@testable import ContractKit

/// `ShardedRLSTarget` gives every case its own target's outcome, in case order, whichever shard
/// ran it; a shard that does not open leaves its slices to the others.
final class ShardedRLSTargetTests: XCTestCase {
    /// Answers a case with its index in the table name (`t17` → status 17), noting which shard ran it.
    final class Numbering: RLSTarget, @unchecked Sendable {
        let lock = NSLock()
        var ran = 0
        func execute(_ c: RLSCase) throws -> RLSOutcome {
            lock.withLock { ran += 1 }
            return RLSOutcome(status: Int(c.table.dropFirst())!)
        }
    }

    func cases(_ n: Int) -> [RLSCase] {
        (0..<n).map { RLSCase(table: "t\($0)", actor: .anon, operation: .select(key: [:])) }
    }

    func testOutcomesComeBackInCaseOrderFromEveryShard() throws {
        let a = Numbering(), b = Numbering()
        let out = ShardedRLSTarget([{ a }, { b }], slice: 3).executeAll(cases(100))
        XCTAssertEqual(try out.map { try $0.get().status }, Array(0..<100))
        XCTAssertEqual(a.ran + b.ran, 100)
    }

    func testAShardThatDoesNotOpenLeavesItsSlicesToTheOthers() throws {
        let a = Numbering()
        let out = ShardedRLSTarget([{ throw RLSTargetError("no database") }, { a }], slice: 4).executeAll(cases(30))
        XCTAssertEqual(try out.map { try $0.get().status }, Array(0..<30))
        XCTAssertEqual(a.ran, 30)
    }

    func testNoShardOpeningFailsEveryCase() {
        let out = ShardedRLSTarget([{ throw RLSTargetError("no database") }, { throw RLSTargetError("no copy") }], slice: 4).executeAll(cases(10))
        XCTAssertEqual(out.count, 10)
        XCTAssertTrue(out.allSatisfy { (try? $0.get()) == nil })
    }
}
