import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket connected to `127.0.0.1:port`, shared by the loopback clients (the live sender,
/// the WebSocket client, the server's socket tests) so each keeps only the options it adds.
///
/// The socket never raises SIGPIPE on Darwin (`SO_NOSIGPIPE`; Linux callers send with
/// `MSG_NOSIGNAL`). The descriptor belongs to the caller, who closes it.
package enum LoopbackSocket {
    /// Why no connection was made: which call failed and the system's words for `errno`.
    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Opens a stream socket and connects it to `127.0.0.1:port`; on failure nothing stays open.
    package static func connect(port: UInt16) throws(Failure) -> Int32 {
        #if canImport(Darwin)
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #else
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Darwin)
                    Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #elseif canImport(Musl)
                    Musl.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard r == 0 else {
            let e = errno
            close(fd)
            throw Failure(description: "connect to 127.0.0.1:\(port): \(String(cString: strerror(e)))")
        }
        #if canImport(Darwin)
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return fd
    }
}
