import Foundation
import MockBinding

/// The gate's expensive work other than PostgreSQL's (`PostgresGate.startWarmUp`), started on a
/// thread of its own with the first gate test: XCTest runs one test at a time, so the image
/// compressor's reports, the served mocks' live runs, the RLS reports, the RLS mutants' runs and the last suites' report
/// comparisons, source-trace mutation, golden mutants and property rounds — each computed once
/// per process and checked by its own suite — are made meanwhile, while the suites before
/// theirs run. A suite reaching a value still being made waits for it (a `static let` or a
/// `ProcessMemo`: computed once, whoever asks first); a value that failed is kept as that
/// suite's `Result`, so the test that reads it fails with its error, never the warm-up.
///
/// The jobs run on two threads of the warm-up's own (never on Dispatch workers: the jobs fan
/// out through `Concurrently.map` and `SideBySide.map`, which must not wait on the pool they
/// run in): one for the work that computes, one for the crash rounds, which mostly wait for
/// the writer processes they kill.
enum GateWarmUp {
    /// One suite's work, in the order XCTest runs the suites (by name).
    struct Job: Sendable {
        var suite: String
        var lane: Lane = .computing
        var run: @Sendable () -> Void
    }

    /// The thread a job runs on.
    enum Lane: CaseIterable { case computing, waiting }

    /// The jobs, in suite order; the last suites' after the others, which are needed sooner.
    static let jobs: [Job] = [
        Job(suite: "ClientRulesCrashTests", lane: .waiting) {
            _ = ClientRulesCrashTests.referenceOutcome
            _ = ClientRulesCrashTests.inPlaceOutcome
        },
        Job(suite: "ClientRulesImageCompressorTests") { _ = ClientRulesImageCompressorTests.reports },
        Job(suite: "LiveClientRulesGateTests") { _ = LiveClientRulesGateTests.runs },
        Job(suite: "LiveRestoreGateTests") { _ = LiveRestoreGateTests.runs },
        Job(suite: "LiveTargetGateTests") {
            _ = LiveTargetGateTests.everyAppRuns
            _ = LiveTargetGateTests.mutantRuns
        },
        Job(suite: "RLSMatrixGoldenTests") { for app in RLSGate.appsWithMatrix() { _ = try? RLSGate.report(app) } },
        Job(suite: "RLSMutantTests") { _ = RLSMutantTests.counts },
        // The suites XCTest runs last, which would otherwise leave the second core idle.
        Job(suite: "RLSExpansionClockTests") { _ = RLSExpansionClockTests.teleportMe },
        Job(suite: "ReportJSONTests") { _ = ReportJSONTests.everyCity },
        Job(suite: "SourceTraceContractsTests") { _ = SourceTraceContractsTests.civicForgePhotoMutation },
        Job(suite: "TeleportMeGoldenTests") { _ = TeleportMeGoldenTests.changedDecisions },
        Job(suite: "TeleportMePropertyTests") {
            _ = TeleportMePropertyTests.realUrbanAreas
            _ = TeleportMePropertyTests.synthetic
            _ = TeleportMePropertyTests.extreme
        }
    ]

    /// Starts the warm-up, once per process, for the suites the process runs (the tests named on
    /// its command line as `swift test --filter` names them; none named: all). Nothing starts when
    /// the process runs none of them.
    static func start(specs: LoadedSpecs) {
        guard started.claim() else { return }
        let named = CommandLine.arguments.dropFirst().filter { !$0.hasPrefix("-") && !$0.hasSuffix(".xctest") }
            .flatMap { $0.split(separator: ",") }.map { String($0.split(separator: "/")[0].split(separator: ".").last ?? "") }
        let planned = jobs.filter { job in named.isEmpty || named.contains(job.suite) }
        for lane in Lane.allCases {
            let mine = planned.filter { $0.lane == lane }
            guard !mine.isEmpty else { continue }
            let thread = Thread {
                LoadedSpecs.$current.withValue(specs) { for job in mine { job.run() } }
            }
            thread.stackSize = 8 << 20 // as the served mock's threads: JSON and filters recurse
            thread.start()
        }
    }

    /// Once the warm-up has been claimed.
    private static let started = PostgresGate.OnceFlag()
}
