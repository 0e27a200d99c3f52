import Foundation

/// A complete WebSocket message or control frame (RFC 6455 §5).
package enum WebSocketMessage: Sendable, Equatable {
    case text(String)
    case binary([UInt8])
    case ping([UInt8])
    case pong([UInt8])
    /// A Close frame: its status code (nil when the frame had no body) and reason.
    case close(code: UInt16?, reason: String)
}

/// Why a peer's bytes broke the protocol, with the close code the endpoint answers (RFC 6455 §7.4.1).
package struct WebSocketProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1002 protocol error, 1007 invalid payload (not UTF-8), 1009 message too big.
    package var code: UInt16
    /// What was wrong.
    package var detail: String
    package init(code: UInt16, detail: String) { self.code = code; self.detail = detail }
    package var description: String { "\(code): \(detail)" }

    package static let protocolError: UInt16 = 1002
    package static let invalidPayload: UInt16 = 1007
    package static let tooBig: UInt16 = 1009
}

/// Frame opcodes (RFC 6455 §5.2).
package enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
}

/// An incremental, pure parser of WebSocket frames: feed it bytes as they arrive, take whole
/// messages. It reassembles fragmented messages (control frames may come between fragments),
/// unmasks, and refuses what RFC 6455 forbids: reserved bits (no extension is negotiated),
/// unknown opcodes, control frames fragmented or over 125 bytes, a missing mask from a client
/// (or a mask from a server), a continuation with nothing to continue, a data frame inside a
/// fragmented message, a 64-bit length with its top bit set, invalid close codes, text that is not
/// UTF-8 (1007) and a message over `maxMessageBytes` (1009, refused from the frame header,
/// before its payload is buffered). After a failure it yields nothing more.
package struct WebSocketFrameParser: Sendable {
    /// Which side's frames are parsed: a server reads masked client frames, a client unmasked ones.
    package enum Peer: Sendable { case client, server }

    package let peer: Peer
    /// The largest message (all fragments together) accepted.
    package let maxMessageBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var fragments: [UInt8] = []
    private var fragmentOpcode: WebSocketOpcode?
    private var failed = false

    /// A parser of frames sent by `peer`.
    package init(peer: Peer, maxMessageBytes: Int = 1 << 20) {
        self.peer = peer
        self.maxMessageBytes = maxMessageBytes
    }

    /// Bytes buffered and not yet consumed (a partial frame).
    package var bufferedByteCount: Int { buffer.count - start + fragments.count }

    /// Whether the parser has reported a failure.
    package var hasFailed: Bool { failed }

    package mutating func append<S: Sequence>(contentsOf bytes: S) where S.Element == UInt8 {
        guard !failed else { return }
        if start > 0 && (start == buffer.count || start >= 4096) {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete message, a failure, or nil when more bytes are needed.
    package mutating func next() -> Result<WebSocketMessage, WebSocketProtocolError>? {
        while !failed {
            let available = buffer.count - start
            guard available >= 2 else { return nil }
            let b0 = buffer[start], b1 = buffer[start + 1]
            let fin = b0 & 0x80 != 0
            if b0 & 0x70 != 0 { return fail(WebSocketProtocolError.protocolError, "reserved bits set without a negotiated extension") }
            guard let opcode = WebSocketOpcode(rawValue: b0 & 0x0F) else {
                return fail(WebSocketProtocolError.protocolError, "unknown opcode \(b0 & 0x0F)")
            }
            let masked = b1 & 0x80 != 0
            if peer == .client && !masked { return fail(WebSocketProtocolError.protocolError, "a client frame must be masked") }
            if peer == .server && masked { return fail(WebSocketProtocolError.protocolError, "a server frame must not be masked") }
            var headerLength = 2
            var length = UInt64(b1 & 0x7F)
            if length == 126 {
                guard available >= 4 else { return nil }
                length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
                headerLength = 4
            } else if length == 127 {
                guard available >= 10 else { return nil }
                length = 0
                for i in 0..<8 { length = length << 8 | UInt64(buffer[start + 2 + i]) }
                if length >> 63 != 0 { return fail(WebSocketProtocolError.protocolError, "a 64-bit length must have its top bit clear") }
                headerLength = 10
            }
            let isControl = opcode.rawValue >= 8
            if isControl {
                if !fin { return fail(WebSocketProtocolError.protocolError, "a control frame must not be fragmented") }
                if length > 125 { return fail(WebSocketProtocolError.protocolError, "a control frame's payload must be at most 125 bytes") }
            } else if opcode == .continuation {
                if fragmentOpcode == nil { return fail(WebSocketProtocolError.protocolError, "a continuation frame with no message to continue") }
            } else if fragmentOpcode != nil {
                return fail(WebSocketProtocolError.protocolError, "a new data frame inside a fragmented message")
            }
            if !isControl, length > UInt64(maxMessageBytes) || UInt64(fragments.count) + length > UInt64(maxMessageBytes) {
                return fail(WebSocketProtocolError.tooBig, "the message exceeds \(maxMessageBytes) bytes")
            }
            if masked { headerLength += 4 }
            let total = headerLength + Int(length)
            guard available >= total else { return nil }
            var payload = Array(buffer[(start + headerLength)..<(start + total)])
            if masked {
                let key = start + headerLength - 4
                let mask = (buffer[key], buffer[key + 1], buffer[key + 2], buffer[key + 3])
                for i in payload.indices {
                    switch i & 3 {
                    case 0: payload[i] ^= mask.0
                    case 1: payload[i] ^= mask.1
                    case 2: payload[i] ^= mask.2
                    default: payload[i] ^= mask.3
                    }
                }
            }
            start += total
            switch opcode {
            case .ping: return .success(.ping(payload))
            case .pong: return .success(.pong(payload))
            case .close: return closeMessage(payload)
            case .text, .binary, .continuation:
                if opcode != .continuation { fragmentOpcode = opcode }
                fragments.append(contentsOf: payload)
                guard fin else { continue }
                let whole = fragments
                let kind = fragmentOpcode!
                fragments = []
                fragmentOpcode = nil
                if kind == .binary { return .success(.binary(whole)) }
                guard let text = String(validatingUTF8Bytes: whole) else {
                    return fail(WebSocketProtocolError.invalidPayload, "a text message that is not UTF-8")
                }
                return .success(.text(text))
            }
        }
        return nil
    }

    private mutating func closeMessage(_ payload: [UInt8]) -> Result<WebSocketMessage, WebSocketProtocolError>? {
        if payload.isEmpty { return .success(.close(code: nil, reason: "")) }
        if payload.count == 1 { return fail(WebSocketProtocolError.protocolError, "a close frame body of one byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard Self.isValidReceivedCloseCode(code) else {
            return fail(WebSocketProtocolError.protocolError, "close code \(code) may not be sent")
        }
        guard let reason = String(validatingUTF8Bytes: Array(payload[2...])) else {
            return fail(WebSocketProtocolError.invalidPayload, "a close reason that is not UTF-8")
        }
        return .success(.close(code: code, reason: reason))
    }

    /// Codes a peer may put in a Close frame (RFC 6455 §7.4.1 and the IANA registry): 1004-1006
    /// and 1015 are reserved for reporting, never sent.
    package static func isValidReceivedCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    private mutating func fail(_ code: UInt16, _ detail: String) -> Result<WebSocketMessage, WebSocketProtocolError> {
        failed = true
        buffer = []
        start = 0
        fragments = []
        return .failure(WebSocketProtocolError(code: code, detail: detail))
    }

    // MARK: Encoding

    /// One frame's bytes; `mask` (4 bytes) for frames a client sends.
    package static func encode(_ opcode: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true, mask: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 14)
        out.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = mask == nil ? 0 : 0x80
        if payload.count < 126 {
            out.append(maskBit | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out.append(maskBit | 126)
            out.append(UInt8(payload.count >> 8))
            out.append(UInt8(payload.count & 0xFF))
        } else {
            out.append(maskBit | 127)
            for i in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> (UInt64(i) * 8))) }
        }
        if let mask {
            out.append(contentsOf: mask.prefix(4))
            for (i, b) in payload.enumerated() { out.append(b ^ mask[i & 3]) }
        } else {
            out.append(contentsOf: payload)
        }
        return out
    }

    /// A whole message as one frame (a Close carries its code and reason).
    package static func encode(_ message: WebSocketMessage, mask: [UInt8]? = nil) -> [UInt8] {
        switch message {
        case .text(let s): return encode(.text, Array(s.utf8), mask: mask)
        case .binary(let b): return encode(.binary, b, mask: mask)
        case .ping(let b): return encode(.ping, b, mask: mask)
        case .pong(let b): return encode(.pong, b, mask: mask)
        case .close(let code, let reason):
            guard let code else { return encode(.close, [], mask: mask) }
            return encode(.close, [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8.prefix(123)), mask: mask)
        }
    }

    /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key` (RFC 6455 §4.2.2 step 5.4).
    package static func acceptValue(forKey key: String) -> String {
        Data(SHA1.hash(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))).base64EncodedString()
    }
}

extension String {
    /// The string of UTF-8 bytes, or nil when they are not valid UTF-8.
    init?(validatingUTF8Bytes bytes: [UInt8]) {
        var it = bytes.makeIterator()
        var decoder = UTF8()
        var scalars = String.UnicodeScalarView()
        loop: while true {
            switch decoder.decode(&it) {
            case .scalarValue(let s): scalars.append(s)
            case .emptyInput: break loop
            case .error: return nil
            }
        }
        self = String(scalars)
    }
}
