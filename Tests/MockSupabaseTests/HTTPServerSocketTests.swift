import Foundation
import XCTest
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import MockSupabase

/// The loopback server over real sockets.
final class HTTPServerSocketTests: XCTestCase {
    struct HandlerFailure: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    /// Counts the requests the handler saw.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var items: [String] = []
        func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
    }

    private func makeServer(_ configuration: HTTPServer.Configuration = HTTPServer.Configuration(), seen: Seen = Seen()) throws -> HTTPServer {
        let server = HTTPServer(configuration: configuration) { request in
            seen.add("\(request.method) \(request.path)")
            switch request.path {
            case "/echo":
                return HTTPResponse(
                    status: 200,
                    headers: [
                        "Content-Type": "application/octet-stream", "X-Method": request.method,
                        "X-Query": request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                    ],
                    body: request.body)
            case "/drop": throw InjectedNetworkError()
            case "/fail": throw HandlerFailure()
            case "/nothing": return HTTPResponse(status: 204, headers: ["X-A": "1"], body: Data("ignored".utf8))
            case "/evil":
                return HTTPResponse(
                    status: 200,
                    headers: [
                        "X-Evil": "a\r\nInjected: yes", "Content-Length": "999", "Connection": "keep-alive",
                        "Transfer-Encoding": "chunked", "Bad Name": "x"
                    ], body: Data("ok".utf8))
            default:
                // GET and HEAD alike get the same five-byte body: the server drops it for HEAD.
                return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("hello".utf8))
            }
        }
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    // MARK: Basics

    func testKeepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try makeServer()
        let client = try HTTPServerTestClient(port: server.port)
        for i in 0..<3 {
            client.send("POST /echo?i=\(i) HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nab\(i)")
            let r = try client.readResponse()
            XCTAssertEqual(r.status, 200)
            XCTAssertEqual(r.text, "ab\(i)")
            XCTAssertEqual(r.header("X-Query"), "i=\(i)")
            XCTAssertNil(r.header("Connection"), "HTTP/1.1 keep-alive needs no Connection field")
        }
        XCTAssertEqual(server.statistics.connectionsAccepted, 1)
        XCTAssertEqual(server.statistics.requestsHandled, 3)
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let server = try makeServer()
        let client = try HTTPServerTestClient(port: server.port)
        client.send("GET /echo?n=1 HTTP/1.1\r\nHost: h\r\n\r\nGET /echo?n=2 HTTP/1.1\r\nHost: h\r\n\r\nGET /echo?n=3 HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertEqual(try (0..<3).map { _ in try client.readResponse().header("X-Query") }, ["n=1", "n=2", "n=3"])
    }

    func testChunkedRequestBody() throws {
        let server = try makeServer()
        let client = try HTTPServerTestClient(port: server.port)
        client.send("PUT /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n")
        client.send("5;last\r\nworld\r\n0\r\n\r\n")
        let r = try client.readResponse()
        XCTAssertEqual(r.text, "hello world")
        XCTAssertEqual(r.header("Content-Length"), "11")
    }

    func testHeadGetsHeadersOnlyWithTheLengthOfTheGetBody() throws {
        let server = try makeServer()
        let client = try HTTPServerTestClient(port: server.port)
        client.send("HEAD /page HTTP/1.1\r\nHost: h\r\n\r\n")
        let head = try client.readResponse(head: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Length"), "5")
        // If the server had sent the body, this response would be read from the middle of it.
        client.send("GET /page HTTP/1.1\r\nHost: h\r\n\r\n")
        let get = try client.readResponse()
        XCTAssertEqual(get.text, "hello")
        XCTAssertEqual(get.header("Content-Length"), head.header("Content-Length"))
    }

    func testExpectContinue() throws {
        let server = try makeServer()
        let client = try HTTPServerTestClient(port: server.port)
        client.send("POST /echo HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 100)
        client.send("data")
        XCTAssertEqual(try client.readResponse().text, "data")
    }

    func testNoContentHasNoBodyNorLength() throws {
        let server = try makeServer()
        let client = try HTTPServerTestClient(port: server.port)
        client.send("DELETE /nothing HTTP/1.1\r\nHost: h\r\n\r\nGET /echo?after=1 HTTP/1.1\r\nHost: h\r\n\r\n")
        let r = try client.readResponse()
        XCTAssertEqual(r.status, 204)
        XCTAssertNil(r.header("Content-Length"))
        XCTAssertEqual(try client.readResponse().header("X-Query"), "after=1")
    }

    func testHandlerFramingFieldsAreReplacedAndValuesCannotSplitTheResponse() throws {
        let server = try makeServer()
        let client = try HTTPServerTestClient(port: server.port)
        client.send("GET /evil HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        let r = try client.readResponse()
        XCTAssertEqual(r.text, "ok")
        XCTAssertEqual(r.header("Content-Length"), "2")
        XCTAssertEqual(r.header("Connection"), "close")
        XCTAssertNil(r.header("Transfer-Encoding"))
        XCTAssertNil(r.header("Injected"), "CR/LF in a value is neutralised")
        XCTAssertEqual(r.header("X-Evil"), "a  Injected: yes")
        XCTAssertNil(r.header("Bad Name"))
    }

    // MARK: Connection management

    func testConnectionCloseAndHTTP10CloseAfterTheResponse() throws {
        let server = try makeServer()
        let a = try HTTPServerTestClient(port: server.port)
        a.send("GET /x HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(try a.readResponse().header("Connection"), "close")
        XCTAssertTrue(try a.isClosedByPeer())

        let b = try HTTPServerTestClient(port: server.port)
        b.send("GET /x HTTP/1.0\r\n\r\n")
        XCTAssertEqual(try b.readResponse().header("Connection"), "close")
        XCTAssertTrue(try b.isClosedByPeer())

        let c = try HTTPServerTestClient(port: server.port)
        c.send("GET /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(try c.readResponse().header("Connection"), "keep-alive")
        c.send("GET /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 200, "HTTP/1.0 keep-alive keeps the connection")
    }

    func testIdleConnectionIsClosedAfterTheConfiguredTimeout() throws {
        let server = try makeServer(HTTPServer.Configuration(idleTimeout: 0.2))
        let idle = try HTTPServerTestClient(port: server.port)
        idle.send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertEqual(try idle.readResponse().status, 200)
        // The client now says nothing; the server closes without a response.
        XCTAssertEqual(try idle.readToEnd(), [], "an idle connection is closed silently")

        let partial = try HTTPServerTestClient(port: server.port)
        partial.send("GET /x HTTP/1.1\r\nHost: h\r\n")
        let r = try partial.readResponse()
        XCTAssertEqual(r.status, 408, "a request cut off mid-way gets 408 before the close")
        XCTAssertEqual(r.header("Connection"), "close")
        XCTAssertTrue(try partial.isClosedByPeer())
        XCTAssertTrue(server.waitForOpenConnections(atMost: 0, timeout: 10))
        XCTAssertEqual(server.statistics.requestsRejected, 1)
    }

    func testConcurrentClients() throws {
        let seen = Seen()
        let server = try makeServer(seen: seen)
        let clients = 12, perClient = 25
        let failures = Seen()
        DispatchQueue.concurrentPerform(iterations: clients) { c in
            do {
                let client = try HTTPServerTestClient(port: server.port)
                for i in 0..<perClient {
                    let body = "client \(c) request \(i)"
                    client.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                    let r = try client.readResponse()
                    if r.text != body { failures.add("client \(c) got '\(r.text)' for '\(body)'") }
                }
            } catch {
                failures.add("client \(c): \(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(seen.all.count, clients * perClient)
        XCTAssertEqual(server.statistics.connectionsAccepted, clients)
    }

    func testAtTheMaximumTheConnectionIdleLongestMakesRoomElse503() throws {
        let server = try makeServer(HTTPServer.Configuration(maxConnections: 2))
        let a = try HTTPServerTestClient(port: server.port)
        let b = try HTTPServerTestClient(port: server.port)
        for c in [a, b] {
            c.send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
            XCTAssertEqual(try c.readResponse().status, 200)
        }
        // Both released to the poller (a loaded machine can hold a worker between the response
        // and the release), so the choice below is between two idle connections.
        let released = Date(timeIntervalSinceNow: 10)
        while server.idleConnections < 2, Date() < released { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertEqual(server.idleConnections, 2)
        // As nginx reuses keep-alive connections: the one idle longest is closed for a newcomer.
        let c = try HTTPServerTestClient(port: server.port)
        c.send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 200)
        XCTAssertTrue(try a.isClosedByPeer(), "the connection idle longest was closed")
        XCTAssertEqual(server.statistics.connectionsEvicted, 1)
        // Both open connections now receive bodies: neither is idle, so a newcomer gets 503.
        for client in [b, c] { client.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nhalf") }
        XCTAssertTrue(server.wait(timeout: 10) { stats, _ in stats.bodyBytesInFlight == 20 })
        let third = try HTTPServerTestClient(port: server.port)
        let r = try third.readResponse()
        XCTAssertEqual(r.status, 503)
        XCTAssertEqual(r.header("Retry-After"), "1")
        XCTAssertTrue(try third.isClosedByPeer())
        XCTAssertEqual(server.statistics.connectionsRefused, 1)
        b.send("-of-it")
        XCTAssertEqual(try b.readResponse().text, "half-of-it", "connections receiving bodies are unaffected")
    }

    // MARK: Slow and hostile clients

    func testTricklingHeadIsCutOffByTheHeadDeadlineWith408() throws {
        // A byte every 50 ms never trips the silence limit, only the whole-head deadline.
        let server = try makeServer(HTTPServer.Configuration(idleTimeout: 5, headTimeout: 0.4))
        let slow = try HTTPServerTestClient(port: server.port)
        let head = Array("GET /x HTTP/1.1\r\nHost: h\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 200)
        var sent = 0
        while sent < head.count, slow.send([head[sent]]) {
            sent += 1
            if server.statistics.requestsRejected > 0 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let r = try slow.readResponse()
        XCTAssertEqual(r.status, 408)
        XCTAssertTrue(r.text.contains("request head"), r.text)
        XCTAssertLessThan(sent, head.count, "cut off before the head was complete")
        XCTAssertTrue(try slow.isClosedByPeer())
    }

    func testTricklingBodyIsCutOffByTheBodyDeadlineWith408() throws {
        let server = try makeServer(HTTPServer.Configuration(idleTimeout: 5, bodyTimeout: 0.4))
        let slow = try HTTPServerTestClient(port: server.port)
        slow.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n")
        var sent = 0
        while sent < 1000, server.statistics.requestsRejected == 0, slow.send("b") {
            sent += 1
            Thread.sleep(forTimeInterval: 0.05)
        }
        let r = try slow.readResponse()
        XCTAssertEqual(r.status, 408)
        XCTAssertTrue(r.text.contains("request body"), r.text)
        XCTAssertTrue(server.waitForOpenConnections(atMost: 0, timeout: 10))
        XCTAssertEqual(server.bodyBytesInFlight, 0, "the reservation is returned")
    }

    func testAFreshClientIsAnsweredWhileHundredsOfSlowClientsAreHeld() throws {
        let server = try makeServer(HTTPServer.Configuration(threads: 2))
        var slow: [HTTPServerTestClient] = []
        for i in 0..<600 {
            let client = try HTTPServerTestClient(port: server.port)
            switch i % 3 {
            case 0: break // connected, silent
            case 1: client.send("GET /x HTTP/1.1\r\nHost: h\r\nX-Slow") // a head never finished
            default: client.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 100\r\n\r\nab") // a body never finished
            }
            slow.append(client)
        }
        // Every unfinished body reserved its declared length once its head was read.
        XCTAssertTrue(
            server.wait(timeout: 20) { stats, open in stats.connectionsAccepted == 600 && open == 600 && stats.bodyBytesInFlight == 200 * 100 },
            "\(server.statistics) \(server.openConnections) open")
        let fresh = try HTTPServerTestClient(port: server.port)
        fresh.send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertEqual(try fresh.readResponse().text, "hello")
        XCTAssertEqual(server.statistics.connectionsRefused, 0)
        withExtendedLifetime(slow) {}
    }

    func testBodiesInFlightAreCappedAndRefusedBeforeTheyAreRead() throws {
        let server = try makeServer(HTTPServer.Configuration(maxInFlightBodyBytes: 1000))
        let a = try HTTPServerTestClient(port: server.port)
        a.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 800\r\n\r\n")
        XCTAssertTrue(server.wait(timeout: 10) { stats, _ in stats.bodyBytesInFlight == 800 })
        // A second 800-byte body would pass the budget: refused on its head alone.
        let b = try HTTPServerTestClient(port: server.port)
        b.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 800\r\n\r\n")
        let refused = try b.readResponse()
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.header("Retry-After"), "1")
        XCTAssertEqual(refused.header("Connection"), "close")
        // With Expect: 100-continue the refusal comes instead of 100 Continue.
        let c = try HTTPServerTestClient(port: server.port)
        c.send("POST /echo HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 800\r\n\r\n")
        XCTAssertEqual(try c.readResponse().status, 503)
        // A chunked body is counted as it grows.
        let d = try HTTPServerTestClient(port: server.port)
        d.send("POST /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + "12c\r\n" + String(repeating: "x", count: 300) + "\r\n")
        XCTAssertEqual(try d.readResponse().status, 503)
        a.send(String(repeating: "a", count: 800))
        XCTAssertEqual(try a.readResponse().body.count, 800, "the admitted body completes")
        XCTAssertTrue(server.wait(timeout: 10) { stats, _ in stats.bodyBytesInFlight == 0 })
        let e = try HTTPServerTestClient(port: server.port)
        e.send("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 800\r\n\r\n" + String(repeating: "e", count: 800))
        XCTAssertEqual(try e.readResponse().status, 200, "room again once the first body was handled")
        XCTAssertEqual(server.statistics.bodiesRefused, 3)
    }

    func testBytesWithNoLineEndGet408AtTheHeadDeadline() throws {
        let server = try makeServer(HTTPServer.Configuration(headTimeout: 0.3))
        let client = try HTTPServerTestClient(port: server.port)
        client.send("GET /no-line-end-ever")
        let r = try client.readResponse()
        XCTAssertEqual(r.status, 408)
        XCTAssertTrue(try client.isClosedByPeer())
    }

    func testLowercaseMethodsAndBareLineFeedsAre400OnTheWire() throws {
        let server = try makeServer()
        try assertRejected(server, Array("get /x HTTP/1.1\r\nHost: h\r\n\r\n".utf8), status: 400, messageContains: "lowercase")
        try assertRejected(server, Array("GET /x HTTP/1.1\nHost: h\n\n".utf8), status: 400, messageContains: "bare LF")
        try assertRejected(
            server, Array("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\r\n0\r\n\r\n".utf8),
            status: 400, messageContains: "bare LF")
    }

    func testStopClosesOpenConnectionsAndTheListener() throws {
        let server = try makeServer()
        let port = server.port
        let client = try HTTPServerTestClient(port: port)
        client.send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertEqual(try client.readResponse().status, 200)
        server.stop()
        XCTAssertTrue(try client.isClosedByPeer())
        XCTAssertEqual(server.openConnections, 0)
        XCTAssertThrowsError(try HTTPServerTestClient(port: port), "nothing listens after stop")
        server.stop() // idempotent
    }

    func testPortZeroPicksAFreePortAndABusyPortIsAPreciseError() throws {
        let server = try makeServer()
        XCTAssertNotEqual(server.port, 0)
        XCTAssertEqual(server.url.absoluteString, "http://127.0.0.1:\(server.port)")
        let second = HTTPServer(configuration: HTTPServer.Configuration(port: server.port)) { _ in HTTPResponse(status: 200) }
        XCTAssertThrowsError(try second.start()) { error in
            let e = error as? HTTPServerError
            XCTAssertEqual(e?.operation, "bind")
            XCTAssertEqual(e?.code, EADDRINUSE)
            XCTAssertTrue(e?.description.contains("127.0.0.1:\(server.port)") ?? false, e?.description ?? "")
            XCTAssertTrue(e?.description.contains("port 0") ?? false)
        }
        XCTAssertThrowsError(try server.start(), "a running server cannot start twice")
    }

    #if os(Linux)
        func testListensOnLoopbackOnly() throws {
            let server = try makeServer()
            let table = try String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)
            let local = table.split(separator: "\n").dropFirst().compactMap { line -> String? in
                let cols = line.split(separator: " ")
                guard cols.count > 3, cols[3] == "0A" else { return nil } // LISTEN
                return String(cols[1])
            }
            let port = String(format: "%04X", Int(server.port))
            XCTAssertEqual(local.filter { $0.hasSuffix(":" + port) }, ["0100007F:" + port], "bound to 127.0.0.1 and nothing else")
        }
    #endif

    // MARK: Limits and malformed input

    private func assertRejected(
        _ server: HTTPServer, _ bytes: [UInt8], status: Int, messageContains: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let client = try HTTPServerTestClient(port: server.port)
        client.send(bytes)
        let r = try client.readResponse()
        XCTAssertEqual(r.status, status, file: file, line: line)
        XCTAssertEqual(r.header("Connection"), "close", file: file, line: line)
        XCTAssertEqual(r.header("Content-Type"), "application/json; charset=utf-8", file: file, line: line)
        let json = try JSONValue.parse(Data(r.body))
        XCTAssertEqual(json["code"], .int(Int64(status)), file: file, line: line)
        XCTAssertTrue(json["message"]?.stringValue?.contains(messageContains) ?? false, "\(json)", file: file, line: line)
        XCTAssertTrue(try client.isClosedByPeer(), "closed after the error", file: file, line: line)
    }

    func testOversizedHeadGets431() throws {
        let server = try makeServer()
        let head = "GET /x HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 17 * 1024) + "\r\n\r\n"
        try assertRejected(server, Array(head.utf8), status: 431, messageContains: "16384 bytes")
        let endless = "GET /x HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 20 * 1024)
        try assertRejected(server, Array(endless.utf8), status: 431, messageContains: "exceed")
    }

    func testOversizedBodyGets413() throws {
        let server = try makeServer(HTTPServer.Configuration(limits: HTTPParserLimits(maxHeadBytes: 16 * 1024, maxBodyBytes: 1000)))
        try assertRejected(
            server, Array("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 1001\r\n\r\n".utf8) + [UInt8](repeating: 65, count: 1001),
            status: 413, messageContains: "1000 bytes")
        let chunk = "1F4\r\n" + String(repeating: "b", count: 500) + "\r\n"
        try assertRejected(
            server, Array(("POST /echo HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk + chunk).utf8),
            status: 413, messageContains: "chunked body exceeds 1000 bytes")
        let ok = try HTTPServerTestClient(port: server.port)
        ok.send(Array("POST /echo HTTP/1.1\r\nHost: h\r\nContent-Length: 1000\r\n\r\n".utf8) + [UInt8](repeating: 66, count: 1000))
        XCTAssertEqual(try ok.readResponse().body.count, 1000, "a body of exactly the limit passes")
    }

    func testDefaultBodyLimitIs10MiB() throws {
        let server = try makeServer()
        try assertRejected(
            server, Array("PUT /echo HTTP/1.1\r\nHost: h\r\nContent-Length: \(10 * 1024 * 1024 + 1)\r\n\r\n".utf8),
            status: 413, messageContains: "10485760 bytes")
    }

    func testMalformedRequestsGet400AndFriends() throws {
        let server = try makeServer()
        try assertRejected(server, Array("GET /x  HTTP/1.1\r\nHost: h\r\n\r\n".utf8), status: 400, messageContains: "METHOD TARGET HTTP/1.1")
        try assertRejected(server, Array("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\r\n\r\n".utf8), status: 400, messageContains: "control character") // a TLS hello
        try assertRejected(server, Array("GET / HTTP/1.1\r\n\r\n".utf8), status: 400, messageContains: "Host")
        try assertRejected(server, Array("GET / HTTP/3.0\r\nHost: h\r\n\r\n".utf8), status: 505, messageContains: "HTTP/3.0")
        try assertRejected(server, Array("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: br, chunked\r\n\r\n".utf8), status: 501, messageContains: "br")
        XCTAssertEqual(server.statistics.requestsRejected, 5)
        XCTAssertEqual(server.statistics.requestsHandled, 0, "no malformed request reaches the handler")
    }

    func testHandlerErrorsBecome500AndInjectedNetworkErrorsDropTheConnection() throws {
        let server = try makeServer()
        let a = try HTTPServerTestClient(port: server.port)
        a.send("GET /fail HTTP/1.1\r\nHost: h\r\n\r\n")
        let r = try a.readResponse()
        XCTAssertEqual(r.status, 500)
        XCTAssertTrue(r.text.contains("boom"))
        a.send("GET /echo HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertEqual(try a.readResponse().status, 200, "a 500 keeps the connection")

        let b = try HTTPServerTestClient(port: server.port)
        b.send("GET /drop HTTP/1.1\r\nHost: h\r\n\r\n")
        XCTAssertEqual(try b.readToEnd(), [], "no byte of a response")
    }

    // MARK: Resources

    func testNoDescriptorOrConnectionLeaks() throws {
        let before = httpServerTestOpenDescriptorCount()
        do {
            let server = HTTPServer(configuration: HTTPServer.Configuration(idleTimeout: 5)) { request in
                if request.path == "/drop" { throw InjectedNetworkError() }
                return HTTPResponse(status: 200, body: request.body)
            }
            try server.start()
            let inputs = [
                "GET /ok HTTP/1.1\r\nHost: h\r\n\r\n",
                "GET /ok HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n",
                "GET /drop HTTP/1.1\r\nHost: h\r\n\r\n",
                "NOT HTTP\r\n\r\n",
                "POST /ok HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999\r\n\r\n",
                "GET /ok HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "x", count: 20_000) + "\r\n\r\n",
                "POST /ok HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nhalf" // abandoned mid-body
            ]
            for round in 0..<6 {
                for input in inputs {
                    let client = try HTTPServerTestClient(port: server.port)
                    client.send(input)
                    if round % 2 == 0 {
                        client.finishSending()
                        _ = try? client.readToEnd()
                    } // else the client hangs up without reading
                }
            }
            // Every connection accepted (a client that hung up at once may still be queued), then all closed.
            XCTAssertTrue(
                server.wait(timeout: 20) { stats, open in stats.connectionsAccepted == 6 * inputs.count && open == 0 },
                "\(server.statistics.connectionsAccepted) accepted, \(server.openConnections) still open")
            server.stop()
        }
        XCTAssertEqual(httpServerTestOpenDescriptorCount(), before, "descriptors before and after a server's life")
    }

    // MARK: Real clients and the mock backend

    func testURLSessionTalksToTheServer() throws {
        let server = try makeServer()
        var request = URLRequest(url: server.url.appendingPathComponent("echo"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"city_id":"berlin"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let done = expectation(description: "response")
        final class Box: @unchecked Sendable { var status = 0; var body = Data() }
        let box = Box()
        URLSession.shared.dataTask(with: request) { data, response, _ in
            box.status = (response as? HTTPURLResponse)?.statusCode ?? -1
            box.body = data ?? Data()
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 30)
        XCTAssertEqual(box.status, 200)
        XCTAssertEqual(String(decoding: box.body, as: UTF8.self), #"{"city_id":"berlin"}"#)
    }

    func testServesTheMockBackend() throws {
        let contracts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Contracts/teleportme")
        let backend = try MockSupabase(contracts: contracts)
        let server = HTTPServer(backend: backend)
        try server.start()
        defer { server.stop() }
        let client = try HTTPServerTestClient(port: server.port)
        client.send(
            "OPTIONS /rest/v1/cities HTTP/1.1\r\nHost: h\r\nOrigin: http://localhost:3000\r\nAccess-Control-Request-Method: GET\r\n"
                + "Access-Control-Request-Headers: apikey, authorization\r\n\r\n")
        let preflight = try client.readResponse()
        XCTAssertEqual(preflight.status, 200)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), "*")
        XCTAssertEqual(preflight.header("Access-Control-Allow-Headers"), "apikey, authorization")
        client.send("GET /nowhere HTTP/1.1\r\nHost: h\r\n\r\n")
        let missing = try client.readResponse()
        XCTAssertEqual(missing.status, 404)
        XCTAssertEqual(try JSONValue.parse(Data(missing.body))["message"], "no Route matched with those values")

        backend.inject(InjectedFault(pathPrefix: "/rest/v1/cities", kind: .networkError, remaining: 1))
        client.send("GET /rest/v1/cities HTTP/1.1\r\nHost: h\r\napikey: \(backend.anonKey)\r\n\r\n")
        XCTAssertEqual(try client.readToEnd(), [], "an injected network error drops the connection without a response")
    }
}
