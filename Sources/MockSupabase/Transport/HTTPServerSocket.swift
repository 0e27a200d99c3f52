import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failure to set up the loopback server's socket.
package struct HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The system call that failed (`bind`, `listen`, …).
    package var operation: String
    /// `errno` after the call.
    package var code: Int32
    /// The port asked for.
    package var port: UInt16

    /// `bind 127.0.0.1:54321: Address already in use (pass port 0 for any free port)`.
    package var description: String {
        var text = "\(operation) 127.0.0.1:\(port): \(String(cString: strerror(code)))"
        if code == EADDRINUSE { text += " (use port 0 for any free port)" }
        return text
    }
}

/// Thin wrappers over the POSIX socket calls the server needs (Linux and Darwin).
enum Socket {
    #if canImport(Darwin)
        static let streamType = SOCK_STREAM
        static let sendFlags: Int32 = 0
    #else
        static let streamType = Int32(SOCK_STREAM.rawValue)
        static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif

    /// A listening TCP socket on 127.0.0.1:`port`; returns the descriptor and the bound port.
    static func listen(port: UInt16, backlog: Int32) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw HTTPServerError(operation: "socket", code: errno, port: port) }
        var ok = false
        defer { if !ok { close(fd) } }
        setCloseOnExec(fd)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        #if canImport(Darwin)
            addr.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian // 127.0.0.1 only
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw HTTPServerError(operation: "bind", code: errno, port: port) }
        guard systemListen(fd, backlog) == 0 else { throw HTTPServerError(operation: "listen", code: errno, port: port) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw HTTPServerError(operation: "getsockname", code: errno, port: port) }
        ok = true
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    @inline(__always)
    private static func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Darwin)
            return Darwin.listen(fd, backlog)
        #elseif canImport(Musl)
            return Musl.listen(fd, backlog)
        #else
            return Glibc.listen(fd, backlog)
        #endif
    }

    static func setCloseOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    /// Options of an accepted connection: non-blocking, close-on-exec, no Nagle delay, no SIGPIPE.
    static func configureConnection(_ fd: Int32) {
        setNonBlocking(fd)
        setCloseOnExec(fd)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// The process's soft limit on open descriptors.
    static func descriptorLimit() -> Int {
        var limit = rlimit()
        #if canImport(Darwin)
            let resource = RLIMIT_NOFILE
        #else
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        return limit.rlim_cur > UInt64(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// A pipe for waking the accept loop; both ends close-on-exec.
    static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw HTTPServerError(operation: "pipe", code: errno, port: 0) }
        setCloseOnExec(fds[0])
        setCloseOnExec(fds[1])
        return (fds[0], fds[1])
    }
}
