import Foundation
import ContractModel
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A raw TCP client for the server tests: writes exact bytes, reads responses by their framing.
final class HTTPServerTestClient {
    struct Response {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let fd: Int32
    private var pending: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; reads time out after `timeout` seconds so a broken server
    /// fails the test instead of hanging it.
    init(port: UInt16, timeout: Double = 10) throws {
        do { fd = try LoopbackSocket.connect(port: port) } catch { throw Failure(description: error.description) }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Sends bytes; false when the server has closed (EPIPE / reset).
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Darwin)
                let n = bytes[offset...].withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
            #else
                let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #endif
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Half-closes: the server reads end of stream after what was sent.
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into `pending`; 0 at end of stream.
    private func fill() throws -> Int {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 {
            if errno == ECONNRESET { return 0 }
            throw Failure(description: "recv: \(String(cString: strerror(errno))) (no response within the client timeout)")
        }
        pending += buffer[0..<n]
        return n
    }

    /// Reads one response; `head` when it answers a HEAD request (no body follows).
    func readResponse(head: Bool = false) throws -> Response {
        var end: Int?
        while end == nil {
            if let r = findHeadEnd() { end = r; break }
            if try fill() == 0 { throw Failure(description: "connection closed before a full response head (\(pending.count) bytes)") }
        }
        let headText = String(decoding: pending[0..<end!], as: UTF8.self)
        pending.removeFirst(end!)
        var lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure(description: "bad status line in \(headText.debugDescription)")
        }
        let headers = lines.map { line -> (String, String) in
            let parts = line.split(separator: ":", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
        }
        var response = Response(status: status, headers: headers, body: [])
        if head || status == 204 || status == 304 || status < 200 { return response }
        guard let lengthText = response.header("Content-Length"), let length = Int(lengthText) else {
            throw Failure(description: "no Content-Length in \(headText.debugDescription)")
        }
        while pending.count < length {
            if try fill() == 0 { throw Failure(description: "connection closed inside a body") }
        }
        response.body = Array(pending[0..<length])
        pending.removeFirst(length)
        return response
    }

    private func findHeadEnd() -> Int? {
        guard pending.count >= 4 else { return nil }
        for i in 3..<pending.count where pending[i] == 10 && pending[i - 1] == 13 && pending[i - 2] == 10 && pending[i - 3] == 13 {
            return i + 1
        }
        return nil
    }

    /// Whether the server has closed the connection (end of stream with nothing more to read).
    func isClosedByPeer() throws -> Bool {
        if !pending.isEmpty { return false }
        return try fill() == 0
    }

    /// Reads until the server closes; returns everything read.
    func readToEnd() throws -> [UInt8] {
        while try fill() > 0 {}
        defer { pending = [] }
        return pending
    }
}

/// The number of open file descriptors of this process.
func httpServerTestOpenDescriptorCount() -> Int {
    #if os(Linux)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 0)
    #else
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/fd"))?.count ?? 0)
    #endif
}
