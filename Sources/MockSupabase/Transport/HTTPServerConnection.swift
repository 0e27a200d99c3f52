import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client connection of the loopback server: its socket, its parser, the response bytes not
/// yet written and the deadline it must meet next.
///
/// A connection is served by one thread at a time (the poller is one-shot; `busy`, guarded by the
/// server's lock, says a thread or the deadline sweeper owns it). Everything else is touched only
/// by the owner, without a lock.
final class HTTPConnection {
    /// What the connection is waiting for; each phase has its own deadline.
    enum Phase: Equatable {
        /// Waiting for the first byte of a request: a fresh connection (head deadline from accept)
        /// or a kept-alive one (idle deadline from the last response).
        case waiting
        /// Receiving a request head (deadline from its first byte).
        case head
        /// Receiving a request body (deadline from the end of its head).
        case body
        /// Writing a response the client is slow to read.
        case writing
        /// After `Connection: close` or an error: output half-closed, discarding input until the
        /// client closes or the linger time ends, so the client reads the response, not a reset.
        case lingering
        /// Switched to WebSocket frames (deadline: `webSocketIdleTimeout` of silence, and
        /// `writeTimeout` while output is blocked).
        case webSocket
    }

    let fd: Int32
    /// Generation in the high 32 bits, descriptor in the low: events for a closed and reused
    /// descriptor carry another token and are dropped.
    let token: UInt64
    var parser: HTTPRequestParser
    var phase = Phase.waiting
    /// Whether it has completed a request (a fresh connection waits under the head deadline, a
    /// kept-alive one under the idle deadline).
    var servedRequests = 0
    /// Monotonic nanoseconds: start of the current phase and the last byte received.
    var phaseStart: UInt64
    var lastInput: UInt64
    /// When the sweeper acts, computed whenever the connection is released to the poller.
    var deadline: UInt64 = .max
    /// Response bytes not yet written, from `outputOffset`.
    var output: [UInt8] = []
    var outputOffset = 0
    /// Close once `output` is written (after `Connection: close` or an error response).
    var closeAfterOutput = false
    /// The client half-closed: answer what is buffered, then close.
    var peerClosed = false
    /// The last read returned less than a full buffer: the socket had nothing more then.
    var drained = false
    /// Body bytes reserved from the server's in-flight budget.
    var reservedBodyBytes = 0
    /// Bytes discarded while lingering.
    var lingerDrained = 0
    /// Owned by a thread or the sweeper (guarded by the server's lock).
    var busy = false
    /// Set once the connection switched protocols.
    var webSocket: WebSocketState?

    init(fd: Int32, token: UInt64, limits: HTTPParserLimits, now: UInt64) {
        self.fd = fd
        self.token = token
        self.parser = HTTPRequestParser(limits: limits)
        self.phaseStart = now
        self.lastInput = now
    }

    /// Queues response bytes.
    func enqueue(_ bytes: [UInt8]) {
        if output.isEmpty { output = bytes; outputOffset = 0 } else { output.append(contentsOf: bytes) }
    }

    /// What writing achieved.
    enum FlushResult { case done, blocked, failed }

    /// Writes queued bytes without blocking.
    func flush() -> FlushResult {
        while outputOffset < output.count {
            let n = output.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + outputOffset, raw.count - outputOffset, Socket.sendFlags)
            }
            if n > 0 {
                outputOffset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return .blocked
            } else {
                return .failed
            }
        }
        if output.capacity > 256 * 1024 { output = [] } else { output.removeAll(keepingCapacity: true) }
        outputOffset = 0
        return .done
    }

    /// What reading achieved.
    enum ReadResult { case bytes, wouldBlock, endOfStream, failed }

    /// Reads once into `buffer` and feeds the parser.
    func read(into buffer: UnsafeMutableRawBufferPointer, now: UInt64) -> ReadResult {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 {
                parser.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                lastInput = now
                drained = n < buffer.count
                return .bytes
            }
            if n == 0 { return .endOfStream }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { drained = true; return .wouldBlock }
            return .failed
        }
    }
}
