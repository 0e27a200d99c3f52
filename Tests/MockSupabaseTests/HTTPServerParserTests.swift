import Foundation
import XCTest
@testable import MockSupabase

/// The incremental request parser on its own: bytes in, events out.
final class HTTPServerParserTests: XCTestCase {
    private func events(_ text: String, limits: HTTPParserLimits = HTTPParserLimits()) -> [HTTPParserEvent] {
        events(Array(text.utf8), limits: limits)
    }

    private func events(_ bytes: [UInt8], limits: HTTPParserLimits = HTTPParserLimits(), pieces: Int? = nil) -> [HTTPParserEvent] {
        var parser = HTTPRequestParser(limits: limits)
        var out: [HTTPParserEvent] = []
        let size = pieces ?? max(bytes.count, 1)
        var i = 0
        repeat {
            let piece = Array(bytes[i..<min(bytes.count, i + size)])
            parser.append(contentsOf: piece)
            while let e = parser.next() { out.append(e) }
            i += size
        } while i < bytes.count
        return out
    }

    private func requests(_ events: [HTTPParserEvent]) -> [HTTPParsedRequest] {
        events.compactMap { if case .request(let r) = $0 { return r } else { return nil } }
    }

    private func failure(_ events: [HTTPParserEvent], file: StaticString = #filePath, line: UInt = #line) -> HTTPParseError? {
        guard case .failure(let f)? = events.last else {
            XCTFail("expected a failure, got \(events)", file: file, line: line)
            return nil
        }
        return f
    }

    // MARK: Requests

    func testSimpleGet() throws {
        let e = events("GET /rest/v1/cities?continent=eq.Europe HTTP/1.1\r\nHost: 127.0.0.1\r\napikey:  k  \r\n\r\n")
        XCTAssertEqual(e.count, 1)
        let r = try XCTUnwrap(requests(e).first)
        XCTAssertEqual(r.method, "GET")
        XCTAssertEqual(r.target, "/rest/v1/cities?continent=eq.Europe")
        XCTAssertEqual(r.version, HTTPVersion(major: 1, minor: 1))
        XCTAssertEqual(r.headers["APIKEY"], "k", "field values lose surrounding whitespace; names compare in any case")
        XCTAssertTrue(r.keepAlive)
        XCTAssertTrue(r.body.isEmpty)
        let h = r.httpRequest
        XCTAssertEqual(h.path, "/rest/v1/cities")
        XCTAssertEqual(h.queryValue("continent"), "eq.Europe")
    }

    /// A query's `+` is a space and `%2B` a plus, in names and values, on the socket parser and
    /// on a target split in process alike (PostgREST `parseQueryReplacePlus True`); the path
    /// keeps its `+`.
    func testQueryPlusIsASpace() throws {
        let target = "/rest/v1/a+b?start_time=gt.20250101+00:00&x%2By=c%2Bd&+k+=v"
        let socket = try XCTUnwrap(requests(events("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n")).first).httpRequest
        let inProcess = HTTPRequest(method: "GET", target: target)
        for r in [socket, inProcess] {
            XCTAssertEqual(r.path, "/rest/v1/a+b")
            XCTAssertEqual(r.queryValue("start_time"), "gt.20250101 00:00")
            XCTAssertEqual(r.queryValue("x+y"), "c+d")
            XCTAssertEqual(r.queryValue(" k "), "v")
        }
        // Mutant: decoding escapes only (the earlier rule) keeps the plus, which PostgREST does not.
        XCTAssertNotEqual(HTTPRequest.percentDecoded("gt.20250101+00:00"), socket.queryValue("start_time"))
    }

    func testPipelinedRequestsComeOutOneByOne() {
        let text = "GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nxyzHEAD /c HTTP/1.1\r\nHost: h\r\n\r\n"
        let r = requests(events(text))
        XCTAssertEqual(r.map(\.method), ["GET", "POST", "HEAD"])
        XCTAssertEqual(r.map(\.target), ["/a", "/b", "/c"])
        XCTAssertEqual(r[1].body, Data("xyz".utf8))
    }

    func testEverySplitGivesTheSameRequests() {
        let text =
            "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4;a=b\r\nWiki\r\n5\r\npedia\r\n0\r\nT: 1\r\n\r\nGET /y HTTP/1.1\r\nHost: h\r\n\r\n"
        let whole = events(text)
        XCTAssertEqual(requests(whole).count, 2)
        for size in 1...17 {
            XCTAssertEqual(events(Array(text.utf8), pieces: size), whole, "pieces of \(size) bytes")
        }
    }

