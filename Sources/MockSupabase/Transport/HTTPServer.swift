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
/// - Event-driven, as nginx is: a few threads wait on one poller (epoll, kqueue) and serve
///   whichever connection has bytes, so a silent or slow client holds a descriptor and a few
///   bytes, never a thread. The handler runs on those threads.
/// - Keep-alive, pipelining, `Connection: close`, HTTP/1.0, `Expect: 100-continue`,
///   Content-Length and chunked request bodies, HEAD (headers only, with the Content-Length of the
///   body the handler produced). Lines end with CRLF; methods are case-sensitive.
/// - Deadlines for the whole request head (`headTimeout`, like nginx's `client_header_timeout`)
///   and the whole body (`bodyTimeout`, like `client_body_timeout` but for the whole body), a
///   silence limit inside a request and between requests (`idleTimeout`) and one for writing a
///   response (`writeTimeout`). A request cut off by a deadline gets 408 before the close; an idle
///   connection is closed silently.
/// - Limits: a head over `limits.maxHeadBytes` gets 431, a body over `limits.maxBodyBytes` 413, a
///   malformed request 400 (see `HTTPParseError`). All bodies being received together may hold
///   at most `maxInFlightBodyBytes`: a body that would pass it is refused with 503 and
///   `Retry-After` before it is read (its Content-Length is known up front).
/// - At `maxConnections`, the connection idle longest is closed to admit a new one (as nginx
///   reuses keep-alive connections), else a request head begun over a second ago gets 408, else
///   the new connection gets 503.
/// - `InjectedNetworkError` from the handler closes the connection without a response; any other
///   error becomes a 500 with a JSON body.
///
/// `stop()` closes the listener and every connection and returns once all threads are done.
/// Figures (slow clients, memory) are in docs/server.md.
public final class HTTPServer: @unchecked Sendable {
    /// The request handler: called concurrently from the server's threads.
    package typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse

    /// Server settings.
    public struct Configuration: Sendable {
        /// The port on 127.0.0.1; 0 picks a free one.
        package var port: UInt16
        /// Seconds a kept-alive connection may wait silent for its next request, and the longest
        /// silence inside a request.
        package var idleTimeout: Double
        /// Seconds from a request's first byte to the end of its head (from accept for a new
        /// connection's first request).
        package var headTimeout: Double
        /// Seconds from the end of a head to the end of its body.
        package var bodyTimeout: Double
        /// Seconds a response may take to be written to a client that reads slowly.
        package var writeTimeout: Double
        /// Request size limits.
        package var limits: HTTPParserLimits
        /// Open connections at most (also kept under the process's descriptor limit).
        package var maxConnections: Int
        /// Bytes all request bodies being received may hold together.
        package var maxInFlightBodyBytes: Int
        /// Threads serving connections (0: twice the processor count, at least 4).
        package var threads: Int
        package var backlog: Int32
        /// After an error response or `Connection: close`, how long the server keeps reading (and
        /// discarding) what the client still sends, so that the client sees the response instead
        /// of a reset.
        package var lingerTimeout: Double
        /// Seconds an upgraded WebSocket connection may stay silent (Phoenix clients send a
        /// heartbeat every 25-30 s, so the default of 60 s outlives two missed ones).
        package var webSocketIdleTimeout: Double = 60
        /// The largest WebSocket message accepted (all fragments); a bigger one closes with 1009.
        package var webSocketMaxMessageBytes: Int = 1 << 20

