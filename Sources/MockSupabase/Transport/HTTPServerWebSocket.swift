import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The WebSocket side of the loopback server: the upgrade (RFC 6455 §4.2), frame mode in the same
/// event loop, and the wake-up of a connection another thread queued frames for.
///
/// Ownership stays as for HTTP: the poller is one-shot and `busy` (under `state`) names the one
/// thread that owns a connection. A sender appends to the connection's outbox (its own lock) and
/// then calls `wake`, which re-arms the socket for writing under `state` only when no thread owns
/// it. `release` checks the outbox under `state` too before arming, and arms for writing when it
/// is not empty. Both checks happen under the same lock, so either the sender sees the connection
/// released and arms it, or the owner sees the frame before releasing: nothing is lost and no
/// two threads serve one connection. Lock order: `state`, then an outbox lock (never the reverse).
extension HTTPServer {
    /// Re-arms a released connection for writing so that a server thread flushes its outbox.
    func wake(fd: Int32, token: UInt64) {
        state.lock()
        if phase == .running, let poller, let c = connections[fd], c.token == token, !c.busy {
            poller.arm(c.fd, token: c.token, interest: .write)
        }
        state.unlock()
    }

    /// Answers an upgrade request: nil when it is not one (or the acceptor passes), else what was
    /// queued (a 101 and frame mode, or a refusal).
    func upgrade(_ c: HTTPConnection, _ request: HTTPRequest, _ acceptor: WebSocketAcceptor) -> Produced? {
        guard request.method == "GET", Self.hasToken(request.headers["Upgrade"], "websocket"),
            Self.hasToken(request.headers["Connection"], "upgrade")
        else { return nil }
        func refuse(_ response: HTTPResponse) -> Produced {
            count(\.requestsHandled)
            c.enqueue(HTTPServer.serialize(response, isHead: false, keepAlive: false, http10: false))
            c.closeAfterOutput = true
            return .queued
        }
        guard request.headers["Sec-WebSocket-Version"]?.trimmingCharacters(in: .whitespaces) == "13" else {
            return refuse(
                HTTPResponse(
                    status: 426, headers: ["Sec-WebSocket-Version": "13", "Content-Type": "application/json; charset=utf-8"],
                    body: HTTPServer.errorBody(426, "Sec-WebSocket-Version must be 13")))
        }
        let key = request.headers["Sec-WebSocket-Key"]?.trimmingCharacters(in: .whitespaces) ?? ""
        guard Data(base64Encoded: key)?.count == 16 else {
            return refuse(
                HTTPResponse(
                    status: 400, headers: ["Content-Type": "application/json; charset=utf-8"],
                    body: HTTPServer.errorBody(400, "Sec-WebSocket-Key must be 16 bytes in base64")))
        }
        switch acceptor(request) {
        case .pass: return nil
        case .reject(let response): return refuse(response)
        case .accept(let session):
            state.lock()
            webSocketIDs += 1
            let id = webSocketIDs
            counters.webSocketsOpened += 1
            counters.requestsHandled += 1
            state.broadcast()
            state.unlock()
            let (fd, token) = (c.fd, c.token)
            let handle = WebSocketConnection(request: request, id: id) { [weak self] in self?.wake(fd: fd, token: token) }
            var parser = WebSocketFrameParser(peer: .client, maxMessageBytes: configuration.webSocketMaxMessageBytes)
            parser.append(contentsOf: c.parser.takeBufferedBytes())
            c.enqueue(
                Array(
                    ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Accept: \(WebSocketFrameParser.acceptValue(forKey: key))\r\n\r\n").utf8))
            c.parser = HTTPRequestParser(limits: configuration.limits)
            c.webSocket = WebSocketState(parser: parser, session: session, handle: handle)
            c.phase = .webSocket
            c.phaseStart = Self.now()
            session.opened(handle)
            return .queued
        }
    }

    /// Serves an upgraded connection the caller owns: writes the outbox, delivers whole messages,
    /// answers pings and closes, reads more. Returns once the connection is released or closed.
    func serveWebSocket(_ c: HTTPConnection, buffer: UnsafeMutableRawBufferPointer) {
        guard let ws = c.webSocket else { return finish(c) }
        while true {
            let queued = ws.handle.takeOutput()
            if !queued.isEmpty { c.enqueue(queued) }
            if c.outputOffset < c.output.count {
                switch c.flush() {
                case .failed: return finish(c)
                case .blocked:
                    if ws.blockedSince == 0 { ws.blockedSince = Self.now() }
                    return release(c, .write)
                case .done: ws.blockedSince = 0
                }
            }
            // The server closes the TCP connection once both Close frames passed (RFC 6455 §7.1.1).
            if ws.handle.hasQueuedClose && (ws.closeReceived || c.peerClosed) { return finish(c) }
            if c.peerClosed { return finish(c) }
            var delivered = false
            while !ws.closeReceived, let event = ws.parser.next() {
                delivered = true
                switch event {
                case .failure(let error):
                    ws.closeReceived = true
                    ws.closeCode = error.code
                    _ = ws.handle.queueFromOwner(WebSocketFrameParser.encode(.close(code: error.code, reason: String(error.detail.prefix(120)))), closing: true)
                case .success(.ping(let payload)):
                    _ = ws.handle.queueFromOwner(WebSocketFrameParser.encode(.pong, payload), closing: false)
                case .success(.pong):
                    break
                case .success(.close(let code, _)):
                    ws.closeReceived = true
                    ws.closeCode = code
                    // Echo the status code (RFC 6455 §5.5.1); no code is answered with 1000.
                    _ = ws.handle.queueFromOwner(WebSocketFrameParser.encode(.close(code: code ?? 1000, reason: "")), closing: true)
                case .success(let message):
                    ws.session.received(message, on: ws.handle)
                }
            }
            if delivered || ws.handle.hasOutput { continue }
            if ws.closeReceived && !ws.handle.hasQueuedClose { return finish(c) }
            let n = recv(c.fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 {
                c.lastInput = Self.now()
                if !ws.closeReceived { ws.parser.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n])) }
            } else if n == 0 {
                c.peerClosed = true
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return release(c, .read)
            } else {
                return finish(c)
            }
        }
    }

    /// Whether a comma-separated header value holds `token` (case-insensitive).
    static func hasToken(_ value: String?, _ token: String) -> Bool {
        guard let value else { return false }
        return value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == token }
    }
}
