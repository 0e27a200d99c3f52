import Foundation
@_exported import ContractModel

/// Finds the package's folders (`Contracts/`, `Golden/`): under the root bound for the current
/// task, else under this package's own checkout.
///
/// The library reads no environment variable and never looks at the current directory: the
/// `contracts` command binds `root` from `$SUPACONTRACTS_ROOT` around everything it runs
/// (`ContractsLocator.$root.withValue(url) { … }`), and so can a test or a client. Work this
/// package hands to other threads (`Concurrently`, `runBlocking`) carries the binding along;
/// a thread started elsewhere (the loopback server's) sees the default.
public enum ContractsLocator {
    /// The package root for the current task (default: `packageRoot`).
    @TaskLocal public static var root: URL = packageRoot

    /// The checkout this package was built from, found from this source file's location
    /// (Sources/ContractKit/Core/Core.swift → the package root).
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `Contracts/`.
    package static var contracts: URL { root.appendingPathComponent("Contracts") }
    /// `Contracts/<app>/`.
    public static func app(_ name: String) -> URL { contracts.appendingPathComponent(name) }
    /// `Golden/`.
    package static var golden: URL { root.appendingPathComponent("Golden") }
    /// PostgREST's error statuses, `Contracts/shared/postgrest-errors.json` (what the RLS oracle
    /// and the PostgreSQL target judge with, never the mock's own mapping).
    package static func postgrestStatuses() throws -> PostgRESTStatusTable { try .load(contracts: contracts) }
    /// GoTrue's error codes and statuses, `Contracts/shared/gotrue-errors.json`.
    package static func goTrueErrors() throws -> GoTrueErrorTable { try .load(contracts: contracts) }
}

/// An app as the gate checks it: its name, a backend serving its contracts, its models, its own
/// contract files and its reference client components.
package protocol AppModule: Sendable {
    /// The folder name under Contracts/ (`teleportme`).
    static var name: String { get }
    /// The display name (`TeleportMe`).
    static var title: String { get }
    /// A backend serving the app's contracts (`folder`: another copy of them) with the app's
    /// server-side pieces, on `clock` and `ids` (`MockBinding` builds the mock for every
    /// `ContractApp`).
    static func makeBackendUnderTest(clock: any WallClock, ids: any IDGenerator, folder: URL?) throws -> any BackendUnderTest
    /// The row model of every public table of schema.json, checked by the `models` rule kind
    /// (`ModelSuite`). Default: none.
    static var tableModels: [any TableModel.Type] { get }
    /// The models interaction steps name in `model` and `requestModel`, with the app's JSON
    /// coding (`ModelRegistry.coder`); table models are added under their type names by
    /// `ModelSuite.registry(for:)`. Default: empty, plain Foundation coders.
    static var modelRegistry: ModelRegistry { get }
    /// The app's own files in `Contracts/<app>/` beyond the common ones (`ContractFile.common`),
    /// each with the rule kind that reads it and, for `app-rules`, its checks. A file no claim
    /// names is a load error of `contracts verify`. Default: none.
    static var contractFiles: [ContractFile] { get }
    /// The app's own reference client components run through the client-rule suites that need
    /// app-specific operations (TeleportMe's services through `CacheWriteTriggerSuite`), as
    /// `contracts verify --kind client-rules` counts them. Default: none.
    static func referenceClientReports(_ rules: ClientRules) async -> [SuiteReport]
}

extension AppModule {
    package static var tableModels: [any TableModel.Type] { [] }

    package static var modelRegistry: ModelRegistry { ModelRegistry() }

    /// No files beyond the common ones.
    package static var contractFiles: [ContractFile] { [] }

    /// No app-specific client suites.
    package static func referenceClientReports(_ rules: ClientRules) async -> [SuiteReport] { [] }

    package static func spec() throws -> AppSpec { try AppSpec.load(folder: ContractsLocator.app(name)) }
}

/// The outcome of one concrete case of a rule.
package struct CaseResult: Sendable, CustomStringConvertible {
    /// The app (`naarscars`).
    package var app: String
    /// The rule kind (`rls`, `interactions`, `models`, `client-rules`, `goldens`, `postgres`).
    package var kind: String
    /// The case's trace of labels, e.g. `rides · UPDATE · as dave (claimer)`.
    package var name: String
    /// Whether the outcome matched the expectation.
    package var passed: Bool
    /// What was expected and what happened, for a failure.
    package var message: String

    package init(app: String, kind: String, name: String, passed: Bool, message: String = "") {
        self.app = app
        self.kind = kind
        self.name = name
        self.passed = passed
        self.message = message
    }

    /// `naarscars · rides · UPDATE · as dave (claimer) · expected allowed, got 0 rows`.
    package var description: String {
        "\(app) · \(name)" + (passed ? "" : " · \(message)")
    }
}

/// Thrown by a `VerifySuite` that cannot run here (a tool is missing): `contracts verify` shows
/// a row "skipped: <reason>" and passes, unless `--require KIND` makes it a failure.
package struct VerifySkip: Error, Sendable, CustomStringConvertible {
    /// Why, and how to make the kind run (`PostgreSQL … not found; apt-get install postgresql-15 or set PG_BIN`).
    package var reason: String

    package init(_ reason: String) { self.reason = reason }

    package var description: String { "skipped: \(reason)" }
}

/// A rule kind that can check every app: contributes rows to `contracts verify`.
package struct VerifySuite: Sendable {
    /// The column name in the verify table.
    package var kind: String
    /// Runs every case of this kind for one app (an empty result means the kind does not apply).
    package var run: @Sendable (_ app: any AppModule.Type) throws -> [CaseResult]

    package init(kind: String, run: @escaping @Sendable (_ app: any AppModule.Type) throws -> [CaseResult]) {
        self.kind = kind
        self.run = run
    }
}
