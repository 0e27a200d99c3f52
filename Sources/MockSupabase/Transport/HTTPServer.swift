import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback HTTP/1.1 server for any request handler — typically `MockSupabase.handle`, so that
/// clients in any language (supabase-js, supabase-py, curl) can talk to the mock.
///
/// - Binds 127.0.0.1 only; port 0 picks a free port (read `port` after `start()`).
/// - One thread per connection with blocking I/O: keep-alive, pipelining, `Connection: close`,
///   HTTP/1.0, `Expect: 100-continue`, Content-Length and chunked request bodies, HEAD (headers
///   only, with the Content-Length of the body the handler produced).
/// - Limits: a request head over `limits.maxHeadBytes` gets 431, a body over
///   `limits.maxBodyBytes` 413, a malformed request 400 (see `HTTPParseError`); the connection is
///   then closed. A connection silent for `idleTimeout` seconds is closed (408 first if a request
///   was half received). Over `maxConnections` open connections, a new one gets 503.
/// - `InjectedNetworkError` from the handler closes the connection without a response; any other
///   error becomes a 500 with a JSON body.
///
/// `stop()` closes the listener and every connection and returns once all threads are done.
public final class HTTPServer: @unchecked Sendable {
    /// The request handler: called concurrently from the connection threads.
    public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse

    /// Server settings.
    public struct Configuration: Sendable {
        /// The port on 127.0.0.1; 0 picks a free one.
        public var port: UInt16
        /// Seconds a connection may stay silent (between requests, or inside one) before it is
        /// closed; also the limit for a blocked write.
        public var idleTimeout: Double
        /// Request size limits.
        public var limits: HTTPParserLimits
        /// Open connections at most; further ones are answered 503 and closed.
        public var maxConnections: Int
        /// The listen backlog.
        public var backlog: Int32
        /// After an error response, how long the server keeps reading (and discarding) what the
        /// client still sends, so that the client sees the response instead of a reset.
        public var lingerTimeout: Double

        /// Settings: any free port, 60 s idle timeout, 16 KiB heads, 10 MiB bodies, 512 connections.
        public init(port: UInt16 = 0, idleTimeout: Double = 60, limits: HTTPParserLimits = HTTPParserLimits(),
                    maxConnections: Int = 512, backlog: Int32 = 256, lingerTimeout: Double = 2) {
            self.port = port
            self.idleTimeout = idleTimeout
            self.limits = limits
            self.maxConnections = maxConnections
            self.backlog = backlog
            self.lingerTimeout = lingerTimeout
        }
    }

    /// Counters since `start()`.
    public struct Statistics: Sendable, Equatable {
        /// Connections accepted (including those refused with 503).
        public var connectionsAccepted = 0
        /// Connections refused with 503 because `maxConnections` were open.
        public var connectionsRefused = 0
        /// Requests answered by the handler.
        public var requestsHandled = 0
        /// Requests rejected by the parser (400, 413, 431, …) or timed out (408).
        public var requestsRejected = 0
    }

    /// The settings.
    public let configuration: Configuration
    private let handler: Handler

    private enum Phase { case created, running, stopped }
    private let state = NSCondition()
    private var phase = Phase.created
    private var listenFD: Int32 = -1
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var acceptorRunning = false
    private var connections = Set<Int32>()
    private var counters = Statistics()
    private var boundPort: UInt16 = 0

    /// A server for a handler; call `start()` to listen.
    public init(configuration: Configuration = Configuration(), handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
    }

    /// A server for a mock backend.
    public convenience init(backend: MockSupabase, configuration: Configuration = Configuration()) {
        self.init(configuration: configuration) { try backend.handle($0) }
    }

    /// The bound port (valid after `start()`).
    public var port: UInt16 { state.lock(); defer { state.unlock() }; return boundPort }

    /// `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Connections open right now.
    public var openConnections: Int { state.lock(); defer { state.unlock() }; return connections.count }

    /// Counters since `start()`.
    public var statistics: Statistics { state.lock(); defer { state.unlock() }; return counters }

    /// Waits (without polling) until at most `count` connections are open, or `timeout` seconds
    /// pass; returns whether the count was reached.
    @discardableResult
    public func waitForOpenConnections(atMost count: Int, timeout: Double) -> Bool {
        wait(timeout: timeout) { _, open in open <= count }
    }

    /// Waits (without polling) until `condition` holds for the counters and the number of open
    /// connections, or `timeout` seconds pass; returns whether it held.
    @discardableResult
    public func wait(timeout: Double, until condition: (_ statistics: Statistics, _ openConnections: Int) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.lock(); defer { state.unlock() }
        while !condition(counters, connections.count) {
            if !state.wait(until: deadline) { return condition(counters, connections.count) }
        }
        return true
    }

