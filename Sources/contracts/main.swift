import Foundation
import ContractKit

// `contracts` — the command-line front of SupaContracts. Each command lives in its own file.
let usage = """
usage: contracts <command> [options]

commands:
  verify [--app NAME] [--kind KIND]   run every contract suite against the embedded mock; prints
                                      app × rule kind (cases, passed, failed); exit 1 on any failure
  serve --app NAME [--port P]         serve an app's mock over loopback HTTP/1.1
  goldens [--update] [--app NAME]     compare golden files (or re-record them with --update)
  report rls --out DIR                write the RLS matrices as Markdown and self-contained HTML
  help                                this text
"""

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "help" : arguments.removeFirst()
let status: Int32
switch command {
case "verify": status = runVerify(arguments)
case "serve": status = runServe(arguments)
case "goldens": status = runGoldens(arguments)
case "report": status = runReport(arguments)
case "help", "--help", "-h": print(usage); status = 0
default:
    FileHandle.standardError.write(Data("contracts: unknown command '\(command)'\n\n\(usage)\n".utf8))
    status = 2
}
exit(status)
