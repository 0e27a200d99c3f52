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
        let file = "shared/postgrest-errors.json"
        return try SpecNode.decode(PostgRESTStatusTable.self, from: contracts.appendingPathComponent(file), displayName: "Contracts/" + file)
    }
}

extension PostgRESTStatusTable: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case source, lookup, decisions, codes, classes, custom, otherwise }

    /// The table: every code and class once, classes of two characters, statuses HTTP statuses.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decode(String.self, forKey: .source)
        codes = [:]
        for (i, e) in try c.decode([Coded].self, forKey: .codes).enumerated() where codes.updateValue(e.entry, forKey: e.code) != nil {
            throw c.fail([CodingKeys.codes, AnyKey(intValue: i)!], "code '\(e.code)' listed twice")
        }
        classes = [:]
        for (i, e) in try c.decode([Classed].self, forKey: .classes).enumerated() {
            let at: [CodingKey] = [CodingKeys.classes, AnyKey(intValue: i)!]
            guard e.code.count == 2 else { throw c.fail(at, "a SQLSTATE class has two characters, not '\(e.code)'") }
            if classes.updateValue(e.entry, forKey: e.code) != nil { throw c.fail(at, "class '\(e.code)' listed twice") }
        }
        let custom = try c.decode(Custom.self, forKey: .custom)
        customPrefix = custom.prefix
        customFallback = custom.fallback.value
        otherwise = try c.decode(HTTPStatusCode.self, forKey: .otherwise).value
    }

    /// An entry of `codes`: `code` and the entry's fields.
    private struct Coded: Decodable {
        var code: String
        var entry: Entry
        enum CodingKeys: String, CodingKey, CaseIterable { case code }
        init(from decoder: Decoder) throws {
            code = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .code)
            entry = try Entry(from: decoder)
        }
    }

    /// An entry of `classes`: `class` and the entry's fields.
    private struct Classed: Decodable {
        var code: String
        var entry: Entry
        enum CodingKeys: String, CodingKey, CaseIterable { case `class` }
        init(from decoder: Decoder) throws {
            code = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .class)
            entry = try Entry(from: decoder)
        }
    }

    /// `custom`: `{"prefix", "fallback", "status", "source"}` (`status` and `source` in words, required).
    private struct Custom: Decodable {
        var prefix: String, fallback: HTTPStatusCode, status: String, source: String
    }
}

extension PostgRESTStatusTable.Entry: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case status, anonymousStatus, messageCases, meaning, source }
    /// The fields every code and class entry has; `source` never empty.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        messageCases = try c.decodeIfPresent([PostgRESTStatusTable.MessageCase].self, forKey: .messageCases) ?? []
        source = try c.decode(String.self, forKey: .source)
        if source.isEmpty { throw c.fail(.source, "every entry names its source") }
        status = try c.decode(HTTPStatusCode.self, forKey: .status).value
        anonymousStatus = try c.decodeIfPresent(HTTPStatusCode.self, forKey: .anonymousStatus)?.value
        meaning = try c.decode(String.self, forKey: .meaning)
    }
}

extension PostgRESTStatusTable.MessageCase: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case prefix, suffix, status }
    /// `{"prefix", "suffix", "status"}`, with a prefix or a suffix.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        prefix = try c.decodeIfPresent(String.self, forKey: .prefix)
        suffix = try c.decodeIfPresent(String.self, forKey: .suffix)
        status = try c.decode(HTTPStatusCode.self, forKey: .status).value
        if prefix == nil && suffix == nil { throw c.fail("a message case needs a prefix or a suffix") }
    }
}

/// An HTTP status in a service's error table (100-599).
private struct HTTPStatusCode: Decodable {
    var value: Int
    init(from decoder: Decoder) throws {
        value = try decoder.singleValueContainer().decode(Int.self)
        guard (100...599).contains(value) else { throw decoder.fail("not an HTTP status: \(value)") }
    }
}

/// GoTrue's error codes and the statuses it raises each with (`Contracts/shared/gotrue-errors.json`),
/// transcribed from supabase/auth `internal/api/apierrors/errorcode.go` and the constructors at
/// the places that raise them.
package struct GoTrueErrorTable: Sendable, Equatable {
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
        let file = "shared/gotrue-errors.json"
        return try SpecNode.decode(GoTrueErrorTable.self, from: contracts.appendingPathComponent(file), displayName: "Contracts/" + file)
    }
}

extension GoTrueErrorTable: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case source, decision, codes }

    /// The table: every code once, statuses error statuses (400-599).
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decode(String.self, forKey: .source)
        codes = [:]
        for (i, e) in try c.decode([Coded].self, forKey: .codes).enumerated() where codes.updateValue(e.entry, forKey: e.code) != nil {
            throw c.fail([CodingKeys.codes, AnyKey(intValue: i)!], "code '\(e.code)' listed twice")
        }
    }

    /// An entry of `codes`: `{"code", "statuses", "source", "note"}`.
    private struct Coded: Decodable {
        var code: String
        var entry: Entry
        enum CodingKeys: String, CodingKey, CaseIterable { case code, statuses, source, note }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let statuses = try c.decode([Int].self, forKey: .statuses)
            for (i, v) in statuses.enumerated() where !(400...599).contains(v) {
                throw c.fail([CodingKeys.statuses, AnyKey(intValue: i)!], "not an error status: \(v)")
            }
            code = try c.decode(String.self, forKey: .code)
            entry = Entry(statuses: statuses, source: try c.decode(String.self, forKey: .source))
        }
    }
}
