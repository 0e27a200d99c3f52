import Foundation

/// Where a rule value comes from: the document, its section and the document's own words, and
/// which members of the object carrying it hold the value those words state.
///
/// Any object of any contract file may carry `"trace": {…}` or `"trace": [{…}, …]`:
/// ```json
/// { "maxWidth": 1200,
///   "trace": { "file": "002_f932f27a0cb2ff52.txt", "section": "Spike 2",
///              "quote": "Resize to max 1200px width", "holds": "maxWidth" } }
/// ```
/// Every number written in `quote` must equal a number held by the `holds` members (read at
/// any depth, strings included), and every number they hold must equal one the quote states,
/// so editing the value without the words (or the words without the value) fails the gate and
/// verify naming both (a loader checks the trace's shape only). A number followed by a unit also matches its value in the unit a contract
/// stores (`24 hours` is 24 or 86400, `5 min` is 5 or 300, `2MB` is 2, 2000000 or 2097152,
/// `500ms` is 500 or 0.5, `80%` is 80 or 0.8); a range's unit applies to both ends
/// (`10–30s`). A quote may join verbatim fragments with `…`; `scripts/check-sources` checks
/// each fragment against the documents. A trace without `holds` quotes words that state no
/// number (`MUST check cache before network`): its quote may hold none. `"within": true` reads
/// the quote as bounds (`10-30s depending on operation`): every held number lies between the
/// smallest and the largest number stated, in one of the unit's scales.
package struct SourceTrace: Sendable, Equatable {
    /// The document's file name in the seeds folder (`002_f932f27a0cb2ff52.txt`).
    package var file: String
    /// The section (heading words or an identifier such as `FR-043`).
    package var section: String
    /// The document's words, fragments joined with `…`.
    package var quote: String
    /// Relative paths (`maxWidth`, `thumbnail.width`, `entries[2].ttlSeconds`) of the members
    /// holding the quoted value; `list#` is the number of elements of `list`.
    package var holds: [String]
    /// Why the value is read this way, where the words leave room.
    package var decision: String?
    /// The quote bounds the held values instead of stating them.
    package var within: Bool = false
    /// JSONPath of the trace itself.
    package var path: String

    /// The quote's fragments (split at `…`), trimmed.
    package var fragments: [String] {
        quote.components(separatedBy: "…").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}

extension SourceTrace: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case file, section, quote, holds, decision, within }

    /// One trace object: `file`, `section` and `quote` non-empty text, `holds` a member path or
    /// an array of them, `within` a boolean.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ k: CodingKeys, required: Bool = true) throws -> String? {
            guard required || c.contains(k) else { return nil }
            let s = try c.decode(String.self, forKey: k)
            guard !s.trimmingCharacters(in: .whitespaces).isEmpty else { throw c.fail(k, "expected a non-empty string") }
            return s
        }
        file = try text(.file)!
        section = try text(.section)!
        quote = try text(.quote)!
        switch try c.decodeIfPresent(JSONValue.self, forKey: .holds) {
        case nil: holds = []
        case .string(let h)?: holds = [h]
        case .array?: holds = try c.decode([String].self, forKey: .holds)
        case let v?: throw c.fail(.holds, "expected a member path or an array of them, found \(v.typeName)")
        }
        decision = try text(.decision, required: false)
        within = try c.decodeIfPresent(Bool.self, forKey: .within) ?? false
        path = decoder.jsonPath
    }

    /// Decodes the `trace` member's shape only (what a loader checks: unknown keys, types, a
    /// `holds` path that names nothing). Whether the quoted numbers equal the held values is the
    /// gate's and verify's check (`problems(in:file:)`), so a mutant of a value still reaches
    /// the checks that exercise it.
    package static func readShape(object: [String: JSONValue], file: String, path: String) throws {
        let r = try decodeAll(object: object, file: file, path: path, numbers: false)
        if let first = r.problems.first { throw first }
    }

    /// Decodes and checks the `trace` member of an object at `path`: every trace is checked and
    /// every problem returned (a wrong shape, an unknown key, a `holds` path that reaches nothing,
    /// a number the quote and the held value do not share); one trace's problems do not hide
    /// another's.
    package static func readAll(object: [String: JSONValue], file: String, path: String) -> (traces: [SourceTrace], problems: [SpecError]) {
        do { return try decodeAll(object: object, file: file, path: path, numbers: true) } catch let e as SpecError { return ([], [e]) } catch {
            return ([], [])
        }
    }

    static func decodeAll(object: [String: JSONValue], file: String, path: String, numbers: Bool) throws -> (traces: [SourceTrace], problems: [SpecError]) {
        guard let raw = object["trace"] else { return ([], []) }
        let node = SpecNode(value: raw, file: file, path: SpecNode.childPath(path, "trace"))
        let traces: [SourceTrace]
        switch raw {
        case .array(let a):
            guard !a.isEmpty else { throw node.fail("expected at least one trace") }
            traces = try node.decode([SourceTrace].self)
        case .object: traces = [try node.decode(SourceTrace.self)]
        default: throw node.fail("expected a trace object or an array of them, found \(raw.typeName)")
        }
        var out: [SourceTrace] = [], failed: [SpecError] = []
        for trace in traces {
            let problems = trace.verify(against: object, file: file, objectPath: path, numbers: numbers)
            if problems.isEmpty { out.append(trace) } else { failed += problems }
        }
        return (out, failed)
    }

    /// Every trace of a parsed file, each checked; the problems of all of them (empty: every
    /// quoted number equals its rule's value).
    package static func problems(in value: JSONValue, file: String, path: String = "$") -> (traces: [SourceTrace], problems: [SpecError]) {
        var traces: [SourceTrace] = [], problems: [SpecError] = []
        func walk(_ v: JSONValue, _ p: String) {
            switch v {
            case .object(let o):
                if o["trace"] != nil {
                    let r = readAll(object: o, file: file, path: p)
                    traces += r.traces
                    problems += r.problems
                }
                for k in o.keys.sorted() where k != "trace" { walk(o[k]!, SpecNode.childPath(p, k)) }
            case .array(let a):
                for (i, e) in a.enumerated() { walk(e, "\(p)[\(i)]") }
            default: break
            }
        }
        walk(value, path)
        return (traces, problems)
    }

    /// Every problem of this trace against the object carrying it (empty: the words and the
    /// value agree). A held number the words do not state is reported at the held member.
    func verify(against object: [String: JSONValue], file: String, objectPath: String, numbers checkNumbers: Bool = true) -> [SpecError] {
        let stated = QuotedNumber.scan(quote)
        var held: [(path: String, number: QuotedNumber)] = []
        var out: [SpecError] = []
        for h in holds {
            guard let (value, p) = SourceTrace.resolve(h, in: .object(object), base: objectPath) else {
                out.append(SpecError(file: file, path: SpecNode.childPath(path, "holds"), message: "'\(h)' names no member of this object"))
                continue
            }
            let numbers = SourceTrace.numbers(in: value, path: p)
            if numbers.isEmpty {
                out.append(SpecError(file: file, path: SpecNode.childPath(path, "holds"), message: "'\(h)' (\(p)) holds no number"))
            }
            held += numbers
        }
        if !out.isEmpty || !checkNumbers { return out }
        let here = "\(self.file) \(section): \"\(quote)\""
        if holds.isEmpty, let n = stated.first {
            return [SpecError(file: file, path: path, message: "the quote states \(n.text) but the trace names no member holding it (\(here)); add \"holds\"")]
        }
        if within {
            guard stated.count >= 2, let scales = stated.first?.scales else {
                return [SpecError(file: file, path: path, message: "\"within\" needs a quote stating two bounds (\(here))")]
            }
            for h in held {
                let fits = scales.contains { s in
                    let lo = stated.map { $0.value * s }.min()!, hi = stated.map { $0.value * s }.max()!
                    return h.number.candidates.contains { $0 >= lo - 1e-9 && $0 <= hi + 1e-9 }
                }
                if !fits {
                    out.append(
                        SpecError(file: file, path: h.path, message: "holds \(h.number.text), outside the bounds the document states (\(here), \(path))"))
                }
            }
            return out
        }
        for h in held where !stated.contains(where: { $0.matches(h.number) }) {
            let words = stated.map(\.text).joined(separator: ", ")
            out.append(
                SpecError(
                    file: file, path: h.path,
                    message: "holds \(h.number.text) but the document states \(words.isEmpty ? "no number" : words) (\(here), \(path))"))
        }
        for n in stated where !held.contains(where: { $0.number.matches(n) }) {
            let values = held.map { "\($0.path) = \($0.number.text)" }.joined(separator: ", ")
            out.append(SpecError(file: file, path: path, message: "the document states \(n.text) (\(here)) but the rule holds \(values)"))
        }
        return out
    }

    /// The value at a relative member path (`a.b[2].c`) and its JSONPath; a path ending in
    /// `#` is the number of elements (or members) of what it names (`primary#`: "4 primary
    /// categories").
    static func resolve(_ rel: String, in root: JSONValue, base: String) -> (JSONValue, String)? {
        if rel.hasSuffix("#") {
            guard let (v, p) = resolve(String(rel.dropLast()), in: root, base: base) else { return nil }
            switch v {
            case .array(let a): return (.int(Int64(a.count)), "\(p).length")
            case .object(let o):
                return (.int(Int64(o.keys.filter { !["trace", "$comment", "decision", "decisions", "doc", "source"].contains($0) }.count)), "\(p).length")
            default: return nil
            }
        }
        var value = root, path = base
        var rest = Substring(rel)
        while !rest.isEmpty {
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]),
                    let a = value.arrayValue, i >= 0, i < a.count
                else { return nil }
                value = a[i]; path += "[\(i)]"
                rest = rest[rest.index(after: close)...]
            } else {
                if rest.hasPrefix(".") { rest = rest.dropFirst() }
                let end = rest.firstIndex(where: { $0 == "." || $0 == "[" }) ?? rest.endIndex
                let key = String(rest[..<end])
                guard let v = value[key] else { return nil }
                value = v; path = SpecNode.childPath(path, key)
                rest = rest[end...]
            }
        }
        return (value, path)
    }

    static func numbers(in value: JSONValue, path: String) -> [(path: String, number: QuotedNumber)] {
        switch value {
        case .int, .double, .number:
            return [(path, QuotedNumber(value: value.doubleValue!, text: value.serialized(), scales: [1]))]
        case .string(let s): return QuotedNumber.scan(s).map { (path, $0) }
        case .array(let a): return a.enumerated().flatMap { numbers(in: $1, path: "\(path)[\($0)]") }
        case .object(let o):
            return o.keys.sorted().filter { !["trace", "decision", "decisions", "doc", "source", "$comment"].contains($0) }
                .flatMap { numbers(in: o[$0]!, path: SpecNode.childPath(path, $0)) }
        default: return []
        }
    }
}

