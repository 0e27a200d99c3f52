import Foundation

/// HTTP header fields: case-insensitive names, several values per name, insertion order kept.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in the order they were added, with their original spelling.
    package private(set) var fields: [(name: String, value: String)] = []

    public init() {}
    /// Headers from name/value pairs.
    public init(_ pairs: [(String, String)]) { for (n, v) in pairs { add(n, v) } }
    public init(dictionaryLiteral elements: (String, String)...) { for (n, v) in elements { add(n, v) } }

    /// Appends a field, keeping any existing one of the same name.
    public mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field of this name by one with `value` (or removes them when nil).
    public mutating func set(_ name: String, _ value: String?) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        if let value { fields.append((name, value)) }
    }

    /// The first value of a field, any case.
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set { set(name, newValue) }
    }

    /// Every value of a field, any case, in order.
    public func values(_ name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.count == b.fields.count && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension String {
    /// ASCII case-insensitive equality, as HTTP field names compare.
    @inlinable
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        // Field lookups run several times per request: the same spelling and a different length
        // are answered without a loop, and the loop indexes the bytes (a debug build runs
        // `zip`'s iterator through the runtime on every byte).
        if self == other { return true }
        guard utf8.count == other.utf8.count else { return false }
        var a = self, b = other
        return a.withUTF8 { p in
            b.withUTF8 { q in
                guard let x = p.baseAddress, let y = q.baseAddress else { return p.count == q.count }
                var i = 0
                while i < p.count {
                    let u = x[i], v = y[i]
                    if u != v && ((u >= 65 && u <= 90) ? u &+ 32 : u) != ((v >= 65 && v <= 90) ? v &+ 32 : v) { return false }
                    i += 1
                }
                return true
            }
        }
    }
}

/// A request as any transport hands it to the mock.
public struct HTTPRequest: Sendable {
    /// Upper-case method: GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS.
    public var method: String
    /// The percent-decoded path, e.g. `/rest/v1/cities`.
    public var path: String
    /// Query items in order, percent-decoded (`+` is not a space, as in PostgREST).
    public var query: [(name: String, value: String)]
    public var headers: HTTPHeaders
    /// The body bytes (empty when none).
    public var body: Data

    /// A request from its parts.
    public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: HTTPHeaders = [:], body: Data = Data()) {
        self.method = method.uppercased()
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// A request from a method and a path-and-query string such as `/rest/v1/cities?id=eq.berlin`.
    public init(method: String, target: String, headers: HTTPHeaders = [:], body: Data = Data()) {
        let (p, q) = HTTPRequest.splitTarget(target)
        self.init(method: method, path: p, query: q, headers: headers, body: body)
    }

    /// The first query value of a name.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// Splits and percent-decodes a request target.
    package static func splitTarget(_ target: String) -> (String, [(name: String, value: String)]) {
        // Split on the bytes `?`, `&` and `=` (ASCII: every index found is a character
        // boundary), as the real server's HTTP stack splits a target, with no grapheme breaking.
        // A `#` is kept: clients never send a fragment, and Warp (PostgREST's server) splits a
        // raw target at `?` only, so a `#` that arrives is part of the query
        // (JsonOperatorSpec.hs filters on a key named `!@#$%^&*_d`).
        let u = target.utf8
        var pathPart = Substring(target)
        var queryPart: Substring = ""
        if let q = u.firstIndex(of: 0x3F) {
            pathPart = target[..<q]
            queryPart = target[u.index(after: q)...]
        }
        let path = percentDecoded(pathPart)
        var items: [(name: String, value: String)] = []
        if !queryPart.isEmpty {
            let qu = queryPart.utf8
            var start = qu.startIndex
            while start < qu.endIndex {
                let end = qu[start...].firstIndex(of: 0x26) ?? qu.endIndex
                if start < end {
                    let part = queryPart[start..<end]
                    if let eq = part.utf8.firstIndex(of: 0x3D) {
                        items.append(
                            (percentDecoded(part[..<eq], plusAsSpace: true), percentDecoded(part[part.utf8.index(after: eq)...], plusAsSpace: true)))
                    } else {
                        items.append((percentDecoded(part, plusAsSpace: true), ""))
                    }
                }
                start = end < qu.endIndex ? qu.index(after: end) : end
            }
        }
        return (path, items)
    }

    /// Decodes `%XX` escapes (a malformed escape is kept literally, as PostgREST's parser sees
    /// it); invalid UTF-8 after decoding is repaired with U+FFFD rather than rejected. With
    /// `plusAsSpace` (a query's names and values) a literal `+` is a space, as every service's
    /// query parser reads it: PostgREST's `parseQueryReplacePlus True` (ApiRequest/QueryParams.hs),
    /// Go's `url.ParseQuery`, Node's `querystring`; `%2B` stays a plus.
    package static func percentDecoded(_ s: Substring, plusAsSpace: Bool = false) -> String {
        let u = s.utf8
        let plus = plusAsSpace && u.contains(0x2B)
        guard u.contains(0x25) || plus else { return String(s) }
        var out: [UInt8] = []
        out.reserveCapacity(u.count)
        var i = u.startIndex
        func hex(_ c: UInt8) -> UInt8? { c.hexDigitValue }
        while i < u.endIndex {
            let c = u[i]
            if c == 0x25 {
                let j = u.index(after: i)
                if j < u.endIndex, let hi = hex(u[j]) {
                    let k = u.index(after: j)
                    if k < u.endIndex, let lo = hex(u[k]) {
                        out.append(hi << 4 | lo)
                        i = u.index(after: k)
                        continue
                    }
                }
            }
            out.append(plus && c == 0x2B ? 0x20 : c)
            i = u.index(after: i)
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A response from the mock.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: Data

    /// A response from its parts.
    public init(status: Int, headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response (`application/json; charset=utf-8`).
    public static func json(_ status: Int, _ value: JSONValue, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var h = headers
        if h["Content-Type"] == nil { h["Content-Type"] = "application/json; charset=utf-8" }
        return HTTPResponse(status: status, headers: h, body: value.data())
    }

    /// A JSON response from already-serialised text.
    public static func jsonText(_ status: Int, _ text: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var h = headers
        if h["Content-Type"] == nil { h["Content-Type"] = "application/json; charset=utf-8" }
        return HTTPResponse(status: status, headers: h, body: Data(text.utf8))
    }

    /// The body parsed as JSON, or nil.
    public var jsonBody: JSONValue? { try? JSONValue.parse(body) }
    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// The standard reason phrase for a status code.
package func httpReasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 201: return "Created"
    case 204: return "No Content"
    case 206: return "Partial Content"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 406: return "Not Acceptable"
    case 408: return "Request Timeout"
    case 409: return "Conflict"
    case 413: return "Payload Too Large"
    case 415: return "Unsupported Media Type"
    case 416: return "Range Not Satisfiable"
    case 422: return "Unprocessable Entity"
    case 429: return "Too Many Requests"
    case 431: return "Request Header Fields Too Large"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 503: return "Service Unavailable"
    default: return "Status \(status)"
    }
}
