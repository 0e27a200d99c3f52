import Foundation

/// PostgREST's table of error code → HTTP status (`Contracts/shared/postgrest-errors.json`),
/// transcribed from PostgREST's `Error.hs` and its errors page, each entry with its source.
///
/// The judge's copy: the RLS oracle and the PostgreSQL target read their statuses here, so a
/// mapping bug in the mock (which keeps its own switch) cannot be shared by what checks it; a
/// test holds the mock's switch to this table.
package struct PostgRESTStatusTable: Sendable, Equatable {
    /// A status that depends on the error's message (PostgREST tests `isPrefixOf`/`isSuffixOf`).
    package struct MessageCase: Sendable, Equatable {
        /// The message starts with this (nil: any start).
        package var prefix: String?
        /// The message ends with this (nil: any end).
        package var suffix: String?
        /// The status when both match.
        package var status: Int

        /// Whether `message` matches.
        package func matches(_ message: String) -> Bool {
            (prefix.map(message.hasPrefix) ?? true) && (suffix.map(message.hasSuffix) ?? true)
        }
    }

    /// One exact code (a SQLSTATE or a `PGRSTxyz`) or one two-character SQLSTATE class.
    package struct Entry: Sendable, Equatable {
        /// The status.
        package var status: Int
        /// The status of a request without a JWT, when it differs (`42501`: 401).
        package var anonymousStatus: Int?
        /// Statuses chosen by the message, tried in order before `status`.
        package var messageCases: [MessageCase]
        /// What the code means.
        package var meaning: String
        /// Where upstream says so.
        package var source: String
    }

    /// Exact codes: SQLSTATEs and PostgREST's own `PGRSTxyz`.
    package var codes: [String: Entry]
    /// Two-character SQLSTATE classes (`08`, `P0`).
    package var classes: [String: Entry]
    /// The prefix of codes whose status is their digits (`PT402` → 402).
    package var customPrefix: String
    /// The status of a custom code whose rest is not a number.
    package var customFallback: Int
    /// The status of any other code.
    package var otherwise: Int

    /// The status PostgREST answers an error with: the exact code (its message cases first, its
    /// anonymous status for a request without a JWT), else a custom code's digits, else the
    /// code's class, else `otherwise`.
    package func status(for code: String, anonymous: Bool, message: String? = nil) -> Int {
        if let e = codes[code] {
            if let m = message, let c = e.messageCases.first(where: { $0.matches(m) }) { return c.status }
            return anonymous ? (e.anonymousStatus ?? e.status) : e.status
        }
        if code.hasPrefix(customPrefix) {
            let rest = code.dropFirst(customPrefix.count)
            // Haskell's `readMaybe` of the digits; anything else is the fallback.
            return !rest.isEmpty && rest.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int(rest) ?? customFallback : customFallback
        }
        if let e = classes[String(code.prefix(2))] { return e.status }
        return otherwise
    }

    /// Reads `<contracts>/shared/postgrest-errors.json`.
    package static func load(contracts: URL) throws -> PostgRESTStatusTable {
        try decode(
            SpecNode.load(
                contracts.appendingPathComponent("shared/postgrest-errors.json"),
                displayName: "Contracts/shared/postgrest-errors.json"))
    }

    /// Decodes the file (format: Contracts/FORMAT.md, "shared/postgrest-errors.json").
    package static func decode(_ node: SpecNode) throws -> PostgRESTStatusTable {
        func status(_ n: SpecNode) throws -> Int {
            let s = try n.int()
            guard (100...599).contains(s) else { throw n.fail("not an HTTP status: \(s)") }
            return s
        }
        func entry(_ o: SpecObject) throws -> Entry {
            var cases: [MessageCase] = []
            for n in try o.optional("messageCases")?.array() ?? [] {
                let mc = try n.object { c in
                    MessageCase(
                        prefix: try c.optional("prefix")?.string(), suffix: try c.optional("suffix")?.string(),
                        status: try status(c.required("status")))
                }
                if mc.prefix == nil && mc.suffix == nil { throw n.fail("a message case needs a prefix or a suffix") }
                cases.append(mc)
            }
            let source = try o.required("source").string()
            if source.isEmpty { throw try o.required("source").fail("every entry names its source") }
            return Entry(
                status: try status(o.required("status")), anonymousStatus: try o.optional("anonymousStatus").map(status),
                messageCases: cases, meaning: try o.required("meaning").string(), source: source)
        }
        return try node.object { o in
            _ = try o.required("source").string(); _ = o.optional("lookup"); _ = o.optional("decisions")
            var codes: [String: Entry] = [:]
            for n in try o.required("codes").array() {
                let (code, e) = try n.object { try ($0.required("code").string(), entry($0)) }
                if codes.updateValue(e, forKey: code) != nil { throw n.fail("code '\(code)' listed twice") }
            }
            var classes: [String: Entry] = [:]
            for n in try o.required("classes").array() {
                let (cls, e) = try n.object { try ($0.required("class").string(), entry($0)) }
                guard cls.count == 2 else { throw n.fail("a SQLSTATE class has two characters, not '\(cls)'") }
                if classes.updateValue(e, forKey: cls) != nil { throw n.fail("class '\(cls)' listed twice") }
            }
            let (prefix, fallback) = try o.required("custom").object { c in
                _ = try c.required("status").string(); _ = try c.required("source").string()
                return (try c.required("prefix").string(), try status(c.required("fallback")))
            }
            return PostgRESTStatusTable(
                codes: codes, classes: classes, customPrefix: prefix, customFallback: fallback,
                otherwise: try status(o.required("otherwise")))
        }
    }
}