/// A number written in a document's words (or held by a rule), with the values it may stand
/// for in the units a contract stores.
struct QuotedNumber: Sendable, Equatable, CustomStringConvertible {
    var value: Double
    var text: String
    /// Factors the unit allows (`hours`: 1, 60, 3600).
    var scales: [Double]

    var description: String { text }

    var candidates: [Double] { scales.map { value * $0 } }

    func matches(_ other: QuotedNumber) -> Bool {
        candidates.contains { a in other.candidates.contains { b in abs(a - b) <= 1e-9 * max(1, abs(a)) } }
    }

    static let units: [(names: [String], scales: [Double])] = [
        (["ms", "millisecond", "milliseconds"], [1, 0.001]),
        (["s", "sec", "secs", "second", "seconds"], [1, 1000]),
        (["min", "mins", "minute", "minutes"], [1, 60, 60_000]),
        (["h", "hr", "hrs", "hour", "hours"], [1, 60, 3600, 3_600_000]),
        (["d", "day", "days"], [1, 24, 1440, 86_400]),
        (["week", "weeks"], [1, 7, 604_800]),
        (["kb"], [1, 1000, 1024]), (["kib"], [1, 1024]),
        (["mb"], [1, 1_000_000, 1_048_576]), (["mib"], [1, 1_048_576]),
        (["gb"], [1, 1_000_000_000, 1_073_741_824]), (["gib"], [1, 1_073_741_824]),
        (["%"], [1, 0.01])
    ]

