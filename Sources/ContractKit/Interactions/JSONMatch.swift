import Foundation

/// Compares an expected JSON document (with matcher strings) with an actual one and names every
/// difference by its JSON path.
package enum JSONMatch {
    /// The matcher strings and what they accept.
    package static let matchers: [String: @Sendable (JSONValue) -> Bool] = [
        "<uuid>": { v in v.stringValue.map { SQLValue.canonicalUUID($0) == $0 } ?? false },
        "<timestamptz>": { v in v.stringValue.map(isTimestamptz) ?? false },
        "<date>": { v in v.stringValue.map { $0.utf8.count == 10 && PGTime.parseDate($0) != nil } ?? false },
        "<string>": { v in v.stringValue != nil },
        "<number>": { v in v.doubleValue != nil },
        "<any>": { _ in true },
        "<jwt>": { v in v.stringValue.map(isJWT) ?? false }
    ]

    /// PostgREST's timestamptz form: `YYYY-MM-DDTHH:MM:SS[.ffffff]` and a `+HH:MM`/`-HH:MM` offset.
    package static func isTimestamptz(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard b.count >= 25, b[10] == UInt8(ascii: "T"), PGTime.parseTimestamp(s, assumeUTC: false) != nil else { return false }
        let zone = b.suffix(6)
        return (zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-")) && zone[zone.startIndex + 3] == UInt8(ascii: ":")
    }

    /// Three base64url segments whose first decodes to a JSON object with `alg`.
    package static func isJWT(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" } }) else {
            return false
        }
        var h = parts[0].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while h.count % 4 != 0 { h += "=" }
        guard let data = Data(base64Encoded: h), let header = try? JSONValue.parse(data) else { return false }
        return header["alg"]?.stringValue != nil
    }

    /// Numbers are equal by value (`5` and `5.0`); everything else structurally.
    static func scalarEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue {
            if case .int(let i) = a, case .int(let j) = b { return i == j }
            return x == y
        }
        return a == b
    }

    static func show(_ v: JSONValue) -> String {
        let s = v.serialized()
        return s.count > 120 ? String(s.prefix(117)) + "..." : s
    }

    /// Differences of `actual` from `expected`, each `path: what`.
    ///
    /// - Parameters:
    ///   - subset: objects may hold keys the expectation does not list.
    ///   - useMatchers: expected strings `<uuid>`, `<timestamptz>`, … match any value of that form.
    package static func differences(expected: JSONValue, actual: JSONValue, path: String = "$", subset: Bool = false, useMatchers: Bool = true) -> [String] {
        var out: [String] = []
        walk(expected, actual, path, subset, useMatchers, &out)
        return out
    }

    static func walk(_ e: JSONValue, _ a: JSONValue, _ path: String, _ subset: Bool, _ useMatchers: Bool, _ out: inout [String]) {
        if useMatchers, case .string(let s) = e, let m = matchers[s] {
            if !m(a) { out.append("\(path): expected \(s), got \(show(a))") }
            return
        }
        switch (e, a) {
        case (.object(let eo), .object(let ao)):
            for k in eo.keys.sorted() {
                let p = SpecNodePath.child(path, k)
                guard let av = ao[k] else { out.append("\(p): missing (expected \(show(eo[k]!)))"); continue }
                walk(eo[k]!, av, p, subset, useMatchers, &out)
            }
            if !subset {
                for k in ao.keys.sorted() where eo[k] == nil {
                    out.append("\(SpecNodePath.child(path, k)): unexpected key (value \(show(ao[k]!))); list it or set \"bodyMatch\": \"subset\"")
                }
            }
        case (.array(let ea), .array(let aa)):
            if ea.count != aa.count { out.append("\(path): expected \(ea.count) elements, got \(aa.count)") }
            for (i, (x, y)) in zip(ea, aa).enumerated() { walk(x, y, "\(path)[\(i)]", subset, useMatchers, &out) }
        default:
            if !scalarEqual(e, a) { out.append("\(path): expected \(show(e)), got \(show(a))") }
        }
    }
}

/// JSON paths for messages, spelled as `SpecNode` spells them.
enum SpecNodePath {
    static func child(_ path: String, _ key: String) -> String {
        let simple = !key.isEmpty && key.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" }
        return simple ? "\(path).\(key)" : "\(path)[\"\(key)\"]"
    }
}