/// GoTrue's error codes and the statuses it raises each with (`Contracts/shared/gotrue-errors.json`),
/// transcribed from supabase/auth `internal/api/apierrors/errorcode.go` and the constructors at
/// the places that raise them.
package struct GoTrueErrorTable: Sendable, Equatable {
    /// One code.
    package struct Entry: Sendable, Equatable {
        /// The statuses GoTrue answers this code with; empty: no fixed one (`unknown`) or raised nowhere.
        package var statuses: [Int]
        /// Where upstream says so.
        package var source: String
    }

    /// Every code, by name.
    package var codes: [String: Entry]

    /// Whether GoTrue can answer `code` with `status`.
    package func allows(code: String, status: Int) -> Bool {
        guard let e = codes[code] else { return false }
        return e.statuses.isEmpty ? code == "unknown" : e.statuses.contains(status)
    }

    /// Reads `<contracts>/shared/gotrue-errors.json`.
    package static func load(contracts: URL) throws -> GoTrueErrorTable {
        try decode(
            SpecNode.load(
                contracts.appendingPathComponent("shared/gotrue-errors.json"),
                displayName: "Contracts/shared/gotrue-errors.json"))
    }

    /// Decodes the file (format: Contracts/FORMAT.md, "shared/gotrue-errors.json").
    package static func decode(_ node: SpecNode) throws -> GoTrueErrorTable {
        try node.object { o in
            _ = try o.required("source").string(); _ = o.optional("decision")
            var codes: [String: Entry] = [:]
            for n in try o.required("codes").array() {
                let (code, e) = try n.object { e in
                    _ = e.optional("note")
                    let statuses = try e.required("statuses").array().map { s in
                        let v = try s.int()
                        guard (400...599).contains(v) else { throw s.fail("not an error status: \(v)") }
                        return v
                    }
                    return (try e.required("code").string(), Entry(statuses: statuses, source: try e.required("source").string()))
                }
                if codes.updateValue(e, forKey: code) != nil { throw n.fail("code '\(code)' listed twice") }
            }
            return GoTrueErrorTable(codes: codes)
        }
    }
}
