import XCTest
@testable import ContractKit

/// `LoadedSpecs`: while bound, each folder's spec is decoded once and shared (by every thread
/// `Concurrently` hands work to); a load that fails is never kept; unbound, every load decodes.
final class LoadedSpecsTests: XCTestCase {
    let folder = URL(fileURLWithPath: "/tmp/loaded-specs-test/app")

    func testBoundLoadsDecodeOncePerFolderAndKind() throws {
        let specs = LoadedSpecs()
        let calls = Counter()
        let values = try LoadedSpecs.$current.withValue(specs) {
            try Concurrently<Int>.map(Array(0..<8), width: 4) { _ in
                LoadedSpecs.value("spec", folder: self.folder) { calls.add() }
            }
        }
        XCTAssertEqual(Set(values), [values[0]], "every load sees the first decoded value")
        XCTAssertLessThanOrEqual(calls.count, 4, "at most one decode per worker racing the first")
        let again = calls.count
        XCTAssertEqual(LoadedSpecs.$current.withValue(specs) { LoadedSpecs.value("spec", folder: folder) { calls.add() } }, values[0])
        XCTAssertEqual(calls.count, again, "a later load decodes nothing")
        _ = LoadedSpecs.$current.withValue(specs) { LoadedSpecs.value("realtime", folder: folder) { calls.add() } }
        _ = LoadedSpecs.$current.withValue(specs) { LoadedSpecs.value("spec", folder: folder.appendingPathComponent("../other")) { calls.add() } }
        XCTAssertEqual(calls.count, again + 2, "another kind or folder is decoded on its own")
    }

    func testAFailedLoadIsNotKept() {
        let specs = LoadedSpecs()
        let calls = Counter()
        for _ in 0..<2 {
            XCTAssertThrowsError(
                try LoadedSpecs.$current.withValue(specs) {
                    try LoadedSpecs.value("spec", folder: folder) { () throws -> Int in
                        _ = calls.add()
                        throw SpecError(file: "Contracts/app/schema.json", path: "$", message: "missing file")
                    }
                })
        }
        XCTAssertEqual(calls.count, 2)
    }

    /// The mutant a shared cache would be: unbound, nothing is kept between loads.
    func testUnboundLoadsAlwaysDecode() {
        let calls = Counter()
        XCTAssertNil(LoadedSpecs.current)
        _ = LoadedSpecs.value("spec", folder: folder) { calls.add() }
        _ = LoadedSpecs.value("spec", folder: folder) { calls.add() }
        XCTAssertEqual(calls.count, 2)
    }

    /// The checks above as one function of a memo, so mutants can be run through them.
    static func problems(_ value: (String, URL, () throws -> Int) throws -> Int) -> [String] {
        var out: [String] = []
        let folder = URL(fileURLWithPath: "/tmp/loaded-specs-test/app")
        let spec = Counter(), realtime = Counter(), broken = Counter()
        let first = try? value("spec", folder) { spec.add() }
        let second = try? value("spec", folder) { spec.add() }
        if first != second || spec.count != 1 { out.append("a second load decoded again") }
        _ = try? value("realtime", folder) { realtime.add() }
        if realtime.count != 1 { out.append("another kind shared the spec's value") }
        for _ in 0..<2 {
            _ = try? value("spec", folder.appendingPathComponent("../broken")) {
                _ = broken.add(); throw CocoaError(.fileReadCorruptFile)
            }
        }
        if broken.count != 2 { out.append("a failed load was kept") }
        return out
    }

    func testTheChecksRejectMutants() {
        XCTAssertEqual(
            Self.problems { kind, folder, load in try LoadedSpecs().value(kind, folder: folder, load) }, ["a second load decoded again"],
            "a fresh memo per load")
        let specs = LoadedSpecs()
        XCTAssertEqual(Self.problems { kind, folder, load in try specs.value(kind, folder: folder, load) }, [])
        // A memo keyed by folder alone, and one that keeps the failure of a load.
        let byFolder = LoadedSpecs()
        XCTAssertEqual(Self.problems { _, folder, load in try byFolder.value("any", folder: folder, load) }, ["another kind shared the spec's value"])
        let failures = FailureKeeper()
        XCTAssertEqual(Self.problems { kind, folder, load in try failures.value(kind + folder.path, load) }, ["a failed load was kept"])
    }

    /// The real specs: one `AppSpec` per folder while bound, equal to a fresh decode.
    func testAppSpecLoadSharesTheDecodedSpec() throws {
        let app = ContractsLocator.app("teleportme")
        let specs = LoadedSpecs()
        let (a, b) = try LoadedSpecs.$current.withValue(specs) { (try AppSpec.load(folder: app), try AppSpec.load(folder: app)) }
        let fresh = try AppSpec.load(folder: app)
        XCTAssertEqual(a.schema.tables.map(\.name), fresh.schema.tables.map(\.name))
        XCTAssertEqual(b.fixtures.tables.map(\.table), fresh.fixtures.tables.map(\.table))
        XCTAssertEqual(b.fixtures.tables.map(\.rows), fresh.fixtures.tables.map(\.rows))
        XCTAssertEqual(
            try LoadedSpecs.$current.withValue(specs) { try RealtimePublication.load(folder: app) }, try RealtimePublication.load(folder: app))
    }
}

/// Counts calls from any thread; `add` returns the new count.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    var count: Int { lock.withLock { n } }
    func add() -> Int {
        lock.withLock {
            n += 1; return n
        }
    }
}

/// A mutant memo that keeps a failed load's error as well as values.
private final class FailureKeeper: @unchecked Sendable {
    private var kept: [String: Result<Int, any Error>] = [:]
    func value(_ key: String, _ load: () throws -> Int) throws -> Int {
        if let r = kept[key] { return try r.get() }
        let r = Result { try load() }
        kept[key] = r
        return try r.get()
    }
}
