import Foundation

/// The `Content-Location` PostgREST puts on a read: `/<table>` and, when the request had a query
/// string, `?` and its canonical form — parameters sorted by name (stable), a repeated name's
/// values joined with `,` in request order, names and values percent-encoded byte by byte with
/// upper-case hex except ASCII letters, digits and `-_.~` (Response.hs, with `qsCanonical` from
/// ApiRequest/QueryParams.hs built by `urlEncodeVars`).
enum CanonicalLocation {
    /// The header value for a read of `table` with the decoded query `items`.
    static func location(table: String, query items: [(name: String, value: String)]) -> String {
        guard !items.isEmpty else { return "/" + table }
        let sorted = items.enumerated().sorted { a, b in
            a.element.name == b.element.name ? a.offset < b.offset : a.element.name.utf8.lexicographicallyPrecedes(b.element.name.utf8)
        }.map(\.element)
        var groups: [(name: String, values: [String])] = []
        for item in sorted {
            if let last = groups.last, last.name == item.name {
                groups[groups.count - 1].values.append(item.value)
            } else {
                groups.append((item.name, [item.value]))
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(table.utf8.count + 2 + items.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 } * 2)
        out.append(UInt8(ascii: "/"))
        out.append(contentsOf: table.utf8)
        out.append(UInt8(ascii: "?"))
        for (i, g) in groups.enumerated() {
            if i > 0 { out.append(UInt8(ascii: "&")) }
            encode(g.name, into: &out)
            out.append(UInt8(ascii: "="))
            for (j, v) in g.values.enumerated() {
                if j > 0 { out.append(UInt8(ascii: ",")) }
                encode(v, into: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `s` to `out` as `urlEncode` of Haskell's HTTP package encodes its UTF-8 bytes.
    static func encode(_ s: String, into out: inout [UInt8]) {
        for b in s.utf8 {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x2E, 0x7E: out.append(b)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigit(b >> 4))
                out.append(hexDigit(b & 0xF))
            }
        }
    }

    /// The upper-case hex digit of a nibble.
    private static func hexDigit(_ n: UInt8) -> UInt8 { n < 10 ? 0x30 + n : 0x37 + n }
}
