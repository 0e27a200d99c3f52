import Foundation

/// One option of a command: `--name VALUE` or a `--name` switch.
package struct CommandOption: Sendable {
    /// The long name without dashes (`app`).
    package var name: String
    /// A one-letter alias without the dash (`h`), if any.
    package var short: Character?
    /// The value's placeholder (`NAME`); nil for a switch that takes no value.
    package var value: String?
    /// Whether the option may be given more than once (values accumulate).
    package var repeatable: Bool
    package var help: String
    /// Whether the command refuses to run without it.
    package var required: Bool = false

    package static func value(_ name: String, _ placeholder: String, repeatable: Bool = false, required: Bool = false, _ help: String) -> CommandOption {
        CommandOption(name: name, short: nil, value: placeholder, repeatable: repeatable, help: help, required: required)
    }

    /// A switch.
    package static func flag(_ name: String, short: Character? = nil, _ help: String) -> CommandOption {
        CommandOption(name: name, short: short, value: nil, repeatable: false, help: help)
    }
}

/// What a command accepts, and its help text: parsing rejects anything else before any work.
package struct CommandSpec: Sendable {
    /// `verify`, `report rls`.
    package var name: String
    /// What the command does, one or two lines.
    package var summary: String
    /// Positional arguments after the options, as shown in the usage line (`rls`); empty: none.
    package var positionals: [String]
    /// Every option (`--help` is added by the parser).
    package var options: [CommandOption]
    /// Environment variables the command reads, with what each does.
    package var environment: [(name: String, help: String)]
    /// Exit statuses and their meaning.
    package var exitStatus: [(code: Int32, meaning: String)]
    /// What to suggest for an unknown option a newcomer is likely to try (`json` → `--format json`).
    package var hints: [String: String]

    package init(
        name: String, summary: String, positionals: [String] = [], options: [CommandOption],
        environment: [(name: String, help: String)] = [], exitStatus: [(code: Int32, meaning: String)] = [],
        hints: [String: String] = [:]
    ) {
        self.name = name
        self.summary = summary
        self.positionals = positionals
        self.options = options
        self.environment = environment
        self.exitStatus = exitStatus
        self.hints = hints
    }

    /// `usage: contracts verify [--app NAME]... [--format FORMAT]`.
    package var usageLine: String {
        var parts = ["usage: contracts \(name)"] + positionals
        for o in options {
            let text = "--\(o.name)" + (o.value.map { " \($0)" } ?? "")
            parts.append((o.required ? text : "[\(text)]") + (o.repeatable ? "..." : ""))
        }
        return parts.joined(separator: " ")
    }

    /// The full help: usage, summary, every option, every environment variable, exit statuses.
    package var help: String {
        var lines = [usageLine, "", summary, "", "options:"]
        let rows =
            options.map { o in
                ((o.short.map { "-\($0), " } ?? "") + "--\(o.name)" + (o.value.map { " \($0)" } ?? ""), o.help + (o.repeatable ? " (repeatable)" : ""))
            } + [("-h, --help", "print this help and exit")]
        let width = rows.map(\.0.count).max() ?? 0
        for (left, right) in rows { lines.append("  " + left.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + right) }
        if !environment.isEmpty {
            lines += ["", "environment:"]
            let w = environment.map(\.name.count).max() ?? 0
            for e in environment { lines.append("  " + e.name.padding(toLength: w, withPad: " ", startingAt: 0) + "  " + e.help) }
        }
        if !exitStatus.isEmpty {
            lines += ["", "exit status:"]
            for e in exitStatus { lines.append("  \(e.code)  \(e.meaning)") }
        }
        return lines.joined(separator: "\n")
    }

    /// Parses `args` (after the command's name): every option must be known, every value present,
    /// a non-repeatable option given once, and exactly the declared positionals. `-h`/`--help`
    /// anywhere returns `.help`.
    package func parse(_ args: [String]) throws(UsageError) -> ParsedCommand {
        if args.contains("--help") || args.contains("-h") { return ParsedCommand(help: true) }
        var parsed = ParsedCommand(help: false)
        var i = 0
        while i < args.count {
            let arg = args[i]
            i += 1
            if arg == "--" { parsed.positionals += args[i...]; break }
            guard arg.hasPrefix("-"), arg != "-" else { parsed.positionals.append(arg); continue }
            var name = arg.hasPrefix("--") ? String(arg.dropFirst(2)) : String(arg.dropFirst())
            var inline: String?
            if let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            let option =
                arg.hasPrefix("--")
                ? options.first { $0.name == name }
                : (name.count == 1 ? options.first { $0.short == name.first } : nil)
            guard let option else {
                throw usage("unknown option '\(arg.split(separator: "=", maxSplits: 1).first.map(String.init) ?? arg)'" + suggestion(for: name))
            }
            if let placeholder = option.value {
                let value: String
                if let inline {
                    value = inline
                } else if i < args.count, !args[i].hasPrefix("--") {
                    value = args[i]
                    i += 1
                } else {
                    throw usage("option --\(option.name) needs a value (\(placeholder))")
                }
                if value.isEmpty { throw usage("option --\(option.name) needs a value (\(placeholder)), got an empty one") }
                if !option.repeatable, parsed.values[option.name] != nil {
                    throw usage("option --\(option.name) given twice (it takes one \(placeholder))")
                }
                parsed.values[option.name, default: []].append(value)
            } else {
                if inline != nil { throw usage("option --\(option.name) takes no value") }
                parsed.flags.insert(option.name)
            }
        }
        if parsed.positionals.count != positionals.count {
            if parsed.positionals.count > positionals.count {
                throw usage("unexpected argument '\(parsed.positionals[positionals.count])'")
            }
            throw usage("missing \(positionals[parsed.positionals.count])")
        }
        if let missing = options.first(where: { $0.required && parsed.values[$0.name] == nil }) {
            throw usage("--\(missing.name) \(missing.value ?? "") is required: \(missing.help)")
        }
        return parsed
    }

    package func usage(_ message: String) -> UsageError { UsageError(command: name, message: message, usageLine: usageLine) }

    /// ` (did you mean --app?)` for a near miss of a known option, else empty.
    func suggestion(for name: String) -> String {
        if let hint = hints[name] { return " (did you mean \(hint)?)" }
        let known = options.map(\.name)
        let close = known.filter { k in
            k.hasPrefix(name) || name.hasPrefix(k) || LineDistance.levenshtein(k, name) <= 2
        }
        return close.isEmpty ? "" : " (did you mean " + close.map { "--" + $0 }.joined(separator: " or ") + "?)"
    }
}

/// The options and positionals of one invocation.
package struct ParsedCommand: Sendable, Equatable {
    /// `-h`/`--help` was given: print the help and do nothing else.
    package var help: Bool
    /// Values by option name, in the order given.
    package var values: [String: [String]] = [:]
    /// Switches given.
    package var flags: Set<String> = []
    package var positionals: [String] = []

    /// The value of a single-valued option.
    package func value(_ name: String) -> String? { values[name]?.last }
}

/// A command line the command does not accept: printed with the usage line, exit status 2.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command (`verify`).
    package var command: String
    package var message: String
    package var usageLine: String

    /// `contracts verify: unknown option '--apps' (did you mean --app?)` plus the usage line and a
    /// pointer to `--help`.
    package var description: String {
        "contracts \(command): \(message)\n\(usageLine)\n(contracts \(command) --help lists every option)"
    }
}

/// Edit distance for near-miss suggestions.
enum LineDistance {
    static func levenshtein(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev = Array(0...b.count)
        for i in 1...a.count {
            var cur = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            prev = cur
        }
        return prev[b.count]
    }
}
