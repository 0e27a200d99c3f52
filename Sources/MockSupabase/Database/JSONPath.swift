import Foundation

/// A PostgREST JSON path after a column: `->key`, `->>key`, `->0`, `->-1`, at any depth
/// (QueryParams.hs `pJsonPath`). An integer operand indexes arrays (negative from the end) and
/// finds nothing in objects; a key finds nothing in arrays, as PostgreSQL's `->`/`->>` do.
/// Columns of other types are read through `to_jsonb` first.
package struct JSONPath: Sendable, Equatable {
    package struct Step: Sendable, Equatable {
        package var key: String
        /// An integer operand (`JIdx`).
        package var index: Int?
        /// `->>`: the result is text.
        package var asText: Bool
    }

    package var steps: [Step]

    /// Splits `col->a->>0` into the column and its path; nil without an arrow.
    package static func split(_ name: String) -> (String, JSONPath)? {
        guard let first = name.range(of: "->") else { return nil }
        let base = String(name[..<first.lowerBound])
        var steps: [Step] = []
        var rest = name[first.lowerBound...]
        while rest.hasPrefix("->") {
            let asText = rest.hasPrefix("->>")
            rest = rest.dropFirst(asText ? 3 : 2)
            let end = rest.range(of: "->")?.lowerBound ?? rest.endIndex
            var key = String(rest[..<end])
            rest = rest[end...]
            if key.count >= 2, key.hasPrefix("'"), key.hasSuffix("'") { key = String(key.dropFirst().dropLast()) }
            let digits = key.hasPrefix("-") ? key.dropFirst() : Substring(key)
            let index = !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) ? Int(key) : nil
            steps.append(Step(key: key, index: index, asText: asText))
        }
        return (base, JSONPath(steps: steps))
    }

    /// PostgreSQL's planning error for an arrow after `->>`: its text result has no `->`
    /// (`data->>c->1` is `operator does not exist: text -> integer`, 42883, 404 in PostgREST).
    package func validated() throws -> JSONPath {
        for (n, step) in steps.enumerated() where step.asText && n + 1 < steps.count {
            let operand = steps[n + 1].index == nil ? "unknown" : "integer"
            throw PostgresError(
                "42883", "operator does not exist: text -> \(operand)",
                hint: "No operator matches the given name and argument types. You might need to add explicit type casts.")
        }
        return self
    }

    /// The printed name: the last key, or the column when the path holds only indexes.
    package func outputName(_ column: String) -> String {
        steps.last(where: { $0.index == nil })?.key ?? column
    }

    /// The value at the path: jsonb for `->`, text for `->>`, NULL where nothing is found.
    package func evaluate(_ v: SQLValue, type: SQLType) -> (value: SQLValue, type: SQLType) {
        if v.isNull { return (.null, .jsonb) }
        if case .jsonText(let t) = v { return evaluate(json: t) }
        var j: JSONValue
        if case .json(let x) = v { j = x } else { j = v.json(as: type) }
        for (n, step) in steps.enumerated() {
            let next: JSONValue?
            switch j {
            case .object(let o): next = step.index == nil ? o[step.key] : nil
            case .array(let a):
                if let i = step.index {
                    let k = i < 0 ? a.count + i : i
                    next = k >= 0 && k < a.count ? a[k] : nil
                } else {
                    next = nil
                }
            default: next = nil
            }
            guard let found = next else { return (.null, step.asText ? .text : .jsonb) }
            if n == steps.count - 1 && step.asText {
                switch found {
                case .null: return (.null, .text)
                case .string(let s): return (.text(s), .text)
                default: return (.text(found.serialized(.jsonb)), .text)
                }
            }
            j = found
        }
        return (.json(j), .jsonb)
    }

    /// The path on a `json` value: PostgreSQL's json operators work on the text, so `->` gives
    /// the member's or element's text as written (type json) and `->>` a string's contents or
    /// any other value's text (`2.50`, `[2 , 3]`), NULL for JSON `null` (jsonfuncs.c
    /// `json_object_field`, `json_array_element`, `*_text`).
    private func evaluate(json start: PGJSONText) -> (value: SQLValue, type: SQLType) {
        var t = start
        for (n, step) in steps.enumerated() {
            let found = step.index.map { t.element($0) } ?? t.member(step.key)
            guard let found else { return (.null, step.asText ? .text : .json) }
            if n == steps.count - 1 && step.asText { return (found.asText.map(SQLValue.text) ?? .null, .text) }
            t = found
        }
        return (.jsonText(t), .json)
    }
}
