import Foundation

/// Properties every correct incremental request parser has, checked on one input. The fuzz
/// target (`scripts/fuzz-http`) traps on any violation; the unit tests replay the seed corpus and
/// every saved crash through the same check, and show it rejecting deliberately wrong parsers.
package enum HTTPParserProperties {
    /// A parser under test: feeds the pieces in order to one parser and collects every event
    /// (calling `next()` until nil after each piece). Pieces are slices of the one input, so a
    /// byte-by-byte split costs no allocation per byte.
    package typealias Parse = @Sendable (_ pieces: [ArraySlice<UInt8>], _ limits: HTTPParserLimits) -> [HTTPParserEvent]

    /// `HTTPRequestParser` driven as the server drives it.
    package static let standardParse: Parse = { pieces, limits in
        var parser = HTTPRequestParser(limits: limits)
        var events: [HTTPParserEvent] = []
        for piece in pieces {
            piece.withUnsafeBytes { parser.append($0) }
            while let e = parser.next() { events.append(e) }
        }
        return events
    }

    /// How the server turns a parsed request into the handler's `HTTPRequest`.
    package typealias HandlerView = @Sendable (HTTPParsedRequest) -> HTTPRequest

    /// `HTTPParsedRequest.httpRequest`.
    package static let standardView: HandlerView = { $0.httpRequest }

    /// Limits small enough for a fuzzer to reach every limit path with short inputs.
    package static let smallLimits = HTTPParserLimits(maxHeadBytes: 256, maxBodyBytes: 512, maxChunkLineBytes: 32)

    /// Checks `input` under `limits`; returns one line per violated property (empty when all hold).
    ///
    /// 1. Split invariance: the input whole, byte by byte and in seeded random pieces gives the
    ///    same requests and failure (`continueRequested` aside, which depends on timing).
    /// 2. A failure is the last event, and at most one.
    /// 3. Every request is within the limits and well formed: token method, visible-ASCII target,
    ///    HTTP/1.x, token field names, no CR, LF or NUL in values; its handler view (path and
    ///    query) equals `HTTPRequest(method:target:)`'s.
    /// 4. Round trip: a request re-serialised with Content-Length framing parses back equal.
    package static func violations(
        of input: [UInt8], limits: HTTPParserLimits = HTTPParserLimits(), seed: UInt64 = 0x5EED,
        parse: Parse = standardParse, view: HandlerView = standardView
    ) -> [String] {
        var problems: [String] = []
        let whole = parse([input[...]], limits).filter { $0 != .continueRequested }
        let bytewise = parse(input.indices.map { input[$0...$0] }, limits).filter { $0 != .continueRequested }
        let random = parse(randomPieces(input, seed: seed), limits).filter { $0 != .continueRequested }
        if bytewise != whole { problems.append("split invariance: byte-by-byte gives \(summary(bytewise)), whole input gives \(summary(whole))") }
        if random != whole { problems.append("split invariance: random pieces give \(summary(random)), whole input gives \(summary(whole))") }

        for (i, event) in whole.enumerated() {
            guard case .request(let r) = event else {
                if i != whole.count - 1 { problems.append("event \(i): a failure is followed by \(whole.count - 1 - i) more event(s)") }
                continue
            }
            problems += requestProblems(r, limits: limits, view: view).map { "request \(i): \($0)" }
            // The round trip checks meaning, not limits: re-encoding may lengthen the head
            // (CRLF for LF, a space after colons, ISO-8859-1 bytes as two-byte UTF-8).
            let canonical = canonicalBytes(r)
            let again = parse(
                [canonical[...]],
                HTTPParserLimits(
                    maxHeadBytes: canonical.count + 1, maxBodyBytes: limits.maxBodyBytes,
                    maxChunkLineBytes: limits.maxChunkLineBytes)
            )
            .filter { $0 != .continueRequested }
            let expected = withoutFraming(r)
            if again.count != 1 {
                problems.append("request \(i): round trip gives \(summary(again))")
            } else if case .request(let back) = again[0], withoutFraming(back) == expected {
                // round trip holds
            } else {
                problems.append("request \(i): round trip gives \(summary(again)), expected \(summary([.request(expected)]))")
            }
        }
        return problems
    }

    static func requestProblems(_ r: HTTPParsedRequest, limits: HTTPParserLimits, view: HandlerView) -> [String] {
        var p: [String] = []
        if r.body.count > limits.maxBodyBytes { p.append("body of \(r.body.count) bytes over the limit \(limits.maxBodyBytes)") }
        if r.method.isEmpty || !r.method.utf8.allSatisfy(HTTPRequestParser.isTokenByte) { p.append("method '\(r.method)' is not a token") }
        if r.target.isEmpty || !r.target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { p.append("target '\(r.target)' is not visible ASCII") }
        if r.version.major != 1 || !(0...9).contains(r.version.minor) { p.append("version \(r.version)") }
        for (name, value) in r.headers.fields {
            if name.isEmpty || !name.utf8.allSatisfy(HTTPRequestParser.isTokenByte) { p.append("field name '\(name)' is not a token") }
            if value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) { p.append("field '\(name)' holds CR, LF or NUL") }
            if value.first == " " || value.last == " " { p.append("field '\(name)' keeps surrounding whitespace") }
        }
        // The handler's view matches the one every transport builds from a target string.
        let fast = view(r), reference = HTTPRequest(method: r.method, target: r.pathAndQuery)
        if fast.path != reference.path || fast.method != reference.method
            || !fast.query.elementsEqual(reference.query, by: { $0.name == $1.name && $0.value == $1.value })
        {
            p.append(
                "handler view of '\(r.target)': path '\(fast.path)' query \(fast.query), HTTPRequest(target:) gives '\(reference.path)' \(reference.query)")
        }
        return p
    }

    /// The request with Content-Length framing (Transfer-Encoding and Content-Length fields dropped,
    /// one Content-Length added when there is a body).
    static func canonicalBytes(_ r: HTTPParsedRequest) -> [UInt8] {
        var out = Array("\(r.method) \(r.target) \(r.version)\r\n".utf8)
        for (name, value) in withoutFraming(r).headers.fields {
            out += Array(name.utf8) + Array(": ".utf8)
            // A value decoded as ISO-8859-1 re-encodes as valid UTF-8, which decodes to the same text.
            out += Array(value.utf8) + [13, 10]
        }
        if !r.body.isEmpty { out += Array("Content-Length: \(r.body.count)\r\n".utf8) }
        out += [13, 10]
        out += r.body
        return out
    }

    static func withoutFraming(_ r: HTTPParsedRequest) -> HTTPParsedRequest {
        var copy = r
        copy.headers = HTTPHeaders(
            r.headers.fields.filter {
                !$0.name.caseInsensitiveEquals("Content-Length") && !$0.name.caseInsensitiveEquals("Transfer-Encoding")
            }.map { ($0.name, $0.value) })
        return copy
    }

    /// Pieces of random sizes (1 to 64 bytes) from a SplitMix64 stream seeded by `seed`.
    package static func randomPieces(_ input: [UInt8], seed: UInt64) -> [ArraySlice<UInt8>] {
        var random = SeededRandom(seed: seed)
        var pieces: [ArraySlice<UInt8>] = []
        var i = 0
        while i < input.count {
            let n = Int(random.next() % 64) + 1
            pieces.append(input[i..<min(input.count, i + n)])
            i += n
        }
        return pieces
    }

    static func summary(_ events: [HTTPParserEvent]) -> String {
        let parts = events.map { e -> String in
            switch e {
            case .request(let r): return "request(\(r.method) \(r.target) \(r.version), \(r.headers.fields.count) fields, \(r.body.count)-byte body)"
            case .continueRequested: return "continue"
            case .failure(let f): return "failure(\(f))"
            }
        }
        return "[" + parts.joined(separator: ", ") + "]"
    }
}
