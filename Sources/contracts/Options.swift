import AppRegistry
import Foundation
import MockBinding

/// Prints a usage error (exit 2) or other command-line problem to standard error.
func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("contracts: \(message)\n".utf8))
    return 2
}

/// Prints a usage error (with the usage line) to standard error; exit status 2.
func usageFail(_ error: UsageError) -> Int32 {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    return 2
}

/// Parses a command's arguments against its spec. Nil with `status` set means: stop now (help
/// printed, exit 0; or a usage error printed, exit 2).
func parse(_ spec: CommandSpec, _ args: [String], status: inout Int32) -> ParsedCommand? {
    do {
        let p = try spec.parse(args)
        if p.help { print(spec.help); status = 0; return nil }
        return p
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        status = 2
        return nil
    }
}

/// The apps named by `--app` values (case-insensitive, by folder name or title; comma-separated
/// lists allowed), or every app when none is given; nil after printing a usage error (exit
/// status 2) that names the valid ones.
func resolveApps(_ names: [String]?, command: CommandSpec) -> [any AppModule.Type]? {
    guard let names else { return allApps }
    let catalog = allApps.map { a -> (name: String, title: String) in (a.name, a.title) }
    var indices: [Int] = []
    for n in names.flatMap({ $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }) where !n.isEmpty {
        guard let i = catalog.firstIndex(where: { $0.name.caseInsensitiveCompare(n) == .orderedSame || $0.title.caseInsensitiveCompare(n) == .orderedSame })
        else {
            _ = usageFail(command.usage("unknown app '\(n)' (one of: \(catalog.map(\.name).joined(separator: ", ")))"))
            return nil
        }
        if !indices.contains(i) { indices.append(i) }
    }
    return indices.map { allApps[$0] }
}

/// The app list for help texts.
var appList: String { allApps.map { $0.name }.joined(separator: ", ") }

/// Environment variables every command reads.
let commonEnvironment: [(name: String, help: String)] = [
    ("SUPACONTRACTS_ROOT", "the package root holding Contracts/ and Golden/ (default: the checkout this binary was built from)")
]
