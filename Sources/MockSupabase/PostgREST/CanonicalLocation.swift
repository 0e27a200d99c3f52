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
        let query = groups.map { g in encode(g.name) + "=" + g.values.map(encode).joined(separator: ",") }.joined(separator: "&")
        return "/" + table + "?" + query
    }

    /// `urlEncode` of Haskell's HTTP package over the UTF-8 bytes.
    static func encode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F, 0x2E, 0x7E: out.unicodeScalars.append(Unicode.Scalar(b))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "%")))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(b & 0xF)]))
            }
        }
        return out
    }
}