/// `{{persona.NAME.id}}`, `{{persona.NAME.email}}`, `{{capture.NAME}}` and `{{otp.EMAIL}}` in
/// requests and expectations.
package struct InteractionTemplates: Sendable {
    package var personas: [String: Persona]
    /// Captured values by name.
    package var captures: [String: JSONValue]
    /// Reads the one-time code last emailed to an address, for `{{otp.EMAIL}}` (nil: no mailbox
    /// to read, and the template fails).
    package var mailbox: (@Sendable (_ email: String) -> String?)?
    /// Reads the token of the link last e-mailed to an address, for `{{emailToken.EMAIL}}`.
    package var emailTokens: (@Sendable (_ email: String) -> String?)?

    /// Templates over personas, captures and a mailbox.
    package init(
        personas: [Persona], captures: [String: JSONValue] = [:], mailbox: (@Sendable (_ email: String) -> String?)? = nil,
        emailTokens: (@Sendable (_ email: String) -> String?)? = nil
    ) {
        self.personas = Dictionary(personas.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        self.captures = captures
        self.mailbox = mailbox
        self.emailTokens = emailTokens
    }

    /// A template that cannot be filled.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        /// Where (JSON path in the file).
        package var path: String
        /// What.
        package var reason: String
        package var description: String { "\(path): \(reason)" }
    }

    func lookup(_ name: String, at path: String) throws -> JSONValue {
        if name.hasPrefix("otp.") {
            let email = String(name.dropFirst(4))
            guard let mailbox else { throw Failure(path: path, reason: "{{\(name)}} needs a transport that reads the backend's emailed codes") }
            guard let code = mailbox(email) else { throw Failure(path: path, reason: "no one-time code was emailed to '\(email)' before {{\(name)}}") }
            return .string(code)
        }
        if name.hasPrefix("emailToken.") {
            let email = String(name.dropFirst("emailToken.".count))
            guard let emailTokens else { throw Failure(path: path, reason: "{{\(name)}} needs a transport that reads the backend's e-mails") }
            guard let token = emailTokens(email) else { throw Failure(path: path, reason: "no link was e-mailed to '\(email)' before {{\(name)}}") }
            return .string(token)
        }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, parts[0] == "persona" {
            guard let p = personas[parts[1]] else {
                throw Failure(path: path, reason: "unknown persona '\(parts[1])' in {{\(name)}} (known: \(personas.keys.sorted().joined(separator: ", ")))")
            }
            switch parts[2] {
            case "id": return .string(p.id)
            case "email": return .string(p.email)
            default: throw Failure(path: path, reason: "unknown persona field '\(parts[2])' in {{\(name)}} (id, email)")
            }
        }
        if parts.count == 2, parts[0] == "capture" {
            guard let v = captures[parts[1]] else {
                throw Failure(
                    path: path, reason: "nothing captured as '\(parts[1])' before {{\(name)}} (captured: \(captures.keys.sorted().joined(separator: ", ")))")
            }
            return v
        }
        throw Failure(path: path, reason: "unknown template {{\(name)}} (persona.NAME.id, persona.NAME.email, capture.NAME, otp.EMAIL, emailToken.EMAIL)")
    }

    /// Fills the templates of a string. A string that is exactly one template of a captured
    /// non-string value becomes that value.
    package func fill(_ s: String, at path: String) throws -> JSONValue {
        guard s.contains("{{") else { return .string(s) }
        if s.hasPrefix("{{"), s.hasSuffix("}}"), s.dropFirst(2).dropLast(2).range(of: "{{") == nil {
            return try lookup(String(s.dropFirst(2).dropLast(2)).trimmingCharacters(in: .whitespaces), at: path)
        }
        var out = ""
        var rest = Substring(s)
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { throw Failure(path: path, reason: "unclosed '{{' in \"\(s)\"") }
            out += rest[..<open.lowerBound]
            let v = try lookup(String(rest[open.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespaces), at: path)
            out += v.stringValue ?? v.serialized()
            rest = rest[close.upperBound...]
        }
        return .string(out + rest)
    }

    /// Fills a string that must stay a string.
    package func fillText(_ s: String, at path: String) throws -> String {
        let v = try fill(s, at: path)
        return v.stringValue ?? v.serialized()
    }

    /// Fills every string of a JSON value.
    package func fill(_ v: JSONValue, at path: String) throws -> JSONValue {
        switch v {
        case .string(let s): return try fill(s, at: path)
        case .array(let a): return .array(try a.enumerated().map { try fill($1, at: "\(path)[\($0)]") })
        case .object(let o):
            var out: [String: JSONValue] = [:]
            for (k, x) in o { out[k] = try fill(x, at: SpecNodePath.child(path, k)) }
            return .object(out)
        default: return v
        }
    }
}