    func testContentLengthBody() throws {
        let e = events(Array("PUT /p HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\nhello world".utf8), pieces: 5)
        XCTAssertEqual(try XCTUnwrap(requests(e).first).body, Data("hello world".utf8))
    }

    func testChunkedBodyExtensionsAndTrailersAreNotMerged() throws {
        let e = events(
            "POST /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5 ;ext=\"q\"\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Checksum: abc\r\n\r\n")
        let r = try XCTUnwrap(requests(e).first)
        XCTAssertEqual(String(decoding: r.body, as: UTF8.self), "hello0123456789")
        XCTAssertNil(r.headers["X-Checksum"], "trailer fields are not merged into the header fields")
    }

    func testBareLineFeedsAreRefusedWherever() throws {
        // Lines end with CRLF only: a bare LF anywhere in the framing is a 400, never a guess.
        let chunked = "POST /lf HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        let cases: [(String, HTTPParseError.Kind)] = [
            ("POST /lf HTTP/1.1\nHost: h\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n", .malformedHeader),
            ("GET / HTTP/1.1\r\nHost: h\n\r\n", .malformedHeader),
            ("GET / HTTP/1.1\r\nHost: h\r\n\n", .malformedHeader),
            ("\nGET / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
            (chunked + "3\nabc\r\n0\r\n\r\n", .malformedChunk),
            (chunked + "3\r\nabc\n0\r\n\r\n", .malformedChunk),
            (chunked + "0\r\nX-T: 1\n\r\n", .malformedChunk),
            (chunked + "0\r\n\n", .malformedChunk)
        ]
        for (input, kind) in cases {
            let f = failure(events(input))
            XCTAssertEqual(f?.kind, kind, input.debugDescription)
            XCTAssertEqual(f?.status, 400, input.debugDescription)
        }
        XCTAssertEqual(
            try XCTUnwrap(requests(events(chunked + "3\r\nabc\r\n0\r\n\r\n")).first).body, Data("abc".utf8),
            "the same body framed with CRLF is accepted")
    }

    func testMethodsAreCaseSensitive() throws {
        for method in ["get", "Get", "gET", "post"] {
            let f = failure(events("\(method) / HTTP/1.1\r\nHost: h\r\n\r\n"))
            XCTAssertEqual(f?.kind, .malformedRequestLine, method)
            XCTAssertEqual(f?.status, 400, method)
        }
        XCTAssertEqual(
            try XCTUnwrap(requests(events("PROPFIND / HTTP/1.1\r\nHost: h\r\n\r\n")).first).method, "PROPFIND",
            "an unknown uppercase method reaches the handler, which answers it")
    }

    func testLeadingEmptyLinesAreIgnored() {
        XCTAssertEqual(requests(events("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n")).count, 1)
    }

    func testExpectContinueIsAnnouncedBeforeTheBody() {
        var parser = HTTPRequestParser()
        parser.append(contentsOf: Array("POST /s HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n".utf8))
        XCTAssertEqual(parser.next(), .continueRequested)
        XCTAssertNil(parser.next())
        XCTAssertTrue(parser.hasPartialRequest)
        parser.append(contentsOf: Array("{}".utf8))
        guard case .request(let r)? = parser.next() else { return XCTFail("no request") }
        XCTAssertEqual(r.body, Data("{}".utf8))
        XCTAssertFalse(parser.hasPartialRequest)
    }

    func testKeepAliveRules() throws {
        func keep(_ head: String) throws -> Bool { try XCTUnwrap(requests(events(head + "\r\n")).first).keepAlive }
        XCTAssertTrue(try keep("GET / HTTP/1.1\r\nHost: h\r\n"))
        XCTAssertFalse(try keep("GET / HTTP/1.1\r\nHost: h\r\nConnection: Close\r\n"))
        XCTAssertFalse(try keep("GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive, close\r\n"))
        XCTAssertFalse(try keep("GET / HTTP/1.0\r\n"), "HTTP/1.0 closes by default (and needs no Host)")
        XCTAssertTrue(try keep("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n"))
    }

    func testAbsoluteFormAndAsteriskTargets() throws {
        let a = try XCTUnwrap(requests(events("GET http://127.0.0.1:54321/rest/v1/x?y=1 HTTP/1.1\r\nHost: h\r\n\r\n")).first)
        XCTAssertEqual(a.pathAndQuery, "/rest/v1/x?y=1")
        let b = try XCTUnwrap(requests(events("GET HTTP://host?q=1 HTTP/1.1\r\nHost: h\r\n\r\n")).first)
        XCTAssertEqual(b.pathAndQuery, "/?q=1")
        XCTAssertEqual(try XCTUnwrap(requests(events("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n")).first).pathAndQuery, "*")
    }

