import Foundation

// An incremental HTTP/1.1 request parser (RFC 9112): bytes in, requests or errors out.
//
// It is pure (no I/O, no clock, no globals) so that it can be unit-tested with any split of the
// input and fuzzed. The loopback server (`HTTPServer`) feeds it whatever `recv` returned and acts
// on the events it yields.

/// Size limits the request parser enforces.
public struct HTTPParserLimits: Sendable, Equatable {
    /// The request line plus header fields (and, separately, a chunked body's trailer section), in
    /// bytes, terminating empty line included. Over it: 431.
    package var maxHeadBytes: Int
    /// The decoded body, in bytes. Over it: 413.
    package var maxBodyBytes: Int
    /// One chunk-size line (size, extensions and line end), in bytes. Over it: 400.
    package var maxChunkLineBytes: Int

    /// Limits: 16 KiB of head, 10 MiB of body, 4 KiB per chunk-size line by default.
    public init(maxHeadBytes: Int = 16 * 1024, maxBodyBytes: Int = 10 * 1024 * 1024, maxChunkLineBytes: Int = 4 * 1024) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxChunkLineBytes = maxChunkLineBytes
    }
}

/// Why a request could not be parsed. Each kind maps to the status the server answers with
/// before it closes the connection.
package struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of malformed or refused input.
    package enum Kind: String, Sendable, Equatable, CaseIterable {
        /// Request line and header fields (or a trailer section) exceed `maxHeadBytes`: 431.
        case headTooLarge
        /// Content-Length or the decoded chunked body exceeds `maxBodyBytes`: 413.
        case bodyTooLarge
        /// The request line is not `method SP request-target SP HTTP-version`: 400.
        case malformedRequestLine
        /// An HTTP version other than 1.x: 505.
        case unsupportedVersion
        /// A header field line is malformed (no colon, space before the colon, bad name, control
        /// characters, obsolete line folding): 400.
        case malformedHeader
        /// Content-Length is not a number, or several values disagree: 400.
        case invalidContentLength
        /// Transfer-Encoding and Content-Length together, chunked not last, or Transfer-Encoding
        /// in an HTTP/1.0 request: 400 (request-smuggling guard).
        case conflictingFraming
        /// A transfer coding other than `chunked`: 501.
        case unsupportedTransferEncoding
        /// A chunk-size line, chunk terminator or trailer field is malformed: 400.
        case malformedChunk
        /// An HTTP/1.1 request without exactly one Host field: 400.
        case invalidHost
        /// An `Expect` value other than `100-continue`: 417.
        case unsupportedExpectation
    }

    package var kind: Kind
    /// What exactly was wrong, for the error body.
    package var detail: String

    package init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// The HTTP status the server answers with.
    package var status: Int {
        switch kind {
        case .headTooLarge: return 431
        case .bodyTooLarge: return 413
        case .unsupportedVersion: return 505
        case .unsupportedTransferEncoding: return 501
        case .unsupportedExpectation: return 417
        case .malformedRequestLine, .malformedHeader, .invalidContentLength, .conflictingFraming, .malformedChunk, .invalidHost:
            return 400
        }
    }

    /// `400 malformedRequestLine: …`.
    package var description: String { "\(status) \(kind.rawValue): \(detail)" }
}

/// An HTTP version from a request line.
package struct HTTPVersion: Sendable, Equatable, CustomStringConvertible {
    /// Major version (always 1 for a parsed request).
    package var major: Int
    /// Minor version (0 or 1; higher 1.x minors are kept as sent).
    package var minor: Int
    package init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    /// `HTTP/1.1`.
    package var description: String { "HTTP/\(major).\(minor)" }
}

