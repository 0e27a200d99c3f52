import Foundation

/// Minimal option parsing: `--name value` pairs and `--flag` switches.
struct Options {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positional: [String] = []

    init(_ args: [String], flags known: Set<String> = []) {
        var i = 0
        while i < args.count {
            let a = args[i]
            if a.hasPrefix("--") {
                let name = String(a.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    values[String(name[..<eq])] = String(name[name.index(after: eq)...])
                } else if known.contains(name) || i + 1 >= args.count || args[i + 1].hasPrefix("--") {
                    flags.insert(name)
                } else {
                    values[name] = args[i + 1]
                    i += 1
                }
            } else {
                positional.append(a)
            }
            i += 1
        }
    }
}

func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data("contracts: \(message)\n".utf8))
    return 2
}
