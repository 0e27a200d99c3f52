import Foundation
import XCTest
@testable import MockSupabase

/// WebSocket upgrades on the loopback server, over real sockets.
final class WebSocketServerTests: XCTestCase {
    /// Echoes every message, remembers connections and how they closed.
    final class Echo: WebSocketSession, @unchecked Sendable {
        let lock = NSCondition()
        var open: [WebSocketConnection] = []
        var closes: [UInt16?] = []
        func opened(_ connection: WebSocketConnection) { lock.lock(); open.append(connection); lock.broadcast(); lock.unlock() }
        func received(_ message: WebSocketMessage, on connection: WebSocketConnection) {
            switch message {
            case .text(let t): connection.send(text: "echo:" + t)
            case .binary(let b): connection.send(binary: b)
            default: break
            }
        }
        func closed(_ connection: WebSocketConnection, code: UInt16?) { lock.lock(); closes.append(code); lock.broadcast(); lock.unlock() }
        func waitClosed(_ n: Int, timeout: Double = 5) -> [UInt16?] {
            let deadline = Date(timeIntervalSinceNow: timeout)
            lock.lock(); defer { lock.unlock() }
            while closes.count < n, lock.wait(until: deadline) {}
            return closes
        }
        func waitOpen(_ n: Int) -> [WebSocketConnection] {
            let deadline = Date(timeIntervalSinceNow: 5)
            lock.lock(); defer { lock.unlock() }
            while open.count < n, lock.wait(until: deadline) {}
            return open
        }
    }

    func makeServer(_ echo: Echo, configure: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> HTTPServer {
        var cfg = HTTPServer.Configuration(threads: 2)
        configure(&cfg)
        let server = HTTPServer(configuration: cfg, handler: { _ in .jsonText(200, "{\"ok\":true}") }) { request in
            if request.path == "/forbidden" { return .reject(.jsonText(403, "{\"message\":\"no\"}")) }
            return request.path == "/ws" ? .accept(echo) : .pass
        }
        try server.start()
        return server
    }

    func testUpgradeEchoFragmentsPingAndClose() throws {
        let echo = Echo()
        let server = try makeServer(echo)
        defer { server.stop() }
        let client = try WebSocketClient(port: server.port, target: "/ws?vsn=1.0.0")
        XCTAssertEqual(client.handshakeStatus, 101)
        client.send(text: "hi")
        XCTAssertEqual(try client.receive(), .text("echo:hi"))
        let mask: [UInt8] = [1, 2, 3, 4]
        client.sendRaw(
            WebSocketFrameParser.encode(.text, Array("ab".utf8), fin: false, mask: mask)
                + WebSocketFrameParser.encode(.ping, [7], mask: mask)
                + WebSocketFrameParser.encode(.continuation, Array("cd".utf8), fin: true, mask: mask))
        XCTAssertEqual(try client.receive(), .pong([7]))
        XCTAssertEqual(try client.receive(), .text("echo:abcd"))
        client.send(.close(code: 1000, reason: "bye"))
        XCTAssertEqual(try client.receive(), .close(code: 1000, reason: ""))
        XCTAssertNil(try client.receive(timeout: 2), "the server closes the TCP connection after the handshake")
        XCTAssertEqual(echo.waitClosed(1), [1000])
    }

    func testProtocolErrorsCloseWithTheirCodes() throws {
        let echo = Echo()
        let server = try makeServer(echo) { $0.webSocketMaxMessageBytes = 1000 }
        defer { server.stop() }
        let unmasked = try WebSocketClient(port: server.port, target: "/ws")
        unmasked.sendRaw([0x81, 0x02, 0x68, 0x69])
        guard case .close(let code, _) = try unmasked.receive() else { return XCTFail("no close frame") }
        XCTAssertEqual(code, 1002)
        let big = try WebSocketClient(port: server.port, target: "/ws")
        big.send(.binary([UInt8](repeating: 0, count: 1001)))
        guard case .close(let code2, _) = try big.receive() else { return XCTFail("no close frame") }
        XCTAssertEqual(code2, 1009)
        XCTAssertEqual(echo.waitClosed(2).compactMap { $0 }.sorted(), [1002, 1009])
    }

    func testRefusalsAndPlainRequests() throws {
        let echo = Echo()
        let server = try makeServer(echo)
        defer { server.stop() }
        let forbidden = try WebSocketClient(port: server.port, target: "/forbidden")
        XCTAssertEqual(forbidden.handshakeStatus, 403)
        let plain = try WebSocketClient(port: server.port, target: "/other")
        XCTAssertEqual(plain.handshakeStatus, 200, "a route the acceptor passes goes to the handler")
        let raw = try HTTPServerTestClient(port: server.port)
        raw.send(
            Array(
                "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n"
                    .utf8))
        let r = try raw.readResponse()
        XCTAssertEqual(r.status, 426)
        XCTAssertEqual(r.header("Sec-WebSocket-Version"), "13")
    }

    /// Frames queued from other threads while the connection sits released in the poller arrive
    /// complete and in each sender's order (the wake-up path).
    func testSendsFromOtherThreads() throws {
        let echo = Echo()
        let server = try makeServer(echo)
        defer { server.stop() }
        let client = try WebSocketClient(port: server.port, target: "/ws")
        guard let connection = echo.waitOpen(1).first else { return XCTFail("not opened") }
        Thread.sleep(forTimeInterval: 0.05)
        let senders = 4, each = 200
        DispatchQueue.concurrentPerform(iterations: senders) { s in
            for i in 0..<each { connection.send(text: "\(s):\(i)") }
        }
        var next = [Int](repeating: 0, count: senders)
        for _ in 0..<(senders * each) {
            guard case .text(let t) = try client.receive() else { return XCTFail("missing frames: \(next)") }
            let parts = t.split(separator: ":").compactMap { Int($0) }
            XCTAssertEqual(parts[1], next[parts[0]], "order of sender \(parts[0])")
            next[parts[0]] += 1
        }
        XCTAssertEqual(next, [Int](repeating: each, count: senders))
    }

    func testIdleWebSocketIsClosed() throws {
        let echo = Echo()
        let server = try makeServer(echo) { $0.webSocketIdleTimeout = 0.3 }
        defer { server.stop() }
        let client = try WebSocketClient(port: server.port, target: "/ws")
        XCTAssertNil(try client.receive(timeout: 3))
        XCTAssertEqual(echo.waitClosed(1).count, 1)
        XCTAssertTrue(server.waitForOpenConnections(atMost: 0, timeout: 2))
    }
}
