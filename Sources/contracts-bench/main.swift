import Foundation
import ContractKit

// `swift run -c release contracts-bench [rest|parser|report|postgres|all]` — the package's speed measurements.
// Figures are side by side in one run and reported as ratios (the machine is shared and noisy).
let args = Array(CommandLine.arguments.dropFirst())
let which = args.first ?? "all"
switch which {
case "rest": runRESTBenchmark()
case "report": runReportBenchmark()
case "postgres": runPostgresBenchmark()
case "parser": runParserBenchmark()
case "all": runRESTBenchmark(); runParserBenchmark(); runReportBenchmark(); runPostgresBenchmark()
default:
    FileHandle.standardError.write(Data("usage: contracts-bench [rest|parser|report|postgres|all]\n".utf8))
    exit(2)
}
