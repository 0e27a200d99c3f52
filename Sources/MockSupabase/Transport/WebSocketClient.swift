import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A small blocking WebSocket client for 127.0.0.1, for tests on Linux, where
/// FoundationNetworking's libcurl has no WebSocket (`URLSessionWebSocketTask` is unavailable).
/// Frames it sends are masked, as RFC 6455 requires of clients.
package final class WebSocketClient: @unchecked Sendable {
    /// Why a connection or read failed.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package var description: String
        package init(description: String) { self.description = description }
    }

    private let fd: Int32
    private var parser: WebSocketFrameParser
    private let lock = NSLock()
    /// The handshake response's status (101 when upgraded) and raw head.
    package let handshakeStatus: Int
    package let handshakeHead: String

    /// Connects to `127.0.0.1:port` and sends the upgrade for `target` (path and query).
    package init(port: UInt16, target: String, headers: [String: String] = [:], maxMessageBytes: Int = 16 << 20) throws {
        do { fd = try LoopbackSocket.connect(port: port) } catch { throw Failure(description: error.description) }
        parser = WebSocketFrameParser(peer: .server, maxMessageBytes: maxMessageBytes)
        let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        var head =
            "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        head += "\r\n"
        var received: [UInt8] = []
        var end: Int?
        Self.sendAll(fd, Array(head.utf8))
        Self.setTimeout(fd, 10)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while end == nil {
            let n = recv(fd, &chunk, chunk.count, 0)
            guard n > 0 else { close(fd); throw Failure(description: "no handshake response") }
            received += chunk[0..<n]
            if let i = Self.find([13, 10, 13, 10], in: received) { end = i + 4 }
        }
        handshakeHead = String(decoding: received[0..<end!], as: UTF8.self)
        let statusLine = handshakeHead.split(separator: "\r\n").first ?? ""
        handshakeStatus = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        if handshakeStatus == 101 {
            let expected = WebSocketFrameParser.acceptValue(forKey: key)
            guard handshakeHead.lowercased().contains("sec-websocket-accept: \(expected.lowercased())") else {
                close(fd)
                throw Failure(description: "wrong Sec-WebSocket-Accept in \(handshakeHead)")
            }
        }
        parser.append(contentsOf: received[end!...])
    }

    deinit { close(fd) }

    /// Sends a text message (masked).
    package func send(text: String) { send(.text(text)) }

    /// Sends any message as one masked frame.
    package func send(_ message: WebSocketMessage) {
        sendRaw(WebSocketFrameParser.encode(message, mask: (0..<4).map { _ in UInt8.random(in: 0...255) }))
    }

    /// Sends bytes as they are (to test how the server treats broken frames).
    package func sendRaw(_ bytes: [UInt8]) {
        lock.lock(); defer { lock.unlock() }
        Self.sendAll(fd, bytes)
    }

    /// The next message, waiting at most `timeout` seconds; nil on timeout or when the server
    /// closed the socket. Pings are answered and skipped.
    package func receive(timeout: Double = 5) throws -> WebSocketMessage? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            if let event = parser.next() {
                switch event {
                case .failure(let e): throw Failure(description: "server sent a bad frame: \(e)")
                case .success(.ping(let p)): send(.pong(p)); continue
                case .success(let m): return m
                }
            }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            Self.setTimeout(fd, left)
            let n = recv(fd, &chunk, chunk.count, 0)
            if n > 0 { parser.append(contentsOf: chunk[0..<n]) } else if n == 0 { return nil } else if errno != EINTR { return nil }
        }
    }

    /// Closes the socket without a close handshake.
    package func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { socketSend(fd, $0.baseAddress! + offset, bytes.count - offset, Socket.sendFlags) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    private static func setTimeout(_ fd: Int32, _ seconds: Double) {
        let s = max(seconds, 0.001)
        var tv = timeval(tv_sec: Int(s), tv_usec: .init(Int((s - Double(Int(s))) * 1_000_000)))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
        return nil
    }
}

private func socketSend(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int, _ flags: Int32) -> Int {
    send(fd, p, n, flags)
}
