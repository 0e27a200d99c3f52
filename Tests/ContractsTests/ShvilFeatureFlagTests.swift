import XCTest
import MockBinding
import MockSupabase
@testable import Shvil

/// A resolver answering from a table, for mutants.
struct ShvilFlagMatrix: FeatureFlagResolving {
    var on: (Feature, AppEnvironment) -> Bool
    func isEnabled(_ feature: Feature, in environment: AppEnvironment) -> Bool { on(feature, environment) }
}

/// The gate: feature flags per environment (§Feature Flag System) as flags.json decides them.
final class ShvilFeatureFlagTests: GateTestCase {
    func testShippedResolverAndFixtureRowsConform() throws {
        let config = try FeatureFlagConfig.load()
        XCTAssertEqual(ShvilFeatureFlagConformance.violations(of: config, config: config), [])
        let backend = try ShvilApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 5))
        let rows = try backend.database.rows("feature_flags", as: .anon).map { try PostgresRowCoding.decode(FeatureFlagRow.self, from: .object($0)) }
        XCTAssertEqual(rows.count, Feature.allCases.count * AppEnvironment.allCases.count, "anon reads every flag row")
        XCTAssertEqual(ShvilFeatureFlagConformance.violations(of: FeatureFlagTable(rows: rows), config: config), [])
    }

    func testMVPDisabledFlagsAreOffOutsideDevelopment() throws {
        let config = try FeatureFlagConfig.load()
        for f in [Feature.socialSharing, .huntMode] {
            XCTAssertEqual(config.flag(f)?.mvpDisabled, true, "\(f) is DISABLED for MVP in the document")
            XCTAssertFalse(config.isEnabled(f, in: .production))
            XCTAssertFalse(config.isEnabled(f, in: .staging))
        }
    }

    /// Mutants: beta in production; an MVP-disabled flag in staging; development missing a flag;
    /// everything on everywhere.
    func testMutantResolversAreRejected() throws {
        let config = try FeatureFlagConfig.load()
        let mutants: [(String, ShvilFlagMatrix)] = [
            ("beta in production", ShvilFlagMatrix { f, e in config.isEnabled(f, in: e) || (e == .production && config.flag(f)?.stage == .beta) }),
            ("hunt mode in staging", ShvilFlagMatrix { f, e in config.isEnabled(f, in: e) || (e == .staging && f == .huntMode) }),
            ("voice guide off in development", ShvilFlagMatrix { f, e in config.isEnabled(f, in: e) && !(e == .development && f == .voiceGuide) }),
            ("all on", ShvilFlagMatrix { _, _ in true })
        ]
        for (name, m) in mutants {
            XCTAssertFalse(ShvilFeatureFlagConformance.violations(of: m, config: config).isEmpty, "mutant '\(name)' passed")
        }
    }

    /// Mutant data: a flags.json enabling beta flags in production breaks the document's rule.
    func testMutantFlagsFileIsRejectedByTheDocumentInvariants() throws {
        var config = try FeatureFlagConfig.load()
        config.stagesEnabled[.production] = [.stable, .beta]
        let v = ShvilFeatureFlagConformance.violations(of: config, config: config)
        XCTAssertTrue(v.contains { $0.contains("on in production ('stable features only')") }, "\(v)")
    }

    func testBadFlagsFileNamesFileAndPath() throws {
        let bad = try JSONValue.parse(
            #"{"environments":["development","staging","production"],"stagesEnabled":{"development":[],"staging":[],"production":[]},"mvpDisabledEnabledIn":[],"flags":[{"key":"teleport","case":"teleport","stage":"beta","mvpDisabled":false}]}"#
        )
        XCTAssertThrowsError(try SpecNode(value: bad, file: "Contracts/shvil/flags.json").decode(FeatureFlagConfig.self)) { e in
            XCTAssertEqual("\(e)", "Contracts/shvil/flags.json: $.flags[0].key: 'teleport' is not a case of Feature")
        }
        guard case .object(var o) = try JSONValue.parse(Data(contentsOf: ContractsLocator.app("shvil").appendingPathComponent("flags.json"))) else {
            return XCTFail()
        }
        o["flag"] = []
        let typo = JSONValue.object(o)
        XCTAssertThrowsError(try SpecNode(value: typo, file: "f.json").decode(FeatureFlagConfig.self)) { e in
            XCTAssertTrue("\(e)".hasPrefix("f.json: $.flag: unknown key 'flag'"), "\(e)")
        }
    }
}
