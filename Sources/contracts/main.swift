import Foundation
import MockBinding

// `contracts` — the command-line front of SupaContracts. Each command lives in its own file and
// declares its options in a `CommandSpec`: anything else is a usage error (exit 2) before any work.
let usage = """
    usage: contracts <command> [options]        (contracts <command> --help for every option)

    commands:
      verify     run every rule kind of every app against the embedded mock, or against your own
                 backend (--target URL, --database URL, --migrations DIR); prints app × rule kind
                 (cases, passed, failed, state); exit 1 on any failure
      serve      serve an app's mock over loopback HTTP/1.1
      goldens    compare golden files (or re-record them with --update)
      report     report rls: write the RLS matrices as Markdown and self-contained HTML
      generate-models
                 write each app's table models from schema.json and models.json (--check: exit 1 when stale)
      help       this text

    options: -h, --help (this text), --version (print the version)
    apps: \(appList) (case-insensitive)
    environment: SUPACONTRACTS_ROOT (the package root holding Contracts/); per command: contracts <command> --help
    """

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()
/// `$SUPACONTRACTS_ROOT`, else the package this binary was built from (`ContractsLocator`).
let root = ProcessInfo.processInfo.environment["SUPACONTRACTS_ROOT"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
if let bad = ProcessInfo.processInfo.environment[GoldenRecordMode.environmentKey],
    (try? GoldenRecordMode.from(environment: [GoldenRecordMode.environmentKey: bad])) == nil
{
    FileHandle.standardError.write(Data("contracts: \(GoldenError.invalidMode(bad))\n".utf8))
    exit(2)
}
/// `$SUPACONTRACTS_SEED` for the postgres kind's randomized cases, else its default.
let seed = ProcessInfo.processInfo.environment[PostgresChecks.seedVariable].flatMap { UInt64($0) } ?? PostgresChecks.defaultSeed
let status: Int32 = ContractsLocator.$root.withValue(root ?? ContractsLocator.packageRoot) {
    PostgresChecks.$seed.withValue(seed) {
        switch command {
        case "verify": return runVerify(arguments)
        case "serve": return runServe(arguments)
        case "goldens": return runGoldens(arguments)
        case "report": return runReport(arguments)
        case "generate-models": return runGenerateModels(arguments)
        case "help", "--help", "-h":
            if let topic = arguments.first, let spec = commandSpecs[topic] { print(spec.help) } else { print(usage) }
            return 0
        case "--version", "version": print("contracts \(contractsVersion)"); return 0
        default:
            FileHandle.standardError.write(Data("contracts: unknown command '\(command)'\n\n\(usage)\n".utf8))
            return 2
        }
    }
}
exit(status)