        /// Settings: any free port; 60 s idle, 10 s head, 30 s body and 30 s write deadlines;
        /// 16 KiB heads, 10 MiB bodies, 64 MiB of bodies in flight; 10,000 connections.
        public init(
            port: UInt16 = 0, idleTimeout: Double = 60, headTimeout: Double = 10, bodyTimeout: Double = 30,
            writeTimeout: Double = 30, limits: HTTPParserLimits = HTTPParserLimits(), maxConnections: Int = 10_000,
            maxInFlightBodyBytes: Int = 64 * 1024 * 1024, threads: Int = 0, backlog: Int32 = 4096,
            lingerTimeout: Double = 2
        ) {
            self.port = port
            self.idleTimeout = idleTimeout
            self.headTimeout = headTimeout
            self.bodyTimeout = bodyTimeout
            self.writeTimeout = writeTimeout
            self.limits = limits
            self.maxConnections = maxConnections
            self.maxInFlightBodyBytes = maxInFlightBodyBytes
            self.threads = threads
            self.backlog = backlog
            self.lingerTimeout = lingerTimeout
        }
    }

    /// Counters since `start()`.
    package struct Statistics: Sendable, Equatable {
        /// Connections accepted (including those refused with 503).
        package var connectionsAccepted = 0
        /// Connections refused with 503 because `maxConnections` were open and none could be closed.
        package var connectionsRefused = 0
        /// Idle or slow connections closed to admit a new one at `maxConnections`.
        package var connectionsEvicted = 0
        /// Connections closed by a deadline (idle, head, body, write).
        package var connectionsTimedOut = 0
        /// Requests answered by the handler.
        package var requestsHandled = 0
        /// Requests rejected by the parser (400, 413, 431, …), timed out (408) or refused for
        /// memory (503).
        package var requestsRejected = 0
        /// Bodies refused with 503 because `maxInFlightBodyBytes` were in flight.
        package var bodiesRefused = 0
        /// Bytes reserved now by request bodies being received (a gauge, not a counter).
        package var bodyBytesInFlight = 0
        package var webSocketsOpened = 0
    }

    /// The settings.
    package let configuration: Configuration
    private let handler: Handler
    let webSocketAcceptor: WebSocketAcceptor?
    var webSocketIDs: UInt64 = 0

    enum Phase { case created, running, stopping, stopped }
    /// Guards everything below, and `busy` of every connection.
    let state = NSCondition()
    var phase = Phase.created
    private var listenFD: Int32 = -1
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    var poller: EventPoller?
    private var listenerPaused = false
    var connections: [Int32: HTTPConnection] = [:]
    private var generation: UInt64 = 0
    var counters = Statistics()
    private var boundPort: UInt16 = 0
    private var runningThreads = 0
    private var inFlightPeak = 0
    private var connectionCap = 0
    /// The deadline sweeper sleeps on its own condition, so that it does not wake per request.
    private let sweeperClock = NSCondition()
    private var sweeperStopping = false

    private static let wakeToken: UInt64 = 0
    private static let listenToken: UInt64 = 1
    /// How often deadlines are checked.
    private static let sweepInterval = 0.05

    /// A server for a handler; call `start()` to listen. With `webSocket` it also accepts
    /// WebSocket upgrades: a `GET` with `Upgrade: websocket`, `Connection: Upgrade`,
    /// `Sec-WebSocket-Version: 13` and a key goes to `webSocket` (a wrong version gets 426, a bad
    /// key 400, as RFC 6455 §4.2.2 says); on `.accept` the server answers 101 and the connection
    /// speaks frames in the same event loop.
    package init(configuration: Configuration = Configuration(), handler: @escaping Handler, webSocket: WebSocketAcceptor? = nil) {
        self.configuration = configuration
        self.handler = handler
        self.webSocketAcceptor = webSocket
    }