    static func scales(forUnit word: String) -> [Double]? {
        let w = word.lowercased()
        return units.first { $0.names.contains(w) }?.scales
    }

    /// The numbers of a text: digits not glued to a word before them (`v2`, `FR-043`, `§4.6`
    /// are names, not values), thousands separators allowed (`1,497`), with the unit that
    /// follows; the unit after a range's upper end (`10–30s`, `5 to 15 minutes`) applies to both.
    static func scan(_ text: String) -> [QuotedNumber] {
        let chars = Array(text)
        var raw: [(value: Double, text: String, end: Int)] = []
        var i = 0
        while i < chars.count {
            guard chars[i].isASCII, chars[i].isNumber else { i += 1; continue }
            let start = i
            let before = start > 0 ? chars[start - 1] : " "
            let afterDigit = start > 1 && chars[start - 2].isASCII && chars[start - 2].isNumber
            // `1...99` is a range (Swift's closed range), not a decimal or a section number.
            let rangeDots = start > 2 && chars[start - 1] == "." && chars[start - 2] == "." && chars[start - 3] == "."
            let glued =
                (before.isLetter && !((before == "x" || before == "×") && afterDigit))
                || before == "§" || before == "_" || (before == "." && !rangeDots) || before == "#"
                || (before == "-" && start > 1 && chars[start - 2].isLetter)
            // A minus sign: `-` after a space, an opening bracket, `:` or the start (`-100 to
            // 100`), not a range's dash (`10-30`).
            let negative = before == "-" && (start == 1 || [" ", "(", "[", ":", ","].contains(chars[start - 2]))
            var j = i
            while j < chars.count,
                (chars[j].isASCII && chars[j].isNumber)
                    || ((chars[j] == "." || chars[j] == ",") && j + 1 < chars.count && chars[j + 1].isASCII && chars[j + 1].isNumber
                        && !(chars[j] == "," && (j + 3 >= chars.count || !chars[j + 1...j + 3].allSatisfy { $0.isASCII && $0.isNumber })))
            {
                j += 1
            }
            let token = String(chars[start..<j])
            i = j
            if glued { continue }
            // A section number such as 4.6.1 or a version such as 1.2.3 is a name.
            if token.filter({ $0 == "." }).count > 1 { continue }
            guard let v = Double(token.replacingOccurrences(of: ",", with: "")) else { continue }
            raw.append((negative ? -v : v, negative ? "-" + token : token, j))
        }
        func unit(after end: Int) -> (scales: [Double], word: String)? {
            var k = end
            while k < chars.count, chars[k] == " " || chars[k] == "-" && k == end { k += 1 }
            if k < chars.count, chars[k] == "%" { return ([1, 0.01], "%") }
            var w = ""
            while k < chars.count, chars[k].isLetter { w.append(chars[k]); k += 1 }
            guard !w.isEmpty, let s = scales(forUnit: w) else { return nil }
            return (s, w)
        }
        var out: [QuotedNumber] = []
        for (n, r) in raw.enumerated() {
            var u = unit(after: r.end)
            if u == nil, n + 1 < raw.count {
                // Range: `10–30s`, `10-30 s`, `5 to 15 minutes`.
                let between = String(chars[r.end..<(raw[n + 1].end - raw[n + 1].text.count)]).trimmingCharacters(in: .whitespaces)
                if ["–", "-", "—", "to", "...", "..<"].contains(between) { u = unit(after: raw[n + 1].end) }
            }
            out.append(QuotedNumber(value: r.value, text: r.text + (u.map { $0.word == "%" ? "%" : " " + $0.word } ?? ""), scales: u?.scales ?? [1]))
        }
        return out
    }
}