/// A complete request as it arrived on the wire.
package struct HTTPParsedRequest: Sendable, Equatable {
    /// The method token exactly as sent (case-sensitive, as HTTP defines it).
    package var method: String
    /// The request-target exactly as sent (origin form `/path?query`, absolute form or `*`).
    package var target: String
    package var version: HTTPVersion
    /// The header fields in order (a chunked body's trailer fields are not merged in).
    package var headers: HTTPHeaders
    /// The body, decoded from its framing (Content-Length or chunked).
    package var body: Data

    /// Whether the connection may stay open after the response: HTTP/1.1 unless `Connection:
    /// close`; HTTP/1.0 only with `Connection: keep-alive`.
    package var keepAlive: Bool {
        var close = false, keep = false
        for value in headers.values("Connection") {
            for token in value.split(separator: ",") {
                let t = token.trimmingCharacters(in: .whitespaces)
                if t.caseInsensitiveEquals("close") { close = true }
                if t.caseInsensitiveEquals("keep-alive") { keep = true }
            }
        }
        if close { return false }
        return version.minor >= 1 || keep
    }

    /// The path and query of the target: the absolute form's scheme and authority removed.
    package var pathAndQuery: String {
        if target.utf8.first == UInt8(ascii: "/") { return target }
        for scheme in ["http://", "https://"] where target.count > scheme.count && target.lowercased().hasPrefix(scheme) {
            let rest = target.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let tail = String(rest[slash...])
            return tail.hasPrefix("?") ? "/" + tail : tail
        }
        return target
    }

    /// The request as the mock's handlers take it: path and query split and percent-decoded
    /// exactly as `HTTPRequest(method:target:)` does, working on bytes (the target is ASCII) rather
    /// than on characters, which is measurably cheaper per request.
    package var httpRequest: HTTPRequest {
        let target = pathAndQuery
        let u = target.utf8
        let question = u.firstIndex(of: UInt8(ascii: "?"))
        let path = HTTPRequest.percentDecoded(target[u.startIndex..<(question ?? u.endIndex)])
        var query: [(name: String, value: String)] = []
        if let question {
            let queryStart = u.index(after: question)
            let queryEnd = u.endIndex
            var partStart = queryStart
            var i = queryStart
            while true {
                let atEnd = i == queryEnd
                if atEnd || u[i] == UInt8(ascii: "&") {
                    if partStart < i {
                        if let eq = u[partStart..<i].firstIndex(of: UInt8(ascii: "=")) {
                            query.append(
                                (
                                    HTTPRequest.percentDecoded(target[partStart..<eq], plusAsSpace: true),
                                    HTTPRequest.percentDecoded(target[u.index(after: eq)..<i], plusAsSpace: true)
                                ))
                        } else {
                            query.append((HTTPRequest.percentDecoded(target[partStart..<i], plusAsSpace: true), ""))
                        }
                    }
                    if atEnd { break }
                    partStart = u.index(after: i)
                }
                i = u.index(after: i)
            }
        }
        return HTTPRequest(method: method, path: path, query: query, headers: headers, body: body)
    }
}

/// What the parser yields.
package enum HTTPParserEvent: Sendable, Equatable {
    case request(HTTPParsedRequest)
    /// The client sent `Expect: 100-continue` and waits before sending the body: answer
    /// `HTTP/1.1 100 Continue` and keep reading.
    case continueRequested
    /// The input is malformed or over a limit. The parser stops here: answer with
    /// `error.status` and close the connection.
    case failure(HTTPParseError)
}