    /// Binds 127.0.0.1:`configuration.port` and starts accepting connections.
    public func start() throws {
        state.lock()
        guard phase == .created else {
            state.unlock()
            throw HTTPServerError(operation: "start (already started)", code: EINVAL, port: configuration.port)
        }
        state.unlock()
        let (fd, port) = try Socket.listen(port: configuration.port, backlog: configuration.backlog)
        let wake: (read: Int32, write: Int32)
        do { wake = try Socket.makePipe() } catch { close(fd); throw error }
        // Non-blocking listener: a connection reset between poll and accept must not block accept.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        state.lock()
        listenFD = fd
        wakeRead = wake.read
        wakeWrite = wake.write
        boundPort = port
        phase = .running
        acceptorRunning = true
        state.unlock()
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "HTTPServer accept :\(port)"
        thread.start()
    }

    /// Stops accepting, closes every connection (requests being handled finish, their responses
    /// are dropped) and returns when every server thread has ended. Idempotent.
    public func stop() {
        state.lock()
        guard phase == .running else { state.unlock(); return }
        phase = .stopped
        let wakeFD = wakeWrite
        state.unlock()
        var byte: UInt8 = 1
        _ = write(wakeFD, &byte, 1)
        state.lock()
        while acceptorRunning { state.wait() }
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
        while !connections.isEmpty { state.wait() }
        close(wakeRead)
        close(wakeWrite)
        wakeRead = -1
        wakeWrite = -1
        state.unlock()
    }

    // MARK: Accepting

    private func acceptLoop() {
        state.lock()
        let lfd = listenFD, wfd = wakeRead
        state.unlock()
        loop: while true {
            var fds = [pollfd(fd: lfd, events: Int16(POLLIN), revents: 0), pollfd(fd: wfd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if fds[1].revents != 0 { break }
            // Accept everything pending.
            while true {
                let c = accept(lfd, nil, nil)
                if c < 0 {
                    if errno == EINTR { continue }
                    if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                        // Out of descriptors: give connections time to close instead of spinning.
                        var wakeOnly = [pollfd(fd: wfd, events: Int16(POLLIN), revents: 0)]
                        if poll(&wakeOnly, 1, 50) > 0 { break loop }
                    }
                    break
                }
                admit(c)
            }
        }
        state.lock()
        close(listenFD)
        listenFD = -1
        acceptorRunning = false
        state.broadcast()
        state.unlock()
    }

    private func admit(_ fd: Int32) {
        // Accepted sockets inherit O_NONBLOCK on Darwin, not on Linux: make them blocking everywhere.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        Socket.configureConnection(fd, timeout: configuration.idleTimeout)
        state.lock()
        counters.connectionsAccepted += 1
        state.broadcast()
        if phase != .running {
            state.unlock()
            close(fd)
            return
        }
        if connections.count >= configuration.maxConnections {
            counters.connectionsRefused += 1
            state.unlock()
            Socket.setTimeout(fd, 0.5)
            let body = HTTPServer.errorBody(503, "the server has \(configuration.maxConnections) connections open; retry later")
            let bytes = HTTPServer.serialize(HTTPResponse(status: 503, headers: ["Content-Type": "application/json; charset=utf-8", "Retry-After": "1"], body: body),
                                             isHead: false, keepAlive: false, http10: false)
            _ = bytes.withUnsafeBytes { Socket.writeAll(fd, $0) }
            shutdown(fd, Int32(SHUT_WR))
            close(fd)
            return
        }
        connections.insert(fd)
        state.unlock()
        let thread = Thread { [self] in
            serve(fd)
            state.lock()
            connections.remove(fd)
            close(fd)
            state.broadcast()
            state.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    // MARK: One connection

    private func count(_ path: WritableKeyPath<Statistics, Int>) {
        state.lock()
        counters[keyPath: path] += 1
        state.broadcast()
        state.unlock()
    }

    private func serve(_ fd: Int32) {
        var parser = HTTPRequestParser(limits: configuration.limits)
        let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { readBuffer.deallocate() }
        while true {
            while let event = parser.next() {
                switch event {
                case .continueRequested:
                    let ok = HTTPServer.continueBytes.withUnsafeBytes { Socket.writeAll(fd, $0) }
                    if !ok { return }
                case .failure(let error):
                    count(\.requestsRejected)
                    reject(fd, status: error.status, message: error.detail)
                    return
                case .request(let parsed):
                    let keepAlive = parsed.keepAlive
                    let request = parsed.httpRequest
                    let response: HTTPResponse
                    do {
                        response = try handler(request)
                    } catch is InjectedNetworkError {
                        return  // an injected network failure: the connection drops without a response
                    } catch {
                        response = HTTPResponse(status: 500, headers: ["Content-Type": "application/json; charset=utf-8"],
                                                body: HTTPServer.errorBody(500, "the handler failed: \(error)"))
                    }
                    count(\.requestsHandled)
                    let bytes = HTTPServer.serialize(response, isHead: request.method == "HEAD", keepAlive: keepAlive,
                                                     http10: parsed.version.minor == 0)
                    guard bytes.withUnsafeBytes({ Socket.writeAll(fd, $0) }) else { return }
                    if !keepAlive {
                        lingeringClose(fd)
                        return
                    }
                }
            }
            let n = recv(fd, readBuffer.baseAddress, readBuffer.count, 0)
            if n > 0 {
                parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[0..<n]))
            } else if n == 0 {
                return  // the client closed (a half-received request is dropped)
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                // Idle timeout.
                if parser.hasPartialRequest {
                    count(\.requestsRejected)
                    reject(fd, status: 408, message: "no data for \(configuration.idleTimeout) seconds in the middle of a request")
                }
                return
            } else {
                return
            }
        }
    }

    /// Answers an error with `Connection: close`, then closes gracefully.
    private func reject(_ fd: Int32, status: Int, message: String) {
        let response = HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"],
                                    body: HTTPServer.errorBody(status, message))
        let bytes = HTTPServer.serialize(response, isHead: false, keepAlive: false, http10: false)
        guard bytes.withUnsafeBytes({ Socket.writeAll(fd, $0) }) else { return }
        lingeringClose(fd)
    }