    func testPercentDecodingIsTheHandlersView() throws {
        let r = try XCTUnwrap(requests(events("GET /storage/v1/object/a%20b.png?name=ilike.%25ber%25 HTTP/1.1\r\nHost: h\r\n\r\n")).first)
        XCTAssertEqual(r.target, "/storage/v1/object/a%20b.png?name=ilike.%25ber%25", "the target is kept as sent")
        XCTAssertEqual(r.httpRequest.path, "/storage/v1/object/a b.png")
        XCTAssertEqual(r.httpRequest.queryValue("name"), "ilike.%ber%")
    }

    func testFieldValuesAreUTF8OrElseLatin1SoNoByteIsLost() throws {
        let utf8 = Array("GET / HTTP/1.1\r\nHost: h\r\nX-Name: caf".utf8) + [0xC3, 0xA9] + Array("\r\n\r\n".utf8)
        XCTAssertEqual(try XCTUnwrap(requests(events(utf8)).first).headers["X-Name"], "café")
        let latin1 = Array("GET / HTTP/1.1\r\nHost: h\r\nX-Name: caf".utf8) + [0xE9, 0xFF] + Array("\r\n\r\n".utf8)
        let value = try XCTUnwrap(requests(events(latin1)).first?.headers["X-Name"])
        XCTAssertEqual(value, "caf\u{E9}\u{FF}")
        XCTAssertEqual(value.unicodeScalars.map { UInt8($0.value) }, Array("caf".utf8) + [0xE9, 0xFF], "every byte kept")
    }

    func testHandlerViewMatchesHTTPRequestTargetParsing() throws {
        let targets = [
            "/", "/a%20b", "/rest/v1/x?", "/x?a", "/x?=v", "/x?a=b=c", "/x?&&a=1&&b=2&", "/x?a=1#frag&b=2", "/p#h?q=1",
            "/x?name=ilike.%25ber%25&or=(a.eq.1,b.eq.%E2%82%AC)", "/x?bad=%zz%4", "/%C3%28?%FF=%00",
            "http://h:1/abs?x=1", "HTTP://h?q=1", "*"
        ]
        for t in targets {
            let r = try XCTUnwrap(requests(events("GET \(t) HTTP/1.1\r\nHost: h\r\n\r\n")).first, t)
            let fast = r.httpRequest, reference = HTTPRequest(method: "GET", target: r.pathAndQuery)
            XCTAssertEqual(fast.path, reference.path, t)
            XCTAssertEqual(fast.query.map { "\($0.name)=\($0.value)" }, reference.query.map { "\($0.name)=\($0.value)" }, t)
        }
    }

