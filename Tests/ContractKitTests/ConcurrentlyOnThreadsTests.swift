import XCTest
@testable import ContractKit

/// `Concurrently.onThreads`, which runs `contracts verify`'s app × kind cells: exactly `width`
/// bodies at once whatever the core count (cells that wait on PostgreSQL leave no core idle),
/// results in order, the first error rethrown, the task-local configuration bound.
final class ConcurrentlyOnThreadsTests: XCTestCase {
    /// Three bodies that each wait (a second at most) until all three have started.
    private func allMet(_ width: Int, _ map: ([Int], Int, (Int) throws -> Bool) throws -> [Bool]) throws -> [Bool] {
        let met = NSCondition()
        var started = 0
        return try map([0, 1, 2], width) { _ in
            met.lock(); defer { met.unlock() }
            started += 1
            met.broadcast()
            let deadline = Date().addingTimeInterval(1)
            while started < 3 && met.wait(until: deadline) {}
            return started == 3
        }
    }

    func testWidthBodiesRunAtOnce() throws {
        XCTAssertEqual(try allMet(3) { try Concurrently<Bool>.onThreads($0, width: $1, $2) }, [true, true, true])
    }

    /// The mutant: Dispatch's pool (`Concurrently.map`) runs no more bodies than cores, so on
    /// two cores the third body starts only after the first two gave up.
    func testDispatchsPoolRunsNoMoreThanTheCores() throws {
        try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount > 2, "needs at most two cores to show the pool's limit")
        XCTAssertNotEqual(try allMet(3) { try Concurrently<Bool>.map($0, width: $1, $2) }, [true, true, true])
    }

    func testResultsInOrderFirstErrorRethrownConfigurationBound() throws {
        struct Odd: Error, Equatable { let n: Int }
        let elsewhere = URL(fileURLWithPath: "/tmp/another-root")
        let out = try ContractsLocator.$root.withValue(elsewhere) {
            try Concurrently<String>.onThreads(Array(0..<20), width: 3) { n in
                usleep(UInt32((20 - n) * 300))
                return "\(n) \(ContractsLocator.root.path)"
            }
        }
        XCTAssertEqual(out, (0..<20).map { "\($0) /tmp/another-root" })
        XCTAssertThrowsError(
            try Concurrently<Int>.onThreads(Array(0..<9), width: 3) { n in
                if n % 2 == 1 { throw Odd(n: n) }
                return n
            }
        ) { XCTAssertEqual($0 as? Odd, Odd(n: 1)) }
    }
}
