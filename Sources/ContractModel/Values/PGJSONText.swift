import Foundation

/// A value of a `json` (not `jsonb`) column: PostgreSQL stores the input text exactly
/// (white space, key order, duplicate keys, number spellings) and prints it back verbatim
/// (`json_in`/`json_out`), so `row_to_json`/`json_agg` put it in a response as it was written.
/// `value` is the document read as jsonb reads it (the last of duplicate keys kept), used
/// wherever PostgreSQL converts to jsonb (`::jsonb`, PostgREST's embeds).
package struct PGJSONText: Sendable, Hashable {
    /// The stored text, as `json_out` prints it.
    package var text: String
    /// The document the text holds.
    package var value: JSONValue

    /// A value from its text and the document it holds (the caller has parsed it).
    package init(text: String, value: JSONValue) {
        self.text = text
        self.value = value
    }

    /// A value from JSON text; nil when the text is not JSON.
    package init?(text: String) {
        guard let v = try? JSONValue.parse(text) else { return nil }
        self.init(text: text, value: v)
    }

    /// Two json values are the same stored value when their texts are equal (PostgreSQL has no
    /// `json = json`; this is the identity the mock's row bookkeeping needs).
    package static func == (a: PGJSONText, b: PGJSONText) -> Bool { a.text == b.text }
    package func hash(into h: inout Hasher) { h.combine(text) }

    /// `json -> 'key'`: the member's text as written, the last of duplicate keys
    /// (jsonfuncs.c `json_object_field` walks every member and keeps the last match); nil when
    /// this is not an object or has no such key.
    package func member(_ key: String) -> PGJSONText? {
        let bytes = Array(text.utf8)
        var i = Self.skipWS(bytes, 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        var found: Range<Int>?
        while true {
            i = Self.skipWS(bytes, i)
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { break }
            let keyEnd = Self.skipValue(bytes, i)
            let name = (try? JSONValue.parse(Data(bytes[i..<keyEnd])))?.stringValue
            i = Self.skipWS(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = Self.skipWS(bytes, i + 1)
            let end = Self.skipValue(bytes, i)
            if name == key { found = i..<end }
            i = Self.skipWS(bytes, end)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
            i += 1
        }
        return found.flatMap { Self.sub(bytes, $0) }
    }

    /// `json -> n`: the element's text as written, counting from the end when negative; nil
    /// when this is not an array or the index is out of range.
    package func element(_ index: Int) -> PGJSONText? {
        let bytes = Array(text.utf8)
        var i = Self.skipWS(bytes, 0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "[") else { return nil }
        i = Self.skipWS(bytes, i + 1)
        var spans: [Range<Int>] = []
        if i < bytes.count, bytes[i] != UInt8(ascii: "]") {
            while i < bytes.count {
                let end = Self.skipValue(bytes, i)
                spans.append(i..<end)
                i = Self.skipWS(bytes, end)
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
                i = Self.skipWS(bytes, i + 1)
            }
        }
        let k = index < 0 ? spans.count + index : index
        guard k >= 0, k < spans.count else { return nil }
        return Self.sub(bytes, spans[k])
    }

    /// `json ->> …` of this value: a string's contents, NULL (nil) for JSON `null`, else the
    /// value's text as written (`2.50`, `[2 , 3]`).
    package var asText: String? {
        switch value {
        case .null: return nil
        case .string(let s): return s
        default: return text.trimmingCharacters(in: Self.whiteSpace)
        }
    }

    /// The text each member of a write's body has, per row, as PostgreSQL receives it through
    /// `json_to_record(set)` (PostgREST's `fromJsonBodyF` sends the body as `json` unless
    /// `Prefer: missing=default` makes it `jsonb`): an object or array is the sub-document's
    /// text as it appears in the body, a number or boolean its token; the last of duplicate
    /// keys wins. A string is not the body's text: `populate_scalar` de-escapes it and writes it
    /// back with `escape_json` (so `"\u0041\/"` arrives as `"A/"`); callers rebuild those from
    /// the parsed value. nil when the body is neither an object nor an array.
    package static func bodyMembers(_ body: Data) -> [[String: String]]? {
        let bytes = Array(body)
        var i = skipWS(bytes, 0)
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "{") { return [objectMembers(bytes, i)] }
        guard bytes[i] == UInt8(ascii: "[") else { return nil }
        var rows: [[String: String]] = []
        i = skipWS(bytes, i + 1)
        while i < bytes.count, bytes[i] != UInt8(ascii: "]") {
            let end = skipValue(bytes, i)
            rows.append(bytes[i] == UInt8(ascii: "{") ? objectMembers(bytes, i) : [:])
            i = skipWS(bytes, end)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
            i = skipWS(bytes, i + 1)
        }
        return rows
    }

    private static func objectMembers(_ bytes: [UInt8], _ start: Int) -> [String: String] {
        var out: [String: String] = [:]
        var i = start + 1
        while true {
            i = skipWS(bytes, i)
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { break }
            let keyEnd = skipValue(bytes, i)
            let name = (try? JSONValue.parse(Data(bytes[i..<keyEnd])))?.stringValue
            i = skipWS(bytes, keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { break }
            i = skipWS(bytes, i + 1)
            let end = skipValue(bytes, i)
            if let name { out[name] = String(decoding: bytes[i..<end], as: UTF8.self) }
            i = skipWS(bytes, end)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { break }
            i += 1
        }
        return out
    }

    private static let whiteSpace = CharacterSet(charactersIn: " \t\n\r")

    private static func sub(_ bytes: [UInt8], _ r: Range<Int>) -> PGJSONText? {
        PGJSONText(text: String(decoding: bytes[r], as: UTF8.self))
    }

    private static func skipWS(_ b: [UInt8], _ start: Int) -> Int {
        var i = start
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
        return i
    }

    /// The end of the value starting at `start` in text already known to be JSON.
    private static func skipValue(_ b: [UInt8], _ start: Int) -> Int {
        var i = start
        guard i < b.count else { return i }
        switch b[i] {
        case UInt8(ascii: "\""):
            i += 1
            while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
            return min(i + 1, b.count)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while i < b.count {
                switch b[i] {
                case UInt8(ascii: "\""):
                    i = skipValue(b, i)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
            return i
        default:
            while i < b.count, !",}] \t\n\r".utf8.contains(b[i]) { i += 1 }
            return i
        }
    }
}