    func testPropertyCheckRejectsAWrongHandlerView() {
        // Mutant: splits `a=b=c` at every '=' and keeps empty items, as a naive split would.
        let naive: HTTPParserProperties.HandlerView = { r in
            let parts = r.pathAndQuery.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            let query =
                parts.count > 1
                ? parts[1].split(separator: "&", omittingEmptySubsequences: false).map { item -> (name: String, value: String) in
                    let kv = item.split(separator: "=")
                    return (kv.first.map(String.init) ?? "", kv.count > 1 ? String(kv[1]) : "")
                } : []
            return HTTPRequest(method: r.method, path: String(parts[0]), query: query)
        }
        let input = Array("GET /x?a=b=c&&d HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        XCTAssertEqual(HTTPParserProperties.violations(of: input), [])
        let problems = HTTPParserProperties.violations(of: input, view: naive)
        XCTAssertTrue(problems.contains { $0.contains("handler view") }, "\(problems)")
    }

    // MARK: Limits

    func testHeadLimitBoundary() {
        let limits = HTTPParserLimits(maxHeadBytes: 64, maxBodyBytes: 10)
        let base = "GET / HTTP/1.1\r\nHost: h\r\nX: \r\n\r\n" // 32 bytes with an empty X value
        let exact = base.replacingOccurrences(of: "X: ", with: "X: " + String(repeating: "a", count: 64 - base.utf8.count))
        XCTAssertEqual(exact.utf8.count, 64)
        XCTAssertEqual(requests(events(exact, limits: limits)).count, 1, "a head of exactly the limit passes")
        let over = exact.replacingOccurrences(of: "X: ", with: "X: a")
        XCTAssertEqual(failure(events(over, limits: limits))?.status, 431)
        // Without the terminating empty line the parser gives up as soon as the limit is passed.
        XCTAssertEqual(failure(events(String(repeating: "a", count: 65), limits: limits))?.kind, .headTooLarge)
        XCTAssertTrue(events(String(repeating: "a", count: 64), limits: limits).isEmpty, "64 bytes may still become a head")
    }

    func testDefaultLimitsAre16KiBAnd10MiB() {
        let big = "GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "b", count: 16 * 1024) + "\r\n\r\n"
        XCTAssertEqual(failure(events(big))?.status, 431)
        XCTAssertEqual(failure(events("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10485761\r\n\r\n"))?.status, 413)
        var parser = HTTPRequestParser()
        parser.append(contentsOf: Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10485760\r\n\r\n".utf8))
        XCTAssertNil(parser.next(), "exactly 10 MiB is accepted and awaited")
    }

    func testBodyLimitBoundary() {
        let limits = HTTPParserLimits(maxHeadBytes: 1024, maxBodyBytes: 8)
        XCTAssertEqual(requests(events("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 8\r\n\r\n12345678", limits: limits)).first?.body.count, 8)
        XCTAssertEqual(failure(events("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\n123456789", limits: limits))?.kind, .bodyTooLarge)
        XCTAssertEqual(
            requests(events("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n1234\r\n4\r\n5678\r\n0\r\n\r\n", limits: limits)).first?.body
                .count, 8)
        XCTAssertEqual(
            failure(events("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n1234\r\n5\r\n", limits: limits))?.kind, .bodyTooLarge,
            "a chunked body is refused as soon as a chunk size passes the limit, before its data arrives")
        XCTAssertEqual(failure(events("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999999\r\n\r\n", limits: limits))?.kind, .bodyTooLarge)
        XCTAssertEqual(
            failure(events("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffffff\r\n", limits: limits))?.kind, .bodyTooLarge)
        XCTAssertEqual(
            requests(events("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n000000000000000000000003\r\nabc\r\n0\r\n\r\n", limits: limits))
                .first?.body.count, 3,
            "leading zeros do not count against the size")
    }

    func testTrailerSectionAndChunkLinesAreBounded() {
        let limits = HTTPParserLimits(maxHeadBytes: 64, maxBodyBytes: 8, maxChunkLineBytes: 16) // the head below is 55 bytes
        let chunked = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        let trailer = "T: " + String(repeating: "t", count: 70) + "\r\n"
        XCTAssertEqual(failure(events(chunked + "0\r\n" + trailer + "\r\n", limits: limits))?.kind, .headTooLarge)
        XCTAssertEqual(
            failure(events(chunked + "0\r\n" + String(repeating: "t", count: 70), limits: limits))?.kind, .headTooLarge,
            "an unterminated trailer is refused once past the limit")
        XCTAssertEqual(requests(events(chunked + "0\r\nT: short\r\n\r\n", limits: limits)).count, 1)
        XCTAssertEqual(failure(events(chunked + "1;" + String(repeating: "e", count: 20) + "\r\n", limits: limits))?.kind, .malformedChunk)
        XCTAssertEqual(failure(events(chunked + "1;" + String(repeating: "e", count: 20), limits: limits))?.kind, .malformedChunk)
    }

    // MARK: Malformed input

    func testMalformedInputGetsPreciseStatuses() {
        let cases: [(String, HTTPParseError.Kind, Int)] = [
            ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
            ("GET /\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
            ("GET / HTTP/1.1 extra\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
            ("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
            ("GET relative HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
            ("GET / http/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
            ("GET /\u{7F} HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
            ("\rGET / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine, 400),
            ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", .unsupportedVersion, 505),
            ("GET / HTTP/1.1\r\nHost : h\r\n\r\n", .malformedHeader, 400),
            ("GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", .malformedHeader, 400),
            ("GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n folded\r\n\r\n", .malformedHeader, 400),
            ("GET / HTTP/1.1\r\nHost: h\r\nX: a\rb\r\n\r\n", .malformedHeader, 400),
            ("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{0}b\r\n\r\n", .malformedHeader, 400),
            ("GET / HTTP/1.1\r\n\r\n", .invalidHost, 400),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .invalidHost, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", .invalidContentLength, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 0x10\r\n\r\n", .invalidContentLength, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .invalidContentLength, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", .conflictingFraming, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, identity\r\n\r\n", .conflictingFraming, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", .conflictingFraming, 400),
            ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", .conflictingFraming, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .unsupportedTransferEncoding, 501),
            ("POST / HTTP/1.1\r\nHost: h\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx", .unsupportedExpectation, 417),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .malformedChunk, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3x\r\nabc\r\n0\r\n\r\n", .malformedChunk, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", .malformedChunk, 400),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n", .malformedChunk, 400)
        ]
        for (input, kind, status) in cases {
            let f = failure(events(input))
            XCTAssertEqual(f?.kind, kind, input.debugDescription)
            XCTAssertEqual(f?.status, status, input.debugDescription)
            XCTAssertFalse(f?.detail.isEmpty ?? true)
        }
    }

    func testAFailedParserStaysFinished() {
        var parser = HTTPRequestParser()
        parser.append(contentsOf: Array("BROKEN\r\n\r\n".utf8))
        guard case .failure? = parser.next() else { return XCTFail("expected a failure") }
        XCTAssertTrue(parser.hasFailed)
        parser.append(contentsOf: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        XCTAssertNil(parser.next())
        XCTAssertEqual(parser.bufferedByteCount, 0, "input after a failure is not kept")
    }

    func testErrorDescriptionNamesStatusKindAndDetail() {
        let e = HTTPParseError(.headTooLarge, "the request line and header fields exceed 16384 bytes")
        XCTAssertEqual(e.description, "431 headTooLarge: the request line and header fields exceed 16384 bytes")
    }

    // MARK: Fuzz corpus, crashes and the property check

    private static var fuzzFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")
    }

    /// Every seed and every input the fuzzer ever crashed on satisfies the parser's properties.
    func testSeedCorpusAndSavedCrashesReplay() throws {
        var checked = 0
        for folder in ["http-corpus", "http-crashes"] {
            let dir = Self.fuzzFolder.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let input = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
                for limits in [HTTPParserLimits(), HTTPParserProperties.smallLimits] {
                    let problems = HTTPParserProperties.violations(of: input, limits: limits, seed: UInt64(input.count))
                    XCTAssertEqual(problems, [], "\(folder)/\(name)")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 20, "the seed corpus is in Tests/Fuzz/http-corpus")
    }

    func testPropertyCheckRejectsANonIncrementalParser() {
        // Mutant: starts a fresh parser for every piece, as a parser that assumes one read is one request would.
        let forgetful: HTTPParserProperties.Parse = { pieces, limits in
            pieces.flatMap { piece -> [HTTPParserEvent] in
                var p = HTTPRequestParser(limits: limits)
                p.append(contentsOf: piece)
                var out: [HTTPParserEvent] = []
                while let e = p.next() { out.append(e) }
                return out
            }
        }
        let input = Array("GET /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        XCTAssertEqual(HTTPParserProperties.violations(of: input), [])
        let problems = HTTPParserProperties.violations(of: input, parse: forgetful)
        XCTAssertTrue(problems.contains { $0.hasPrefix("split invariance") }, "\(problems)")
    }

    func testPropertyCheckRejectsUntrimmedValues() {
        let untrimmed: HTTPParserProperties.Parse = { pieces, limits in
            HTTPParserProperties.standardParse(pieces, limits).map { e in
                guard case .request(var r) = e else { return e }
                r.headers = HTTPHeaders(r.headers.fields.map { ($0.name, " " + $0.value) })
                return .request(r)
            }
        }
        let problems = HTTPParserProperties.violations(of: Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), parse: untrimmed)
        XCTAssertTrue(problems.contains { $0.contains("keeps surrounding whitespace") }, "\(problems)")
    }

    func testPropertyCheckRejectsAParserThatDecodesTheTarget() {
        let decoding: HTTPParserProperties.Parse = { pieces, limits in
            HTTPParserProperties.standardParse(pieces, limits).map { e in
                guard case .request(var r) = e else { return e }
                r.target = r.target.removingPercentEncoding ?? r.target
                return .request(r)
            }
        }
        let problems = HTTPParserProperties.violations(of: Array("GET /a%20b HTTP/1.1\r\nHost: h\r\n\r\n".utf8), parse: decoding)
        XCTAssertTrue(problems.contains { $0.contains("round trip") || $0.contains("visible ASCII") }, "\(problems)")
    }

    func testPropertyCheckRejectsAFailureFollowedByMoreEvents() {
        let chatty: HTTPParserProperties.Parse = { pieces, limits in
            let events = HTTPParserProperties.standardParse(pieces, limits)
            return events + (events.last.map { if case .failure = $0 { return [$0] } else { return [] } } ?? [])
        }
        let problems = HTTPParserProperties.violations(of: Array("BAD\r\n\r\n".utf8), parse: chatty)
        XCTAssertTrue(problems.contains { $0.contains("a failure is followed by") }, "\(problems)")
    }
}
