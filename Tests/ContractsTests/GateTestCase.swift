import MockBinding
import XCTest

/// The gate's test case: each test runs with the process's decoded contracts bound
/// (`LoadedSpecs`), so every backend the gate builds, in a test or in the suites it runs, starts
/// from each app's spec decoded once per process instead of once per backend. The bundled
/// `Contracts/` do not change while the tests run; a test that edits a copy writes it to a
/// folder of its own, loaded under its own path.
class GateTestCase: XCTestCase {
    /// The specs shared by every gate test of this process.
    static let loadedSpecs = LoadedSpecs()

    override func invokeTest() {
        // The PostgreSQL suites' cluster, databases and answers, made meanwhile on another core.
        PostgresGate.startWarmUp(specs: Self.loadedSpecs)
        // The other suites' expensive, independent work (`GateWarmUp`), on threads of its own.
        GateWarmUp.start(specs: Self.loadedSpecs)
        LoadedSpecs.$current.withValue(Self.loadedSpecs) { super.invokeTest() }
    }
}
