import Foundation

/// MD5 (RFC 1321), for S3-style ETags of stored objects.
enum MD5 {
    static let s: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21
    ]
    static let k: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    /// The digest of some bytes. The whole 64-byte blocks are read where the bytes lie and only
    /// the padded tail is copied, through pointers and same-type shifts: a stored object can be
    /// megabytes, and in a debug build every `Array` subscript and generic `<<` is a call.
    static func digest(_ data: Data) -> [UInt8] {
        var h: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
        let n = data.count
        data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, n >= 64 else { return }
            for block in 0..<n / 64 { compress(base + block * 64, &h) }
        }
        // The tail: the bytes after the last whole block, 0x80, zeros to 56 mod 64, the length in bits.
        var tail = [UInt8](data.suffix(n % 64))
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        let bits = UInt64(n) &* 8
        for i in 0..<8 { tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(8 * i))) }
        tail.withUnsafeBufferPointer { p in
            for block in 0..<p.count / 64 { compress(p.baseAddress! + block * 64, &h) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(16)
        for v in [h.0, h.1, h.2, h.3] { for i: UInt32 in 0..<4 { out.append(UInt8(truncatingIfNeeded: v &>> (8 &* i))) } }
        return out
    }

    /// One 64-byte block into the state (RFC 1321 section 3.4).
    private static func compress(_ p: UnsafePointer<UInt8>, _ h: inout (UInt32, UInt32, UInt32, UInt32)) {
        var m: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &m) { w in
            let words = w.bindMemory(to: UInt32.self).baseAddress!
            for i in 0..<16 {
                let j = i &* 4
                words[i] = UInt32(p[j]) | UInt32(p[j &+ 1]) &<< 8 | UInt32(p[j &+ 2]) &<< 16 | UInt32(p[j &+ 3]) &<< 24
            }
        }
        withUnsafeBytes(of: &m) { w in
            let words = w.bindMemory(to: UInt32.self).baseAddress!
            k.withUnsafeBufferPointer { kb in
                s.withUnsafeBufferPointer { sb in
                    let k = kb.baseAddress!, s = sb.baseAddress!
                    var (a, b, c, d) = h
                    for i in 0..<64 {
                        var f: UInt32
                        let g: Int
                        if i < 16 {
                            f = (b & c) | (~b & d); g = i
                        } else if i < 32 {
                            f = (d & b) | (~d & c); g = (5 &* i &+ 1) & 15
                        } else if i < 48 {
                            f = b ^ c ^ d; g = (3 &* i &+ 5) & 15
                        } else {
                            f = c ^ (b | ~d); g = (7 &* i) & 15
                        }
                        f = f &+ a &+ k[i] &+ words[g]
                        a = d; d = c; c = b
                        b = b &+ ((f &<< s[i]) | (f &>> (32 &- s[i])))
                    }
                    h = (h.0 &+ a, h.1 &+ b, h.2 &+ c, h.3 &+ d)
                }
            }
        }
    }

    /// The lower-case hex digest.
    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in digest(data) { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }
}

/// One part of a `multipart/form-data` body.
struct FormPart {
    /// The `name` of its Content-Disposition.
    var name: String
    /// The `filename`, for file parts.
    var filename: String?
    /// The part's Content-Type header.
    var contentType: String?
    var data: Data
}

/// Why a multipart body could not be read (the messages of busboy, Storage's parser).
struct MultipartError: Error, CustomStringConvertible {
    var description: String
}

/// A `multipart/form-data` reader (RFC 7578): parts separated by `--boundary`, CRLF line ends.
enum Multipart {
    /// The boundary parameter of a Content-Type header.
    static func boundary(_ contentType: String) -> String? {
        for param in contentType.split(separator: ";").dropFirst() {
            let kv = param.split(separator: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            var v = kv[1].trimmingCharacters(in: .whitespaces)
            if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
            return v.isEmpty ? nil : v
        }
        return nil
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        var i = start
        let last = hay.count - needle.count
        while i <= last {
            if hay[i] == needle[0] {
                var j = 1
                while j < needle.count && hay[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    /// Parses a body; throws with busboy's messages on a malformed one.
    static func parse(_ body: Data, contentType: String) throws -> [FormPart] {
        guard let b = boundary(contentType) else { throw MultipartError(description: "Multipart: Boundary not found") }
        let bytes = [UInt8](body)
        let delimiter = Array("--\(b)".utf8)
        guard var pos = find(delimiter, in: bytes, from: 0) else { throw MultipartError(description: "Unexpected end of form") }
        var parts: [FormPart] = []
        while true {
            pos += delimiter.count
            if pos + 2 <= bytes.count, bytes[pos] == 0x2D, bytes[pos + 1] == 0x2D { return parts } // closing "--"
            guard pos + 2 <= bytes.count, bytes[pos] == 0x0D, bytes[pos + 1] == 0x0A else { throw MultipartError(description: "Unexpected end of form") }
            pos += 2
            guard let headerEnd = find([0x0D, 0x0A, 0x0D, 0x0A], in: bytes, from: pos) else { throw MultipartError(description: "Unexpected end of form") }
            let headerText = String(decoding: bytes[pos..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = find([0x0D, 0x0A] + delimiter, in: bytes, from: contentStart) else { throw MultipartError(description: "Unexpected end of form") }
            var part = FormPart(name: "", filename: nil, contentType: nil, data: Data(bytes[contentStart..<next]))
            for line in headerText.components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-type" { part.contentType = value }
                if name == "content-disposition" {
                    for p in value.split(separator: ";").dropFirst() {
                        let kv = p.split(separator: "=", maxSplits: 1)
                        guard kv.count == 2 else { continue }
                        let k = kv[0].trimmingCharacters(in: .whitespaces).lowercased()
                        var v = kv[1].trimmingCharacters(in: .whitespaces)
                        if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
                        if k == "name" { part.name = v }
                        if k == "filename" { part.filename = v }
                    }
                }
            }
            parts.append(part)
            pos = next + 2
        }
    }
}