    /// Half-closes and discards what the client still sends (bounded in time and bytes), so that
    /// closing a socket with unread input does not reset the connection before the client has
    /// read the response.
    private func lingeringClose(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        let limit = configuration.lingerTimeout
        guard limit > 0 else { return }
        Socket.setTimeout(fd, min(limit, configuration.idleTimeout))
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(limit * 1e9)
        var drained = 0
        let cap = configuration.limits.maxBodyBytes + 2 * configuration.limits.maxHeadBytes
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while drained < cap && DispatchTime.now().uptimeNanoseconds < deadline {
            let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 { drained += n } else if n < 0 && errno == EINTR { continue } else { return }
        }
    }

    // MARK: Responses

    private static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// A JSON error body: `{"code": 431, "error": "Request Header Fields Too Large", "message": "…"}`.
    static func errorBody(_ status: Int, _ message: String) -> Data {
        JSONValue.object(["code": .int(Int64(status)), "error": .string(reasonPhrase(status)), "message": .string(message)]).data()
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 417: return "Expectation Failed"
        case 505: return "HTTP Version Not Supported"
        default: return httpReasonPhrase(status)
        }
    }

    /// The bytes of a response: status line, the handler's fields (hop-by-hop ones replaced by the
    /// server's own framing, CR/LF in values neutralised), Content-Length, Connection, body.
    public static func serialize(_ response: HTTPResponse, isHead: Bool, keepAlive: Bool, http10: Bool) -> [UInt8] {
        let status = (100...999).contains(response.status) ? response.status : 500
        let bodyless = status < 200 || status == 204 || status == 304
        var out: [UInt8] = []
        out.reserveCapacity(160 + response.headers.fields.count * 48 + (isHead || bodyless ? 0 : response.body.count))
        out.append(contentsOf: "HTTP/1.1 \(status) \(reasonPhrase(status))\r\n".utf8)
        var declaredLength: String?
        for (name, value) in response.headers.fields {
            guard !name.isEmpty, name.utf8.allSatisfy(HTTPRequestParser.isTokenByte) else { continue }
            if name.caseInsensitiveEquals("Content-Length") { declaredLength = value; continue }
            if name.caseInsensitiveEquals("Transfer-Encoding") || name.caseInsensitiveEquals("Connection")
                || name.caseInsensitiveEquals("Keep-Alive") { continue }
            out.append(contentsOf: name.utf8)
            out.append(58)  // ':'
            out.append(32)
            for b in value.utf8 { out.append(b == 13 || b == 10 || b == 0 ? 32 : b) }
            out.append(13)
            out.append(10)
        }
        if !bodyless {
            // HEAD: the length of the body a GET would get; a handler that answers HEAD with no
            // body may declare that length itself.
            let length: String
            if isHead && response.body.isEmpty, let declared = declaredLength, !declared.isEmpty, declared.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
                length = declared
            } else {
                length = String(response.body.count)
            }
            out.append(contentsOf: "Content-Length: ".utf8)
            out.append(contentsOf: length.utf8)
            out.append(13)
            out.append(10)
        }
        if !keepAlive {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if http10 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(13)
        out.append(10)
        if !isHead && !bodyless { out.append(contentsOf: response.body) }
        return out
    }
}
