import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Requests to a plain-HTTP backend on this machine (`http://127.0.0.1:54321` of
/// `supabase start`, `contracts serve`) over HTTP/1.1 keep-alive connections of its own,
/// sending what `URLSessionSender` sends (the same path and query encoding, the same fields)
/// without a URLSession: on Linux a URLSession request costs libcurl's multi handle and a
/// dispatch hop on each side, several times what the loopback round trip itself costs, and
/// a live run sends thousands of requests (each restore reads the app's tables).
///
/// What it reads of an answer (RFC 9112): the status line, the fields (a field repeated
/// stays repeated), and the body by `Transfer-Encoding: chunked`, by `Content-Length`, or up to
/// the connection's close; none after a `HEAD`, a 1xx, a 204 or a 304 (section 6.3). A
/// connection is used again unless either side said `Connection: close` or the body ran to
/// the close. A request on a reused connection that gets no byte back (the server closed it
/// while idle) is sent once more on a new one. Redirects are answers, as `LiveEndpoint`'s
/// session hands them back.
final class LoopbackHTTPSender: @unchecked Sendable {
    /// `127.0.0.1` (IPv4 loopback: the only address this sender connects to).
    let port: UInt16
    /// The base URL's path (`/` prefix of every request target, usually empty).
    let basePath: String
    /// The `Host` field (`127.0.0.1:54321`).
    let host: String
    /// Seconds a send or a read may wait.
    let timeout: TimeInterval
    private let lock = NSLock()
    private var idle: [Int32] = []

    /// A sender for `baseURL` when it is plain HTTP to the IPv4 loopback (nil otherwise).
    init?(baseURL: URL, timeout: TimeInterval) {
        guard baseURL.scheme?.lowercased() == "http", let h = baseURL.host?.lowercased(), h == "127.0.0.1" || h == "localhost" else { return nil }
        port = UInt16(baseURL.port ?? 80)
        var p = baseURL.path
        while p.hasSuffix("/") { p.removeLast() }
        basePath = p
        host = "127.0.0.1:\(port)"
        self.timeout = timeout
    }

    deinit { for fd in idle { close(fd) } }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The request's head and body as sent.
    func bytes(_ request: WireRequest, _ credentials: some WireCredentials) throws -> [UInt8] {
        let encodedPath = request.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? request.path
        var target = basePath + encodedPath
        if target.isEmpty { target = "/" }
        if let q = request.encodedQuery { target += "?" + q }
        var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for f in try request.fields(credentials) {
            let name = f.name.lowercased()
            if name == "host" || name == "content-length" || name == "connection" || name == "transfer-encoding" { continue }
            head += "\(f.name): \(f.value)\r\n"
        }
        if !request.body.isEmpty || !["GET", "HEAD", "DELETE", "OPTIONS"].contains(request.method.uppercased()) {
            head += "Content-Length: \(request.body.count)\r\n"
        }
        head += "\r\n"
        return Array(head.utf8) + Array(request.body)
    }

    /// Sends a request with `credentials`' fields (`WireRequest.fields`) and waits for the answer.
    func send(_ request: WireRequest, credentials: some WireCredentials) throws -> HTTPResponse {
        let out = try bytes(request, credentials)
        let isHead = request.method.uppercased() == "HEAD"
        let target = "\(request.method) http://\(host)\(basePath)\(request.path)"
        // A reused connection the server closed while idle answers nothing: once more on a new one.
        for attempt in 0..<2 {
            let reused: Bool
            let fd: Int32
            lock.lock()
            if attempt == 0, let f = idle.popLast() {
                (fd, reused) = (f, true)
                lock.unlock()
            } else {
                lock.unlock()
                do { fd = try connectLoopback() } catch { throw WireSendError(target: target, underlying: error) }
                reused = false
            }
            do {
                let (response, keep) = try exchange(fd, out, isHead: isHead)
                if keep {
                    lock.lock(); idle.append(fd); lock.unlock()
                } else {
                    close(fd)
                }
                return response
            } catch let e as Failure where reused && e.description == LoopbackHTTPSender.nothingBack {
                close(fd)
                continue
            } catch {
                close(fd)
                throw WireSendError(target: target, underlying: error)
            }
        }
        throw WireSendError(target: target, underlying: Failure(description: LoopbackHTTPSender.nothingBack))
    }

    static let nothingBack = "the connection closed before any byte of the answer"

    func connectLoopback() throws -> Int32 {
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard r == 0 else {
            let e = errno
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(e)))")
        }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var tv = timeval()
        tv.tv_sec = .init(timeout.rounded(.down))
        tv.tv_usec = .init((timeout - timeout.rounded(.down)) * 1_000_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends the bytes and reads one answer; whether the connection may carry another.
    func exchange(_ fd: Int32, _ out: [UInt8], isHead: Bool) throws -> (HTTPResponse, Bool) {
        var sent = 0
        while sent < out.count {
            #if canImport(Darwin)
                let n = out.withUnsafeBytes { Darwin.send(fd, $0.baseAddress! + sent, out.count - sent, 0) }
            #else
                let n = out.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, out.count - sent, Int32(MSG_NOSIGNAL)) }
            #endif
            if n < 0 && errno == EINTR { continue }
            // A reused connection the server already closed refuses the write (EPIPE, ECONNRESET).
            guard n > 0 else {
                throw Failure(description: sent == 0 && (errno == EPIPE || errno == ECONNRESET) ? LoopbackHTTPSender.nothingBack : "send: errno \(errno)")
            }
            sent += n
        }
        var reader = Reader(fd: fd)
        while true {
            guard let statusLine = try reader.line() else {
                throw Failure(description: reader.received ? "the connection closed in the answer's head" : LoopbackHTTPSender.nothingBack)
            }
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
                throw Failure(description: "not an HTTP status line: \(statusLine.prefix(100))")
            }
            var headers = HTTPHeaders()
            var close = parts[0] == "HTTP/1.0", chunked = false, length: Int?
            while let line = try reader.line(), !line.isEmpty {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = String(line[..<colon]), value = LoopbackHTTPSender.trimmed(line[line.index(after: colon)...])
                headers.add(name, value)
                switch name.lowercased() {
                case "connection": if value.lowercased().contains("close") { close = true }
                case "transfer-encoding": if value.lowercased().contains("chunked") { chunked = true }
                case "content-length": length = length ?? Int(value)
                default: break
                }
            }
            if (100..<200).contains(status) { continue } // an interim answer; the final one follows
            var keep = !close
            var body: [UInt8] = []
            if isHead || status == 204 || status == 304 {
            } else if chunked {
                while true {
                    guard let sizeLine = try reader.line(),
                        let size = Int(LoopbackHTTPSender.trimmed(sizeLine.prefix { $0 != ";" }), radix: 16)
                    else {
                        throw Failure(description: "a bad chunk size line")
                    }
                    if size == 0 {
                        while let trailer = try reader.line(), !trailer.isEmpty {}
                        break
                    }
                    body += try reader.bytes(size)
                    _ = try reader.line()
                }
            } else if let length {
                body = try reader.bytes(length)
            } else {
                body = try reader.rest()
                keep = false
            }
            if reader.hasUnread { keep = false }
            return (HTTPResponse(status: status, headers: headers, body: Data(body)), keep)
        }
    }

    /// A field value without the spaces and tabs around it (RFC 9110 section 5.5: OWS).
    static func trimmed(_ s: Substring) -> String {
        var s = s
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }

    /// Buffered reads of one answer from a socket.
    struct Reader {
        let fd: Int32
        var buffer: [UInt8] = []
        var start = 0
        /// Whether any byte arrived.
        var received = false

        init(fd: Int32) { self.fd = fd }

        var hasUnread: Bool { start < buffer.count }

        /// Reads more; false at the close.
        mutating func fill() throws -> Bool {
            if start > 0 && start == buffer.count { buffer.removeAll(keepingCapacity: true); start = 0 }
            while true {
                let n = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32 * 1024) { chunk -> Int in
                    let n = recv(fd, chunk.baseAddress!, chunk.count, 0)
                    if n > 0 { buffer.append(contentsOf: chunk[0..<n]) }
                    return n
                }
                if n < 0 && errno == EINTR { continue }
                if n < 0 {
                    if !received && (errno == ECONNRESET) { return false }
                    throw Failure(description: errno == EAGAIN || errno == EWOULDBLOCK ? "timed out waiting for the answer" : "recv: errno \(errno)")
                }
                if n == 0 { return false }
                received = true
                return true
            }
        }

        /// One line without its CRLF (nil: closed before a line).
        mutating func line() throws -> String? {
            var searched = 0 // bytes after `start` known to hold no line feed
            while true {
                if let i = buffer[(start + searched)...].firstIndex(of: 10) {
                    var end = i
                    if end > start && buffer[end - 1] == 13 { end -= 1 }
                    let s = String(decoding: buffer[start..<end], as: UTF8.self)
                    start = i + 1
                    return s
                }
                searched = buffer.count - start
                if try !fill() { return nil }
            }
        }

        /// Exactly `n` bytes.
        mutating func bytes(_ n: Int) throws -> [UInt8] {
            while buffer.count - start < n {
                if try !fill() { throw Failure(description: "the connection closed \(n - (buffer.count - start)) bytes before the body's end") }
            }
            let out = Array(buffer[start..<start + n])
            start += n
            return out
        }

        /// Everything up to the close.
        mutating func rest() throws -> [UInt8] {
            while try fill() {}
            let out = Array(buffer[start...])
            start = buffer.count
            return out
        }
    }
}
