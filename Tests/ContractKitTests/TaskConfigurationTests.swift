import XCTest
@testable import ContractKit

/// The package's task-local configuration (`ContractsLocator.root`, `PostgresChecks.seed`)
/// follows work onto the threads `Concurrently` and `runBlocking` use: without it, a `verify`
/// pointed at another root by `$SUPACONTRACTS_ROOT` would read the bundled contracts in its
/// parallel parts.
final class TaskConfigurationTests: XCTestCase {
    let elsewhere = URL(fileURLWithPath: "/tmp/another-root")

    func testDefaultIsThePackageCheckout() {
        XCTAssertEqual(ContractsLocator.root, ContractsLocator.packageRoot)
        XCTAssertTrue(FileManager.default.fileExists(atPath: ContractsLocator.contracts.appendingPathComponent("FORMAT.md").path))
        XCTAssertEqual(PostgresChecks.seed, PostgresChecks.defaultSeed)
    }

    func testBindingFollowsConcurrentWork() throws {
        let (roots, seeds) = try ContractsLocator.$root.withValue(elsewhere) {
            try PostgresChecks.$seed.withValue(7) {
                (
                    try Concurrently<URL>.map(Array(0..<8), width: 4) { _ in ContractsLocator.root },
                    try Concurrently<UInt64>.map(Array(0..<8), width: 4) { _ in PostgresChecks.seed }
                )
            }
        }
        XCTAssertEqual(Set(roots), [elsewhere])
        XCTAssertEqual(Set(seeds), [7])
        let started = ContractsLocator.$root.withValue(elsewhere) { Concurrently { ContractsLocator.root } }
        XCTAssertEqual(try started.value(), elsewhere)
        let blocking = ContractsLocator.$root.withValue(elsewhere) { runBlocking { ContractsLocator.root } }
        XCTAssertEqual(blocking, elsewhere)
    }

    /// A mutant: handing work to a Dispatch thread without the configuration loses the binding,
    /// which is what the test above would catch.
    func testPlainDispatchLosesTheBinding() {
        let seen = ContractsLocator.$root.withValue(elsewhere) { () -> URL in
            let out = Seen()
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                out.url = ContractsLocator.root; done.signal()
            }
            done.wait()
            return out.url
        }
        XCTAssertEqual(seen, ContractsLocator.packageRoot)
    }
}

/// A value written by one thread and read after a semaphore.
private final class Seen: @unchecked Sendable { var url = URL(fileURLWithPath: "/") }
