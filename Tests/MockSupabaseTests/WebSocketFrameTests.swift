import Foundation
import XCTest
@testable import MockSupabase

/// SHA-1, the handshake value and the frame parser against RFC 3174 / RFC 6455 vectors and rules.
final class WebSocketFrameTests: XCTestCase {
    func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02x", $0) }.joined() }

    func testSHA1Vectors() {
        // RFC 3174 §7.3 test cases and the empty string.
        XCTAssertEqual(hex(SHA1.hash(Array("abc".utf8))), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(hex(SHA1.hash([])), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(
            hex(SHA1.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(hex(SHA1.hash([UInt8](repeating: 0x61, count: 1_000_000))), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
        // RFC 6455 §1.3.
        XCTAssertEqual(WebSocketFrameParser.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    typealias Parse =
        @Sendable (_ peer: WebSocketFrameParser.Peer, _ bytes: [UInt8], _ maxMessageBytes: Int) -> [Result<WebSocketMessage, WebSocketProtocolError>]

    /// The parser as it is, fed in one piece and byte by byte (the two must agree).
    static let realParser: Parse = { peer, bytes, max in
        func run(_ pieces: [[UInt8]]) -> [Result<WebSocketMessage, WebSocketProtocolError>] {
            var p = WebSocketFrameParser(peer: peer, maxMessageBytes: max)
            var out: [Result<WebSocketMessage, WebSocketProtocolError>] = []
            for piece in pieces {
                p.append(contentsOf: piece)
                while let e = p.next() { out.append(e) }
            }
            return out
        }
        let whole = run([bytes])
        let split = run(bytes.map { [$0] })
        return whole == split ? whole : [.failure(WebSocketProtocolError(code: 0, detail: "piecewise differs"))]
    }

    /// What RFC 6455 requires of a server-side parser; empty when `parse` meets it.
    static func violations(_ parse: Parse) -> [String] {
        var out: [String] = []
        func expect(_ name: String, _ bytes: [UInt8], max: Int = 1 << 20, _ want: [Result<WebSocketMessage, WebSocketProtocolError>]) {
            expectFrom(.client, name, bytes, max: max, want)
        }
        func expectFrom(
            _ peer: WebSocketFrameParser.Peer, _ name: String, _ bytes: [UInt8], max: Int = 1 << 20,
            _ want: [Result<WebSocketMessage, WebSocketProtocolError>]
        ) {
            let got = parse(peer, bytes, max).map { r -> Result<WebSocketMessage, WebSocketProtocolError> in
                if case .failure(let e) = r { return .failure(WebSocketProtocolError(code: e.code, detail: "")) }
                return r
            }
            if got != want { out.append("\(name): got \(got), want \(want)") }
        }
        func fail(_ code: UInt16) -> Result<WebSocketMessage, WebSocketProtocolError> { .failure(WebSocketProtocolError(code: code, detail: "")) }
        let hello: [UInt8] = [0x48, 0x65, 0x6c, 0x6c, 0x6f]
        // RFC 6455 §5.7 examples.
        expect("masked Hello", [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58], [.success(.text("Hello"))])
        expectFrom(.server, "unmasked Hello from a server", [0x81, 0x05] + hello, [.success(.text("Hello"))])
        expectFrom(.server, "fragmented Hello", [0x01, 0x03, 0x48, 0x65, 0x6c, 0x80, 0x02, 0x6c, 0x6f], [.success(.text("Hello"))])
        expectFrom(.server, "ping", [0x89, 0x05] + hello, [.success(.ping(hello))])
        expectFrom(
            .server, "256-byte binary", [0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 7, count: 256), [.success(.binary([UInt8](repeating: 7, count: 256)))])
        expectFrom(
            .server, "64 KiB binary", [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + [UInt8](repeating: 1, count: 65536),
            [.success(.binary([UInt8](repeating: 1, count: 65536)))])
        let m: [UInt8] = [1, 2, 3, 4]
        func masked(_ b0: UInt8, _ payload: [UInt8]) -> [UInt8] {
            var f = WebSocketFrameParser.encode(WebSocketOpcode(rawValue: b0 & 0x0F) ?? .text, payload, fin: b0 & 0x80 != 0, mask: m)
            f[0] = b0
            return f
        }
        expect("ping between fragments", masked(0x01, [0x48]) + masked(0x89, []) + masked(0x80, [0x69]), [.success(.ping([])), .success(.text("Hi"))])
        expect("client frame unmasked", [0x81, 0x05] + hello, [fail(1002)])
        expectFrom(.server, "server frame masked", masked(0x81, hello), [fail(1002)])
        expect("reserved bit", masked(0xC1, hello), [fail(1002)])
        expect("unknown opcode", masked(0x83, hello), [fail(1002)])
        expect("fragmented ping", masked(0x09, []), [fail(1002)])
        expect("ping over 125 bytes", masked(0x89, [UInt8](repeating: 0, count: 126)), [fail(1002)])
        expect("continuation first", masked(0x80, hello), [fail(1002)])
        expect("text inside a fragmented text", masked(0x01, hello) + masked(0x81, hello), [fail(1002)])
        expect("too big from the header", [0x82, 0xFF, 0, 0, 0, 0, 0x7F, 0, 0, 0], max: 1024, [fail(1009)])
        expect(
            "too big across fragments", masked(0x02, [UInt8](repeating: 0, count: 600)) + masked(0x80, [UInt8](repeating: 0, count: 600)),
            max: 1024, [fail(1009)])
        expect("64-bit length top bit", [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0], [fail(1002)])
        expect("text not UTF-8", masked(0x81, [0xC3, 0x28]), [fail(1007)])
        expect("close with code", masked(0x88, [0x03, 0xE8, 0x62, 0x79, 0x65]), [.success(.close(code: 1000, reason: "bye"))])
        expect("close empty", masked(0x88, []), [.success(.close(code: nil, reason: ""))])
        expect("close of one byte", masked(0x88, [0x03]), [fail(1002)])
        expect("close 1005 is never sent", masked(0x88, [0x03, 0xED]), [fail(1002)])
        expect("close 999", masked(0x88, [0x03, 0xE7]), [fail(1002)])
        expect("close reason not UTF-8", masked(0x88, [0x03, 0xE8, 0xFF]), [fail(1007)])
        expect("nothing after a failure", [0x81, 0x05] + hello + masked(0x81, hello), [fail(1002)])
        return out
    }

    func testParserMeetsRFC6455() {
        XCTAssertEqual(Self.violations(Self.realParser), [])
    }

    /// A parser that trusts a client's unmasked frames and ignores size limits must be rejected.
    func testMutantParserIsRejected() {
        let lax: Parse = { peer, bytes, _ in
            var p = WebSocketFrameParser(peer: bytes.count > 1 && bytes[1] & 0x80 == 0 ? .server : peer, maxMessageBytes: .max)
            p.append(contentsOf: bytes)
            var out: [Result<WebSocketMessage, WebSocketProtocolError>] = []
            while let e = p.next() { out.append(e) }
            return out
        }
        let found = Self.violations(lax)
        XCTAssertTrue(found.contains { $0.hasPrefix("client frame unmasked") }, "\(found)")
        XCTAssertTrue(found.contains { $0.hasPrefix("too big") }, "\(found)")
    }

    /// Encoding round-trips through the parser at every length boundary.
    func testEncodeRoundTrip() {
        for n in [0, 1, 125, 126, 127, 65535, 65536, 70000] {
            let payload = (0..<n).map { UInt8(truncatingIfNeeded: $0) }
            var p = WebSocketFrameParser(peer: .client, maxMessageBytes: 1 << 20)
            p.append(contentsOf: WebSocketFrameParser.encode(.binary(payload), mask: [9, 8, 7, 6]))
            XCTAssertEqual(p.next(), .success(.binary(payload)), "length \(n)")
        }
    }
}

/// Random input never traps the parser, and feeding it in any split gives the same events.
final class WebSocketFrameParserPropertyTests: XCTestCase {
    func testRandomBytesAndSplitsAgree() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Half the cases start from a valid masked frame with a few bytes changed.
            if Bool.random(using: &rng) {
                bytes = WebSocketFrameParser.encode(.text, Array("hello world".utf8), fin: Bool.random(using: &rng), mask: [1, 2, 3, 4])
                for _ in 0..<Int.random(in: 0...3, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                }
            }
            func run(_ pieces: [[UInt8]]) -> [Result<WebSocketMessage, WebSocketProtocolError>] {
                var p = WebSocketFrameParser(peer: .client, maxMessageBytes: 32)
                var out: [Result<WebSocketMessage, WebSocketProtocolError>] = []
                for piece in pieces {
                    p.append(contentsOf: piece)
                    while let e = p.next() { out.append(e) }
                }
                return out
            }
            let cut = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &rng)
            XCTAssertEqual(run([bytes]), run([Array(bytes[..<cut]), Array(bytes[cut...])]), "\(bytes)")
        }
    }
}