    /// A server for a mock backend, with Realtime on `/realtime/v1/websocket`.
    public convenience init(backend: MockSupabase, configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, handler: { try backend.handle($0) }, webSocket: backend.realtime.acceptor)
    }

    /// The bound port (valid after `start()`).
    public var port: UInt16 { state.lock(); defer { state.unlock() }; return boundPort }

    /// `http://127.0.0.1:<port>`.
    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    package var openConnections: Int { state.lock(); defer { state.unlock() }; return connections.count }

    /// Bytes reserved right now by request bodies being received.
    package var bodyBytesInFlight: Int { state.lock(); defer { state.unlock() }; return counters.bodyBytesInFlight }

    /// Counters since `start()`.
    package var statistics: Statistics { state.lock(); defer { state.unlock() }; return counters }

    /// Connections kept alive between requests and handed back to the poller: the ones a
    /// newcomer at `maxConnections` may evict. A connection whose response was just sent can
    /// still be held by its worker for a moment, and is not counted until it is released.
    package var idleConnections: Int {
        state.lock(); defer { state.unlock() }
        return connections.values.filter { !$0.busy && $0.phase == .waiting }.count
    }

    /// Waits (without polling) until at most `count` connections are open, or `timeout` seconds
    /// pass; returns whether the count was reached.
    @discardableResult
    package func waitForOpenConnections(atMost count: Int, timeout: Double) -> Bool {
        wait(timeout: timeout) { _, open in open <= count }
    }

    /// Waits (without polling) until `condition` holds for the counters and the number of open
    /// connections, or `timeout` seconds pass; returns whether it held.
    @discardableResult
    package func wait(timeout: Double, until condition: (_ statistics: Statistics, _ openConnections: Int) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        state.lock(); defer { state.unlock() }
        while !condition(counters, connections.count) {
            if !state.wait(until: deadline) { return condition(counters, connections.count) }
        }
        return true
    }

    // MARK: Life cycle

    /// Binds 127.0.0.1:`configuration.port` and starts serving.
    public func start() throws {
        state.lock()
        guard phase == .created else {
            state.unlock()
            throw HTTPServerError(operation: "start (already started)", code: EINVAL, port: configuration.port)
        }
        state.unlock()
        let (fd, port) = try Socket.listen(port: configuration.port, backlog: configuration.backlog)
        var cleanup: [Int32] = [fd]
        let poller: EventPoller
        let wake: (read: Int32, write: Int32)
        do {
            wake = try Socket.makePipe()
            cleanup += [wake.read, wake.write]
            Socket.setNonBlocking(fd)
            poller = try EventPoller()
            do {
                try poller.addWake(wake.read, token: Self.wakeToken)
                try poller.add(fd, token: Self.listenToken, interest: .read)
            } catch { poller.close(); throw error }
        } catch {
            for d in cleanup { close(d) }
            throw error
        }
        let threads = configuration.threads > 0 ? configuration.threads : max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
        state.lock()
        listenFD = fd
        wakeRead = wake.read
        wakeWrite = wake.write
        self.poller = poller
        boundPort = port
        phase = .running
        // Room under the descriptor limit for the listener, the poller, the wake pipe and the process.
        connectionCap = max(1, min(configuration.maxConnections, Socket.descriptorLimit() - 64 - threads))
        runningThreads = threads + 1
        state.unlock()
        for n in 0..<threads {
            let thread = Thread { [self] in
                serveLoop(poller)
                threadEnded()
            }
            thread.name = "HTTPServer :\(port) #\(n)"
            thread.stackSize = 8 << 20 // handlers recurse (JSON, filters)
            thread.start()
        }
        let sweeper = Thread { [self] in
            sweepLoop()
            threadEnded()
        }
        sweeper.name = "HTTPServer :\(port) deadlines"
        sweeper.start()
    }

    /// Stops accepting, closes every connection (requests being handled finish, their responses
    /// are dropped) and returns when every server thread has ended. Idempotent.
    public func stop() {
        state.lock()
        guard phase == .running else {
            while phase == .stopping { state.wait() }
            state.unlock()
            return
        }
        phase = .stopping
        let wakeFD = wakeWrite
        state.unlock()
        var byte: UInt8 = 1
        _ = write(wakeFD, &byte, 1) // level-triggered: every waiting thread wakes and leaves
        sweeperClock.lock()
        sweeperStopping = true
        sweeperClock.signal()
        sweeperClock.unlock()
        state.lock()
        while runningThreads > 0 { state.wait() }
        var sockets: [WebSocketState] = []
        for c in connections.values {
            shutdown(c.fd, Int32(SHUT_RDWR))
            close(c.fd)
            if let ws = c.webSocket { sockets.append(ws) }
        }
        connections = [:]
        counters.bodyBytesInFlight = 0
        close(listenFD)
        close(wakeRead)
        close(wakeWrite)
        poller?.close()
        poller = nil
        listenFD = -1
        wakeRead = -1
        wakeWrite = -1
        phase = .stopped
        state.broadcast()
        state.unlock()
        for ws in sockets where ws.handle.end() { ws.session.closed(ws.handle, code: 1001) }
    }

    private func threadEnded() {
        state.lock()
        runningThreads -= 1
        state.broadcast()
        state.unlock()
    }

    // MARK: Serving threads

    private func serveLoop(_ poller: EventPoller) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var events: [EventPoller.Event] = []
        events.reserveCapacity(4)
        while true {
            // A few events at a time: a thread busy with a slow handler delays only those.
            _ = poller.wait(into: &events, capacity: 4, timeoutMilliseconds: -1)
            for event in events {
                switch event.token {
                case Self.wakeToken: return
                case Self.listenToken: acceptPending()
                default:
                    guard let c = take(event.token) else { continue }
                    serve(c, buffer: buffer)
                }
            }
        }
    }

    /// The connection of an event, now owned by the caller; nil for a stale event.
    private func take(_ token: UInt64) -> HTTPConnection? {
        state.lock(); defer { state.unlock() }
        guard phase == .running, let c = connections[Int32(truncatingIfNeeded: token & 0xFFFF_FFFF)],
            c.token == token, !c.busy
        else { return nil }
        c.busy = true
        return c
    }

    /// Hands a connection back to the poller, armed for `interest`, with its next deadline.
    func release(_ c: HTTPConnection, _ interest: EventPoller.Interest) {
        c.deadline = deadline(of: c)
        state.lock()
        guard phase == .running, let poller else { state.unlock(); return } // stop() closes it
        // Armed under the lock: the descriptor cannot be closed and reused in between. A WebSocket
        // whose outbox filled while this thread owned it is armed for writing (see `wake`).
        var interest = interest
        if let ws = c.webSocket, ws.handle.hasOutput { interest = .write }
        if poller.arm(c.fd, token: c.token, interest: interest) {
            c.busy = false
            state.unlock()
        } else {
            state.unlock()
            finish(c)
        }
    }

    /// Closes a connection the caller owns.
    func finish(_ c: HTTPConnection) {
        if let ws = c.webSocket, ws.handle.end() { ws.session.closed(ws.handle, code: ws.closeCode) }
        state.lock()
        if connections[c.fd] === c { connections[c.fd] = nil }
        let trim = returnBodyBytes(c)
        state.broadcast()
        close(c.fd) // under the lock: the descriptor is not reused before it left the table
        state.unlock()
        if trim { releaseFreedMemoryToSystem() }
    }

    /// Serves what a connection has: writes pending output, answers buffered requests, reads more.
    /// Returns once the connection is released to the poller or closed.
    private func serve(_ c: HTTPConnection, buffer: UnsafeMutableRawBufferPointer) {
        if c.phase == .lingering { return linger(c, buffer) }
        c.drained = false
        while true {
            if c.webSocket != nil { return serveWebSocket(c, buffer: buffer) }
            if c.outputOffset < c.output.count {
                switch c.flush() {
                case .failed: return finish(c)
                case .blocked:
                    if c.phase != .writing { c.phase = .writing; c.phaseStart = Self.now() }
                    return release(c, .write)
                case .done: notePhase(c, Self.now())
                }
            }
            if c.closeAfterOutput { return startLingering(c) }
            switch produce(c) {
            case .queued: continue
            case .drop: return finish(c)
            case .nothing: break
            }
            if c.peerClosed { return finish(c) }
            if c.drained { return release(c, .read) }
            let now = Self.now()
            switch c.read(into: buffer, now: now) {
            case .bytes: notePhase(c, now)
            case .wouldBlock: return release(c, .read)
            case .endOfStream: c.peerClosed = true
            case .failed: return finish(c)
            }
        }
    }

    enum Produced { case nothing, queued, drop }

    /// Takes the parser's next event and queues what answers it.
    private func produce(_ c: HTTPConnection) -> Produced {
        let event = c.parser.next()
        if case .request = event {
        } else if c.parser.isReadingBody, !reserveBody(c) {
            // Refused before the body is read (or before 100 Continue invites it).
            state.lock()
            counters.bodiesRefused += 1
            counters.requestsRejected += 1
            state.broadcast()
            state.unlock()
            queueError(
                c, 503, "request bodies in flight would exceed \(configuration.maxInFlightBodyBytes) bytes; retry later",
                extraHeaders: ["Retry-After": "1"])
            return .queued
        }
        guard let event else { return .nothing }
        switch event {
        case .continueRequested:
            c.enqueue(HTTPServer.continueBytes)
            return .queued
        case .failure(let error):
            count(\.requestsRejected)
            queueError(c, error.status, error.detail)
            return .queued
        case .request(let parsed):
            returnBodyBytesLocked(c)
            let request = parsed.httpRequest
            if let acceptor = webSocketAcceptor, parsed.version.minor >= 1, let upgraded = upgrade(c, request, acceptor) {
                return upgraded
            }
            let response: HTTPResponse
            do {
                response = try handler(request)
            } catch is InjectedNetworkError {
                return .drop // an injected network failure: the connection drops without a response
            } catch {
                response = HTTPResponse(
                    status: 500, headers: ["Content-Type": "application/json; charset=utf-8"],
                    body: HTTPServer.errorBody(500, "the handler failed: \(error)"))
            }
            count(\.requestsHandled)
            let keepAlive = parsed.keepAlive
            c.enqueue(
                HTTPServer.serialize(
                    response, isHead: request.method == "HEAD", keepAlive: keepAlive,
                    http10: parsed.version.minor == 0))
            c.servedRequests += 1
            c.phase = .waiting
            c.phaseStart = Self.now()
            if !keepAlive { c.closeAfterOutput = true }
            notePhase(c, c.phaseStart)
            return .queued
        }
    }

    /// Queues an error response after which the connection closes.
    private func queueError(_ c: HTTPConnection, _ status: Int, _ message: String, extraHeaders: [String: String] = [:]) {
        var headers: HTTPHeaders = ["Content-Type": "application/json; charset=utf-8"]
        for (k, v) in extraHeaders { headers[k] = v }
        let response = HTTPResponse(status: status, headers: headers, body: HTTPServer.errorBody(status, message))
        c.enqueue(HTTPServer.serialize(response, isHead: false, keepAlive: false, http10: false))
        c.closeAfterOutput = true
    }

    /// Moves the connection's phase after input arrived or a request completed.
    private func notePhase(_ c: HTTPConnection, _ now: UInt64) {
        let next: HTTPConnection.Phase = c.parser.isReadingBody ? .body : c.parser.hasPartialRequest ? .head : .waiting
        if next != c.phase {
            c.phase = next
            c.phaseStart = now
        }
    }

    private func deadline(of c: HTTPConnection) -> UInt64 {
        func after(_ start: UInt64, _ seconds: Double) -> UInt64 {
            seconds >= 1e9 ? .max : start &+ UInt64(max(seconds, 0) * 1e9)
        }
        let cfg = configuration
        switch c.phase {
        case .waiting:
            return c.servedRequests == 0 ? after(c.phaseStart, min(cfg.headTimeout, cfg.idleTimeout)) : after(c.phaseStart, cfg.idleTimeout)
        case .head: return min(after(c.phaseStart, cfg.headTimeout), after(c.lastInput, cfg.idleTimeout))
        case .body: return min(after(c.phaseStart, cfg.bodyTimeout), after(c.lastInput, cfg.idleTimeout))
        case .writing: return after(c.phaseStart, cfg.writeTimeout)
        case .lingering: return after(c.phaseStart, cfg.lingerTimeout)
        case .webSocket:
            let idle = after(c.lastInput, cfg.webSocketIdleTimeout)
            guard let ws = c.webSocket, ws.blockedSince > 0 else { return idle }
            return min(idle, after(ws.blockedSince, cfg.writeTimeout))
        }
    }

    // MARK: Closing

    /// Half-closes after the last response and discards input until the client closes.
    private func startLingering(_ c: HTTPConnection) {
        shutdown(c.fd, Int32(SHUT_WR))
        returnBodyBytesLocked(c)
        guard configuration.lingerTimeout > 0 else { return finish(c) }
        c.phase = .lingering
        c.phaseStart = Self.now()
        c.parser = HTTPRequestParser(limits: configuration.limits) // frees what it held
        release(c, .read)
    }

    private func linger(_ c: HTTPConnection, _ buffer: UnsafeMutableRawBufferPointer) {
        let cap = configuration.limits.maxBodyBytes + 2 * configuration.limits.maxHeadBytes
        while c.lingerDrained < cap {
            let n = recv(c.fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 { c.lingerDrained += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return release(c, .read) }
            break
        }
        finish(c)
    }

    // MARK: Body memory

    /// Reserves what the body being received commits; false when the budget cannot hold it.
    private func reserveBody(_ c: HTTPConnection) -> Bool {
        let need = c.parser.bodyBytesCommitted
        guard need > c.reservedBodyBytes else { return true }
        state.lock(); defer { state.unlock() }
        let more = need - c.reservedBodyBytes
        guard counters.bodyBytesInFlight + more <= configuration.maxInFlightBodyBytes else { return false }
        counters.bodyBytesInFlight += more
        inFlightPeak = max(inFlightPeak, counters.bodyBytesInFlight)
        c.reservedBodyBytes = need
        state.broadcast()
        return true
    }

    private func returnBodyBytesLocked(_ c: HTTPConnection) {
        guard c.reservedBodyBytes > 0 else { return }
        state.lock()
        let trim = returnBodyBytes(c)
        state.unlock()
        if trim { releaseFreedMemoryToSystem() }
    }

    /// Returns a connection's reservation (lock held); true when memory should go back to the
    /// system (the last of a large peak was freed).
    private func returnBodyBytes(_ c: HTTPConnection) -> Bool {
        counters.bodyBytesInFlight -= c.reservedBodyBytes
        c.reservedBodyBytes = 0
        state.broadcast()
        if counters.bodyBytesInFlight == 0 && inFlightPeak > 8 * 1024 * 1024 {
            inFlightPeak = 0
            return true
        }
        return false
    }

    // MARK: Accepting

    private func acceptPending() {
        var accepted = 0
        while accepted < 256 {
            let fd = accept(listenFD, nil, nil)
            if fd >= 0 {
                accepted += 1
                admit(fd)
                continue
            }
            if errno == EINTR { continue }
            if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                // Out of descriptors: close an idle connection, else wait for the sweeper's next tick.
                if evictOne(reason: "descriptors") { continue }
                state.lock()
                listenerPaused = true
                state.unlock()
                return
            }
            break // EAGAIN: nothing pending
        }
        state.lock()
        if phase == .running { poller?.arm(listenFD, token: Self.listenToken, interest: .read) }
        state.unlock()
    }

    private func admit(_ fd: Int32) {
        Socket.configureConnection(fd)
        let now = Self.now()
        state.lock()
        counters.connectionsAccepted += 1
        state.broadcast()
        guard phase == .running, let poller else {
            state.unlock()
            close(fd)
            return
        }
        var victim: HTTPConnection?
        if connections.count >= connectionCap {
            victim = pickVictim(now)
            if victim == nil {
                counters.connectionsRefused += 1
                state.unlock()
                let body = HTTPServer.errorBody(503, "the server has \(connectionCap) connections open; retry later")
                let bytes = HTTPServer.serialize(
                    HTTPResponse(status: 503, headers: ["Content-Type": "application/json; charset=utf-8", "Retry-After": "1"], body: body),
                    isHead: false, keepAlive: false, http10: false)
                _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Socket.sendFlags) }
                shutdown(fd, Int32(SHUT_WR))
                close(fd)
                return
            }
            counters.connectionsEvicted += 1
        }
        generation += 1
        let c = HTTPConnection(fd: fd, token: (generation << 32) | UInt64(UInt32(bitPattern: fd)), limits: configuration.limits, now: now)
        c.deadline = deadline(of: c)
        connections[fd] = c
        let added = (try? poller.add(fd, token: c.token, interest: .read)) != nil
        if !added { connections[fd] = nil; close(fd) }
        state.unlock()
        if let victim { expire(victim, evicted: true) }
    }

    /// The connection to close for a newcomer (lock held; marked busy): the one idle longest, else
    /// the one whose request head began earliest, over a second ago.
    private func pickVictim(_ now: UInt64) -> HTTPConnection? {
        var idle: HTTPConnection?, slow: HTTPConnection?
        for c in connections.values where !c.busy {
            if c.phase == .waiting, idle == nil || c.phaseStart < idle!.phaseStart { idle = c }
            if c.phase == .head, now &- c.phaseStart > 1_000_000_000, slow == nil || c.phaseStart < slow!.phaseStart { slow = c }
        }
        let victim = idle ?? slow
        victim?.busy = true
        return victim
    }

    /// Closes one connection to free a descriptor; false when none could be.
    private func evictOne(reason: String) -> Bool {
        state.lock()
        let victim = pickVictim(Self.now())
        if victim != nil { counters.connectionsEvicted += 1 }
        state.unlock()
        guard let victim else { return false }
        expire(victim, evicted: true)
        return true
    }

    // MARK: Deadlines

    private func sweepLoop() {
        while true {
            sweeperClock.lock()
            if !sweeperStopping { _ = sweeperClock.wait(until: Date(timeIntervalSinceNow: Self.sweepInterval)) }
            let stopping = sweeperStopping
            sweeperClock.unlock()
            if stopping { return }
            sweep()
        }
    }

    private func sweep() {
        let now = Self.now()
        var expired: [HTTPConnection] = []
        state.lock()
        guard phase == .running else { state.unlock(); return }
        if listenerPaused {
            listenerPaused = false
            poller?.arm(listenFD, token: Self.listenToken, interest: .read)
        }
        for c in connections.values where !c.busy && c.deadline <= now {
            c.busy = true
            expired.append(c)
        }
        if !expired.isEmpty {
            counters.connectionsTimedOut += expired.count
            state.broadcast()
        }
        state.unlock()
        for c in expired { expire(c, evicted: false) }
    }

    /// Ends a connection the caller owns that missed its deadline or is evicted: a request cut
    /// off gets 408 first; an idle connection closes silently.
    private func expire(_ c: HTTPConnection, evicted: Bool) {
        switch c.phase {
        case .head, .body:
            count(\.requestsRejected)
            let what = c.phase == .head ? "request head" : "request body"
            let limit = c.phase == .head ? configuration.headTimeout : configuration.bodyTimeout
            let message =
                evicted
                ? "the \(what) was still incomplete when the server needed the connection"
                : "the \(what) was not complete within \(limit) seconds, or no data came for \(configuration.idleTimeout) seconds"
            c.output = []
            c.outputOffset = 0
            queueError(c, 408, message)
            _ = c.flush()
            startLingering(c)
        case .waiting, .writing, .lingering, .webSocket:
            finish(c)
        }
    }

    // MARK: Helpers

    func count(_ path: WritableKeyPath<Statistics, Int>) {
        state.lock()
        counters[keyPath: path] += 1
        state.broadcast()
        state.unlock()
    }

    @inline(__always)
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

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
    package static func serialize(_ response: HTTPResponse, isHead: Bool, keepAlive: Bool, http10: Bool) -> [UInt8] {
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
                || name.caseInsensitiveEquals("Keep-Alive")
            {
                continue
            }
            out.append(contentsOf: name.utf8)
            out.append(58) // ':'
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
