import Foundation

/// PostgreSQL's `json_strip_nulls` on a json text, which PostgREST applies for
/// `application/vnd.pgrst.array+json;nulls=stripped` and `…object+json;nulls=stripped`
/// (Query/SqlFragment.hs `addNullsToSnip`): object members whose value is null are removed at any
/// depth (array elements stay), and the text is re-emitted without whitespace, keys in order.
enum NullStripping {
    static func strip(_ text: String) -> String {
        var p = Reader(bytes: Array(text.utf8))
        var out: [UInt8] = []
        out.reserveCapacity(p.bytes.count)
        p.value(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        mutating func skip() { while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 } }

        /// Copies one string token (quotes included).
        mutating func string(into out: inout [UInt8]) {
            let start = i
            i += 1
            while i < bytes.count, bytes[i] != 0x22 { i += bytes[i] == 0x5C ? 2 : 1 }
            i = min(i + 1, bytes.count)
            out += bytes[start..<i]
        }

        /// Copies one value; true when it was `null`.
        @discardableResult
        mutating func value(into out: inout [UInt8]) -> Bool {
            skip()
            guard i < bytes.count else { return false }
            switch bytes[i] {
            case 0x7B: // {
                i += 1
                out.append(0x7B)
                var first = true
                while true {
                    skip()
                    if i >= bytes.count { break }
                    if bytes[i] == 0x7D { i += 1; break }
                    if bytes[i] == 0x2C { i += 1; continue }
                    var member: [UInt8] = []
                    string(into: &member)
                    skip()
                    if i < bytes.count, bytes[i] == 0x3A { i += 1 }
                    member.append(0x3A)
                    if !value(into: &member) {
                        if !first { out.append(0x2C) }
                        out += member
                        first = false
                    }
                }
                out.append(0x7D)
                return false
            case 0x5B: // [
                i += 1
                out.append(0x5B)
                var first = true
                while true {
                    skip()
                    if i >= bytes.count { break }
                    if bytes[i] == 0x5D { i += 1; break }
                    if bytes[i] == 0x2C { i += 1; continue }
                    if !first { out.append(0x2C) }
                    if value(into: &out) { out += Array("null".utf8) }
                    first = false
                }
                out.append(0x5D)
                return false
            case 0x22:
                string(into: &out)
                return false
            default:
                let start = i
                while i < bytes.count, ![0x2C, 0x7D, 0x5D, 0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
                let token = bytes[start..<i]
                if token.elementsEqual("null".utf8) { return true }
                out += token
                return false
            }
        }
    }
}
