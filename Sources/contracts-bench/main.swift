import Foundation
import MockBinding

// `swift run -c release contracts-bench [rest|parser|report|postgres|sessions [count]|realtime [subscribers [inserts]]|fuzz [folder…]|all]` — the package's speed measurements.
// Figures are side by side in one run and reported as ratios (the machine is shared and noisy).
let args = Array(CommandLine.arguments.dropFirst())
let which = args.first ?? "all"
switch which {
case "rest": runRESTBenchmark()
case "report": runReportBenchmark()
case "postgres": runPostgresBenchmark()
case "sessions": runSessionBenchmark(count: args.dropFirst().first.flatMap { Int($0) } ?? 200_000)
case "parser": runParserBenchmark()
case "fuzz": runFuzzBenchmark(folders: Array(args.dropFirst()))
case "realtime":
    runRealtimeBenchmark(subscribers: args.dropFirst().first.flatMap { Int($0) } ?? 100, inserts: args.dropFirst(2).first.flatMap { Int($0) } ?? 200)
case "all": runRESTBenchmark(); runParserBenchmark(); runReportBenchmark(); runPostgresBenchmark(); runSessionBenchmark()
default:
    FileHandle.standardError.write(
        Data("usage: contracts-bench [rest|parser|report|postgres|sessions [count]|realtime [subscribers [inserts]]|fuzz [folder…]|all]\n".utf8))
    exit(2)
}
