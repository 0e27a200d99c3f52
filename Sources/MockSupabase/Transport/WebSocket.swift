import Foundation

/// What an application does with an upgraded WebSocket connection of the loopback server.
///
/// The callbacks run on the server thread that owns the connection at that moment, one at a time
/// per connection (never two callbacks of one connection together); they should return quickly.
/// They may call `send`/`close` on any connection.
package protocol WebSocketSession: AnyObject, Sendable {
    /// The 101 is queued; `connection` can send from now on (from any thread).
    func opened(_ connection: WebSocketConnection)
    /// A whole text or binary message arrived (fragments reassembled, pings answered by the server).
    func received(_ message: WebSocketMessage, on connection: WebSocketConnection)
    /// The connection is gone: `code` is the peer's close code, the server's error code, or nil
    /// when the socket closed without a close handshake (1006 in RFC 6455 terms).
    func closed(_ connection: WebSocketConnection, code: UInt16?)
}

/// The answer to an upgrade request.
package enum WebSocketAcceptance: Sendable {
    /// Switch protocols and hand the connection to the session.
    case accept(WebSocketSession)
    /// Answer with this response instead (e.g. 403), as a server refusing the upgrade does.
    case reject(HTTPResponse)
    /// Not a WebSocket route: the request goes to the ordinary handler.
    case pass
}

/// Decides on a request carrying `Upgrade: websocket` (version and key are checked first).
package typealias WebSocketAcceptor = @Sendable (HTTPRequest) -> WebSocketAcceptance

/// The sending side of an upgraded connection, safe to use from any thread.
///
/// Frames are appended to an outbox under a lock; the server thread owning the connection writes
/// them. To get a released connection served (see `HTTPServer.wake`), the sender re-arms its
/// socket for writing under the server's lock — only when no thread owns it; an owning thread
/// looks at the outbox under that same lock before it hands the connection back to the poller,
/// so a frame queued at any moment is written without delay and never by two threads.
package final class WebSocketConnection: @unchecked Sendable, Hashable {
    /// The upgrade request (path, query, headers): who connected and how.
    package let request: HTTPRequest
    /// A number unique within the server.
    package let id: UInt64
    private let lock = NSLock()
    private var outbox: [UInt8] = []
    private var closeQueued = false
    private var ended = false
    private let wake: @Sendable () -> Void

    init(request: HTTPRequest, id: UInt64, wake: @escaping @Sendable () -> Void) {
        self.request = request
        self.id = id
        self.wake = wake
    }

    /// Queues a text message; false once the connection is closing or closed.
    @discardableResult
    package func send(text: String) -> Bool { queue(WebSocketFrameParser.encode(.text, Array(text.utf8)), closing: false) }

    /// Queues a binary message; false once the connection is closing or closed.
    @discardableResult
    package func send(binary: [UInt8]) -> Bool { queue(WebSocketFrameParser.encode(.binary, binary), closing: false) }

    /// Starts the closing handshake with `code` (1000 normal, 1008 policy, 1011 server error…);
    /// the server closes the TCP connection when the peer answers or after the write deadline.
    package func close(code: UInt16 = 1000, reason: String = "") {
        _ = queue(WebSocketFrameParser.encode(.close(code: code, reason: reason)), closing: true)
    }

    func queue(_ frame: [UInt8], closing: Bool, control: Bool = false) -> Bool {
        lock.lock()
        guard !ended, !closeQueued || (control && !closing) else { lock.unlock(); return false }
        if closing { closeQueued = true }
        outbox.append(contentsOf: frame)
        lock.unlock()
        wake()
        return true
    }

    /// Queues a control frame from the owner (pong) without waking.
    func queueFromOwner(_ frame: [UInt8], closing: Bool) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard !ended, !closeQueued else { return false }
        if closing { closeQueued = true }
        outbox.append(contentsOf: frame)
        return true
    }

    var hasOutput: Bool { lock.lock(); defer { lock.unlock() }; return !outbox.isEmpty }
    var hasQueuedClose: Bool { lock.lock(); defer { lock.unlock() }; return closeQueued }

    func takeOutput() -> [UInt8] {
        lock.lock(); defer { lock.unlock() }
        let out = outbox
        outbox = []
        return out
    }

    /// Marks the connection gone; returns false when it already was.
    func end() -> Bool {
        lock.lock(); defer { lock.unlock() }
        if ended { return false }
        ended = true
        outbox = []
        return true
    }

    package static func == (a: WebSocketConnection, b: WebSocketConnection) -> Bool { a === b }
    package func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }
}

/// Server-side state of an upgraded connection (owned like the rest of `HTTPConnection`).
final class WebSocketState {
    var parser: WebSocketFrameParser
    let session: WebSocketSession
    let handle: WebSocketConnection
    /// The peer's Close arrived (or its bytes broke the protocol): read no more.
    var closeReceived = false
    var closeCode: UInt16?
    /// When output first blocked (write deadline), 0 when not blocked.
    var blockedSince: UInt64 = 0

    init(parser: WebSocketFrameParser, session: WebSocketSession, handle: WebSocketConnection) {
        self.parser = parser
        self.session = session
        self.handle = handle
    }
}