/// An incremental HTTP/1.1 request parser.
///
/// Feed it bytes with `append` in pieces of any size and call `next()` until it returns nil
/// (it needs more bytes). Several requests in one piece (pipelining) come out one by one. After a
/// `.failure` the parser is finished: `next()` returns nil and `append` ignores its input.
/// Memory is bounded by the limits plus the last piece appended.
package struct HTTPRequestParser: Sendable {
    package let limits: HTTPParserLimits

    private var buffer: [UInt8] = []
    /// Index of the first unconsumed byte.
    private var start = 0
    /// Where the search for the end of the head (or of a line) resumes.
    private var scanFrom = 0
    private var state: State = .head

    private struct Head: Sendable {
        var method: String
        var target: String
        var version: HTTPVersion
        var headers: HTTPHeaders
    }

    private enum ChunkState: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer(bytes: Int)
    }

    private enum State: Sendable {
        case head
        case fixedBody(Head, length: Int, continuePending: Bool)
        case chunkedBody(Head, ChunkState, body: [UInt8], continuePending: Bool)
        case failed
    }

    /// A parser with the given limits.
    package init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.limits = limits
    }

    /// Whether bytes of a request not yet complete are buffered (an idle timeout then answers 408
    /// instead of closing silently).
    package var hasPartialRequest: Bool {
        switch state {
        case .head: return start < buffer.count
        case .fixedBody, .chunkedBody: return true
        case .failed: return false
        }
    }

    /// Whether the head of the current request is complete and its body is being received.
    package var isReadingBody: Bool {
        switch state {
        case .fixedBody, .chunkedBody: return true
        case .head, .failed: return false
        }
    }

    /// The memory the body being received will hold at the least: the whole declared length of a
    /// Content-Length body (known before any of it arrives, so a server can refuse it up front),
    /// or what a chunked body has decoded and buffered so far. Zero outside a body.
    package var bodyBytesCommitted: Int {
        switch state {
        case .fixedBody(_, let length, _): return max(length, buffer.count - start)
        case .chunkedBody(_, _, let body, _): return body.count + buffer.count - start
        case .head, .failed: return 0
        }
    }

    /// Whether the parser has failed and takes no more input.
    package var hasFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    /// Number of bytes buffered and not yet consumed.
    package var bufferedByteCount: Int { buffer.count - start }

    /// Takes the bytes buffered after the last request (the first frames of a connection that
    /// switched protocols); the parser is empty afterwards.
    package mutating func takeBufferedBytes() -> [UInt8] {
        let rest = Array(buffer[start...])
        buffer = []
        start = 0
        scanFrom = 0
        return rest
    }

    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if case .failed = state { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    package mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        if case .failed = state { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    private mutating func compact() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 256 * 1024)
            scanFrom -= start
            start = 0
        } else if start >= 4096 && start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
            scanFrom -= start
            start = 0
        }
    }

    private mutating func fail(_ kind: HTTPParseError.Kind, _ detail: String) -> HTTPParserEvent {
        state = .failed
        buffer = []
        start = 0
        scanFrom = 0
        return .failure(HTTPParseError(kind, detail))
    }

    /// The next event, or nil when more bytes are needed (or the parser has failed).
    package mutating func next() -> HTTPParserEvent? {
        while true {
            switch state {
            case .failed:
                return nil
            case .head:
                return parseHead()
            case .fixedBody(let head, let length, let continuePending):
                if continuePending && buffer.count - start < length {
                    state = .fixedBody(head, length: length, continuePending: false)
                    return .continueRequested
                }
                guard buffer.count - start >= length else { return nil }
                let body = Data(buffer[start..<(start + length)])
                start += length
                scanFrom = start
                state = .head
                return .request(HTTPParsedRequest(method: head.method, target: head.target, version: head.version, headers: head.headers, body: body))
            case .chunkedBody(let head, let chunk, var body, let continuePending):
                if continuePending && start == buffer.count {
                    state = .chunkedBody(head, chunk, body: body, continuePending: false)
                    return .continueRequested
                }
                // Take the state's body out so that appending to it does not copy.
                state = .chunkedBody(head, chunk, body: [], continuePending: false)
                switch stepChunked(head: head, chunk: chunk, body: &body) {
                case .needMore(let next):
                    state = .chunkedBody(head, next, body: body, continuePending: false)
                    return nil
                case .progressed(let next):
                    state = .chunkedBody(head, next, body: body, continuePending: false)
                    continue
                case .done:
                    state = .head
                    scanFrom = start
                    return .request(HTTPParsedRequest(method: head.method, target: head.target, version: head.version, headers: head.headers, body: Data(body)))
                case .failed(let event):
                    return event
                }
            }
        }
    }

    // MARK: Head

    private static let cr: UInt8 = 13, lf: UInt8 = 10, sp: UInt8 = 32, htab: UInt8 = 9, colon: UInt8 = 58

    /// Where the head ends, scanning from `scanFrom`.
    private enum HeadEnd { case found(Int), needMore, bareLineFeed }

    /// Finds the CRLF ending an empty line from `scanFrom`; `.found` holds the index after it.
    /// Every line must end with CRLF: a line feed without its carriage return is refused at once
    /// (lenient parsers that accept bare LF disagree with strict ones about where a request ends,
    /// the root of request smuggling; Supabase's gateway and this server answer 400).
    private mutating func findHeadEnd() -> HeadEnd {
        // Only the first `maxHeadBytes` bytes can hold the head's end: a bare LF further on is
        // past a head that is already too large (431), whatever pieces the bytes arrived in.
        let count = min(buffer.count, start + limits.maxHeadBytes)
        var i = max(scanFrom, start)
        let first = start
        let found: HeadEnd = buffer.withUnsafeBufferPointer { p in
            while i < count {
                if p[i] == Self.lf {
                    guard i > first && p[i - 1] == Self.cr else { return .bareLineFeed }
                    // An empty line: CRLF CRLF.
                    if i >= first + 3 && p[i - 2] == Self.lf { return .found(i + 1) }
                }
                i += 1
            }
            return .needMore
        }
        if case .found(let end) = found { scanFrom = end } else { scanFrom = count }
        return found
    }

    private mutating func parseHead() -> HTTPParserEvent? {
        // RFC 9112 §2.2: ignore empty lines (CRLF) received before the request line.
        while start < buffer.count && (buffer[start] == Self.cr || buffer[start] == Self.lf) {
            guard buffer[start] == Self.cr else {
                return fail(.malformedRequestLine, "bare LF before the request line (lines end with CRLF)")
            }
            guard start + 1 < buffer.count else { return nil }
            guard buffer[start + 1] == Self.lf else {
                return fail(.malformedRequestLine, "bare CR before the request line")
            }
            start += 2
        }
        scanFrom = max(scanFrom, start)
        let end: Int
        switch findHeadEnd() {
        case .found(let e): end = e
        case .bareLineFeed: return fail(.malformedHeader, "a line of the head ends with a bare LF (lines end with CRLF)")
        case .needMore:
            if buffer.count - start > limits.maxHeadBytes {
                return fail(.headTooLarge, "the request line and header fields exceed \(limits.maxHeadBytes) bytes")
            }
            return nil
        }
        if end - start > limits.maxHeadBytes {
            return fail(.headTooLarge, "the request line and header fields exceed \(limits.maxHeadBytes) bytes")
        }
        let headStart = start
        start = end
        scanFrom = end
        let result: Result<Head, HTTPParseError> = buffer.withUnsafeBufferPointer { p in
            Self.parseHeadLines(UnsafeBufferPointer(rebasing: p[headStart..<end]))
        }
        let head: Head
        switch result {
        case .failure(let e): return fail(e.kind, e.detail)
        case .success(let h): head = h
        }
        return frame(head)
    }

    /// Splits the head into lines (CRLF; `findHeadEnd` refused bare LF), parses the request line
    /// and the fields.
    private static func parseHeadLines(_ p: UnsafeBufferPointer<UInt8>) -> Result<Head, HTTPParseError> {
        var lines: [Range<Int>] = []
        lines.reserveCapacity(16) // a typical head, without regrowing on every request
        var lineStart = 0
        // Index loops over the base pointer here and below: the parser runs for every request,
        // and a debug build runs `enumerated()`, `allSatisfy` and `firstIndex` through generic
        // iterators that ask the runtime for metadata on every step.
        if let base = p.baseAddress {
            var i = 0
            while i < p.count {
                if base[i] == lf {
                    var lineEnd = i
                    if lineEnd > lineStart && base[lineEnd - 1] == cr { lineEnd -= 1 }
                    lines.append(lineStart..<lineEnd)
                    lineStart = i + 1
                }
                i += 1
            }
        }
        // The last line is the empty terminator.
        if let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else {
            return .failure(HTTPParseError(.malformedRequestLine, "empty request line"))
        }
        // Request line: method SP request-target SP HTTP-version.
        let rl = UnsafeBufferPointer(rebasing: p[requestLine])
        var spaces: [Int] = []
        spaces.reserveCapacity(2)
        if let base = rl.baseAddress {
            var i = 0
            while i < rl.count {
                let b = base[i]
                if b == sp {
                    spaces.append(i)
                } else if b < 0x21 || b == 0x7F {
                    return .failure(HTTPParseError(.malformedRequestLine, "control character 0x\(String(b, radix: 16)) in the request line"))
                }
                i += 1
            }
        }
        guard spaces.count == 2 else {
            return .failure(HTTPParseError(.malformedRequestLine, "expected 'METHOD TARGET HTTP/1.1', got \(spaces.count + 1) space-separated parts"))
        }
        let methodBytes = UnsafeBufferPointer(rebasing: rl[0..<spaces[0]])
        let targetBytes = UnsafeBufferPointer(rebasing: rl[(spaces[0] + 1)..<spaces[1]])
        let versionBytes = UnsafeBufferPointer(rebasing: rl[(spaces[1] + 1)...])
        guard !methodBytes.isEmpty, every(methodBytes, isTokenByte) else {
            return .failure(HTTPParseError(.malformedRequestLine, "the method is not a token"))
        }
        // Methods are case-sensitive (RFC 9110 §9.1): `get` is not GET. nginx, in front of every
        // Supabase service, refuses a method with a lowercase letter with 400
        // (ngx_http_parse_request_line accepts 'A'-'Z', '_' and '-' only).
        if !every(methodBytes, { $0 < 97 || $0 > 122 }) {
            return .failure(
                HTTPParseError(
                    .malformedRequestLine, "the method '\(String(decoding: methodBytes, as: UTF8.self))' has a lowercase letter (methods are case-sensitive)"))
        }
        guard !targetBytes.isEmpty, every(targetBytes, { $0 >= 0x21 && $0 < 0x7F }) else {
            return .failure(HTTPParseError(.malformedRequestLine, "the request target is empty or holds a byte outside visible ASCII"))
        }
        guard
            targetBytes[0] == UInt8(ascii: "/") || (targetBytes.count == 1 && targetBytes[0] == UInt8(ascii: "*"))
                || startsWithScheme(targetBytes)
        else {
            return .failure(HTTPParseError(.malformedRequestLine, "the request target must start with '/', be '*' or an absolute http(s) URL"))
        }
        // HTTP-version = "HTTP/" DIGIT "." DIGIT
        let v = Array(versionBytes)
        guard v.count == 8, v[0..<5].elementsEqual("HTTP/".utf8), isDigit(v[5]), v[6] == UInt8(ascii: "."), isDigit(v[7]) else {
            return .failure(HTTPParseError(.malformedRequestLine, "the version is not HTTP/<digit>.<digit>"))
        }
        let version = HTTPVersion(major: Int(v[5] - 48), minor: Int(v[7] - 48))
        guard version.major == 1 else {
            return .failure(HTTPParseError(.unsupportedVersion, "\(version) is not supported; this server speaks HTTP/1.1"))
        }
        var headers = HTTPHeaders()
        for range in lines.dropFirst() {
            let line = UnsafeBufferPointer(rebasing: p[range])
            if line.isEmpty { continue }
            if line[0] == sp || line[0] == htab {
                return .failure(HTTPParseError(.malformedHeader, "obsolete line folding (a field line starting with whitespace)"))
            }
            switch parseField(line) {
            case .success(let field): headers.add(field.0, field.1)
            case .failure(let e): return .failure(e)
            }
        }
        return .success(
            Head(
                method: String(decoding: methodBytes, as: UTF8.self), target: String(decoding: targetBytes, as: UTF8.self),
                version: version, headers: headers))
    }

    /// `name ":" OWS value OWS` with RFC 9110's character rules.
    private static func parseField(_ line: UnsafeBufferPointer<UInt8>) -> Result<(String, String), HTTPParseError> {
        guard let colonIndex = firstIndex(of: colon, in: line) else {
            return .failure(HTTPParseError(.malformedHeader, "a field line has no colon"))
        }
        let name = UnsafeBufferPointer(rebasing: line[0..<colonIndex])
        guard !name.isEmpty, every(name, isTokenByte) else {
            let why = name.last.map { $0 == sp || $0 == htab } == true ? "whitespace before the colon" : "the field name is not a token"
            return .failure(HTTPParseError(.malformedHeader, why))
        }
        var lo = colonIndex + 1, hi = line.count
        while lo < hi && (line[lo] == sp || line[lo] == htab) { lo += 1 }
        while hi > lo && (line[hi - 1] == sp || line[hi - 1] == htab) { hi -= 1 }
        let value = UnsafeBufferPointer(rebasing: line[lo..<hi])
        if let b = first(in: value, where: { ($0 < 0x20 && $0 != htab) || $0 == 0x7F }) {
            return .failure(
                HTTPParseError(.malformedHeader, "control character 0x\(String(b, radix: 16)) in the value of '\(String(decoding: name, as: UTF8.self))'"))
        }
        return .success((String(decoding: name, as: UTF8.self), fieldValue(value)))
    }

    /// A field value as text: UTF-8 when the bytes are valid UTF-8, else ISO-8859-1 (RFC 9110
    /// §5.5 obs-text), so that no byte is lost or replaced.
    static func fieldValue(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        if every(bytes, { $0 < 0x80 }) || text.utf8.elementsEqual(bytes) { return text }
        var scalars = String.UnicodeScalarView()
        for b in bytes { scalars.append(Unicode.Scalar(b)) }
        return String(scalars)
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }

    /// Whether every byte passes `test` (an index loop: see `parseHeadLines`).
    private static func every(_ p: UnsafeBufferPointer<UInt8>, _ test: (UInt8) -> Bool) -> Bool {
        first(in: p) { !test($0) } == nil
    }

    /// The first byte that passes `test`, if any (an index loop: see `parseHeadLines`).
    private static func first(in p: UnsafeBufferPointer<UInt8>, where test: (UInt8) -> Bool) -> UInt8? {
        guard let base = p.baseAddress else { return nil }
        var i = 0
        while i < p.count {
            if test(base[i]) { return base[i] }
            i += 1
        }
        return nil
    }

    /// The index of the first `byte` (an index loop: see `parseHeadLines`).
    private static func firstIndex(of byte: UInt8, in p: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = p.baseAddress else { return nil }
        var i = 0
        while i < p.count {
            if base[i] == byte { return i }
            i += 1
        }
        return nil
    }

    private static func startsWithScheme(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
        let lower = t.prefix(8).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        return lower.starts(with: "http://".utf8) || lower.starts(with: "https://".utf8)
    }

    /// tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
    @inline(__always)
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 48...57, 65...90, 97...122: return true
        case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: return true
        default: return false
        }
    }

    /// Decides the body's framing (RFC 9112 §6.3) and moves to the body state.
    private mutating func frame(_ head: Head) -> HTTPParserEvent? {
        let hosts = head.headers.values("Host")
        if head.version.minor >= 1 && hosts.count != 1 {
            return fail(.invalidHost, hosts.isEmpty ? "an HTTP/1.1 request must carry a Host field" : "\(hosts.count) Host fields")
        }
        var expectContinue = false
        for value in head.headers.values("Expect") {
            if value.trimmingCharacters(in: .whitespaces).caseInsensitiveEquals("100-continue") {
                expectContinue = head.version.minor >= 1
            } else {
                return fail(.unsupportedExpectation, "Expect: \(value) is not supported (only 100-continue)")
            }
        }
        let te = head.headers.values("Transfer-Encoding")
        let cl = head.headers.values("Content-Length")
        if !te.isEmpty {
            if head.version.minor == 0 {
                return fail(.conflictingFraming, "Transfer-Encoding in an HTTP/1.0 request")
            }
            if !cl.isEmpty {
                return fail(.conflictingFraming, "both Transfer-Encoding and Content-Length")
            }
            let codings = te.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard codings.last == "chunked" else {
                return fail(.conflictingFraming, "Transfer-Encoding must end with chunked, got '\(te.joined(separator: ", "))'")
            }
            if codings.filter({ $0 == "chunked" }).count > 1 {
                return fail(.conflictingFraming, "chunked applied more than once")
            }
            if codings.count > 1 {
                return fail(.unsupportedTransferEncoding, "transfer coding '\(codings.dropLast().joined(separator: ", "))' is not supported (only chunked)")
            }
            state = .chunkedBody(head, .size, body: [], continuePending: expectContinue)
            return next()
        }
        if !cl.isEmpty {
            var length: Int?
            for value in cl {
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let digits = part.trimmingCharacters(in: .whitespaces)
                    guard !digits.isEmpty, digits.utf8.allSatisfy(Self.isDigit) else {
                        return fail(.invalidContentLength, "Content-Length '\(value)' is not a non-negative integer")
                    }
                    // Over 18 digits cannot fit the limit anyway: treat as too large.
                    let n = digits.utf8.count > 18 ? Int.max : Int(digits)!
                    if let l = length, l != n {
                        return fail(.invalidContentLength, "Content-Length values disagree")
                    }
                    length = n
                }
            }
            let n = length!
            if n > limits.maxBodyBytes {
                return fail(.bodyTooLarge, "the body (Content-Length \(n == Int.max ? "over 10^18" : String(n))) exceeds \(limits.maxBodyBytes) bytes")
            }
            if n > 0 {
                state = .fixedBody(head, length: n, continuePending: expectContinue)
                return next()
            }
        }
        state = .head
        return .request(HTTPParsedRequest(method: head.method, target: head.target, version: head.version, headers: head.headers, body: Data()))
    }

    // MARK: Chunked body

    private enum ChunkStep {
        case needMore(ChunkState)
        case progressed(ChunkState)
        case done
        case failed(HTTPParserEvent)
    }

    /// Finds the next LF from `start`, looking at most `limit` bytes ahead; returns its index.
    private mutating func findLineEnd(limit: Int) -> (index: Int?, overLimit: Bool) {
        let end = min(buffer.count, start + limit)
        var i = max(scanFrom, start)
        while i < end {
            if buffer[i] == Self.lf { scanFrom = i + 1; return (i, false) }
            i += 1
        }
        scanFrom = i
        return (nil, buffer.count - start >= limit)
    }

    private mutating func stepChunked(head: Head, chunk: ChunkState, body: inout [UInt8]) -> ChunkStep {
        switch chunk {
        case .size:
            let (found, over) = findLineEnd(limit: limits.maxChunkLineBytes)
            guard let lf = found else {
                if over { return .failed(fail(.malformedChunk, "chunk-size line longer than \(limits.maxChunkLineBytes) bytes")) }
                return .needMore(.size)
            }
            guard lf > start && buffer[lf - 1] == Self.cr else {
                return .failed(fail(.malformedChunk, "chunk-size line ends with a bare LF (lines end with CRLF)"))
            }
            let lineEnd = lf - 1
            var i = start
            var size = 0
            var digits = 0
            var significant = 0
            while i < lineEnd, let d = buffer[i].hexDigitValue.map(Int.init) {
                if significant > 0 || d > 0 { significant += 1 }
                // Fifteen significant hex digits (2^60) are far past any limit and cannot overflow.
                if significant > 15 { return .failed(fail(.bodyTooLarge, "chunk size exceeds \(limits.maxBodyBytes) bytes")) }
                size = size * 16 + d
                digits += 1
                i += 1
            }
            guard digits > 0 else { return .failed(fail(.malformedChunk, "chunk size is not hexadecimal")) }
            // Optional BWS then chunk extensions: ";" name ["=" value] — skipped, but no control characters.
            while i < lineEnd && (buffer[i] == Self.sp || buffer[i] == Self.htab) { i += 1 }
            if i < lineEnd {
                guard buffer[i] == UInt8(ascii: ";") else { return .failed(fail(.malformedChunk, "unexpected byte after the chunk size")) }
                for b in buffer[i..<lineEnd] where (b < 0x20 && b != Self.htab) || b == 0x7F {
                    return .failed(fail(.malformedChunk, "control character in a chunk extension"))
                }
            }
            start = lf + 1
            scanFrom = start
            if body.count + size > limits.maxBodyBytes {
                return .failed(fail(.bodyTooLarge, "the chunked body exceeds \(limits.maxBodyBytes) bytes"))
            }
            return .progressed(size == 0 ? .trailer(bytes: 0) : .data(remaining: size))
        case .data(let remaining):
            let available = buffer.count - start
            if available == 0 { return .needMore(chunk) }
            let take = min(available, remaining)
            body.append(contentsOf: buffer[start..<(start + take)])
            start += take
            scanFrom = start
            return take == remaining ? .progressed(.dataEnd) : .needMore(.data(remaining: remaining - take))
        case .dataEnd:
            guard start < buffer.count else { return .needMore(.dataEnd) }
            guard buffer[start] == Self.cr else { return .failed(fail(.malformedChunk, "chunk data not followed by CRLF")) }
            guard start + 1 < buffer.count else { return .needMore(.dataEnd) }
            guard buffer[start + 1] == Self.lf else { return .failed(fail(.malformedChunk, "chunk data not followed by CRLF")) }
            start += 2
            scanFrom = start
            return .progressed(.size)
        case .trailer(let bytes):
            let room = limits.maxHeadBytes - bytes
            let (found, _) = findLineEnd(limit: room + 1)
            guard let lf = found else {
                if buffer.count - start > room { return .failed(fail(.headTooLarge, "the trailer section exceeds \(limits.maxHeadBytes) bytes")) }
                return .needMore(chunk)
            }
            let lineLength = lf + 1 - start
            if lineLength > room { return .failed(fail(.headTooLarge, "the trailer section exceeds \(limits.maxHeadBytes) bytes")) }
            guard lf > start && buffer[lf - 1] == Self.cr else {
                return .failed(fail(.malformedChunk, "trailer line ends with a bare LF (lines end with CRLF)"))
            }
            let lineEnd = lf - 1
            let lineStart = start
            start = lf + 1
            scanFrom = start
            if lineEnd == lineStart { return .done }
            if buffer[lineStart] == Self.sp || buffer[lineStart] == Self.htab {
                return .failed(fail(.malformedChunk, "obsolete line folding in the trailer section"))
            }
            let field = buffer.withUnsafeBufferPointer { p in Self.parseField(UnsafeBufferPointer(rebasing: p[lineStart..<lineEnd])) }
            if case .failure(let e) = field { return .failed(fail(.malformedChunk, "trailer field: \(e.detail)")) }
            if buffer[lineStart..<lineEnd].contains(Self.cr) { return .failed(fail(.malformedChunk, "bare CR in the trailer section")) }
            return .progressed(.trailer(bytes: bytes + lineLength))
        }
    }
}
