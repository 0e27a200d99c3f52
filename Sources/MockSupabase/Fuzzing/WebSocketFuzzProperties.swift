import Foundation

/// Properties of the WebSocket frame parser and of Realtime's Phoenix message handling for every
/// input, checked by the `fuzz-ws` target (`scripts/fuzz-all … ws`) and replayed over
/// Tests/Fuzz/ws-corpus and ws-crashes by `swift test`.
///
/// An input's first byte is a mode: bit 0 picks whose frames the rest is (0: a client's, masked,
/// as the server reads them; 1: a server's), bit 1 the Phoenix serializer (vsn 1.0.0 or 2.0.0),
/// and the byte itself a split point. The rest is the byte stream.
package enum WebSocketFuzzProperties {
    /// A parser under test: every result of feeding `pieces` in turn to one parser.
    package typealias Parse =
        @Sendable (_ peer: WebSocketFrameParser.Peer, _ pieces: [[UInt8]], _ maxMessageBytes: Int) -> [Result<WebSocketMessage, WebSocketProtocolError>]

    /// `WebSocketFrameParser`, fed piece by piece.
    package static let standardParse: Parse = { peer, pieces, max in
        var p = WebSocketFrameParser(peer: peer, maxMessageBytes: max)
        var out: [Result<WebSocketMessage, WebSocketProtocolError>] = []
        for piece in pieces {
            p.append(contentsOf: piece)
            while let r = p.next() { out.append(r) }
        }
        return out
    }

    /// The message size limit of the fuzzed parser (small, so 1009 is reachable).
    package static let maxMessageBytes = 2048

    /// The Realtime service every client-side input's text messages are handed to (the fuzzing
    /// backend with its `rides` table published).
    package static func service(_ backend: MockSupabase) -> RealtimeService {
        backend.realtime.publish(RealtimePublication(tables: ["public.rides": .default]))
        return backend.realtime
    }

    /// One input in this many also drives a Realtime socket (property 6) when fuzzing
    /// (`FuzzDriver.takesDeepPath`); the replay tests run every property on every input.
    package static let deepOneIn: UInt64 = 32

    /// The fuzz target's check: properties 1–5 on every input, 6 on the inputs
    /// `FuzzDriver.takesDeepPath` picks.
    package static func fuzzViolations(of input: [UInt8], backend: MockSupabase) -> [String] {
        violations(of: input, backend: backend, deep: FuzzDriver.takesDeepPath(input, oneIn: deepOneIn))
    }

    /// Checks one input; one line per violated property (empty when all hold). Without `deep`,
    /// only properties 1–5 (the frame parser and the Phoenix serializer alone).
    ///
    /// 1. The parser gives the same results fed whole, split at the mode byte's position, and
    ///    byte by byte (inputs up to 600 bytes).
    /// 2. A failure is the last result and carries 1002, 1007 or 1009.
    /// 3. A message respects the limits: control payloads ≤ 125 bytes, a close code one a peer
    ///    may send, data ≤ `maxMessageBytes`.
    /// 4. Every message, encoded again as its peer would (masked from a client), parses back to
    ///    itself.
    /// 5. A text message that decodes as a Phoenix message of the serializer encodes to text that
    ///    decodes to the same message.
    /// 6. Client messages handed to a Realtime socket (apikey of the fuzzing backend) get only
    ///    well-formed answers: text frames that decode as Phoenix messages of the serializer, each
    ///    `phx_reply` with status ok or error and the ref of the message it answers.
    package static func violations(of input: [UInt8], backend: MockSupabase, parse: Parse = standardParse, deep: Bool = true) -> [String] {
        guard let mode = input.first else { return [] }
        let stream = Array(input.dropFirst())
        let peer: WebSocketFrameParser.Peer = mode & 1 == 0 ? .client : .server
        let version: PhoenixMessage.Version = mode & 2 == 0 ? .v1 : .v2
        var problems: [String] = []

        let whole = parse(peer, [stream], maxMessageBytes)
        let cut = stream.isEmpty ? 0 : Int(mode) % (stream.count + 1)
        if parse(peer, [Array(stream[..<cut]), Array(stream[cut...])], maxMessageBytes) != whole {
            problems.append("split at \(cut) gives other results than whole")
        }
        if stream.count <= 600, parse(peer, stream.map { [$0] }, maxMessageBytes) != whole {
            problems.append("byte by byte gives other results than whole")
        }
        var messages: [WebSocketMessage] = []
        for (i, r) in whole.enumerated() {
            switch r {
            case .failure(let e):
                if i != whole.count - 1 { problems.append("results follow failure \(e)") }
                if ![1002, 1007, 1009].contains(e.code) { problems.append("failure code \(e.code)") }
            case .success(let m):
                messages.append(m)
                switch m {
                case .ping(let b), .pong(let b): if b.count > 125 { problems.append("control payload of \(b.count) bytes") }
                case .close(let code, let reason):
                    if let code, !WebSocketFrameParser.isValidReceivedCloseCode(code) { problems.append("close code \(code) accepted") }
                    if reason.utf8.count > 123 { problems.append("close reason of \(reason.utf8.count) bytes") }
                case .text(let s): if s.utf8.count > maxMessageBytes { problems.append("text of \(s.utf8.count) bytes") }
                case .binary(let b): if b.count > maxMessageBytes { problems.append("binary of \(b.count) bytes") }
                }
                let again = parse(peer, [WebSocketFrameParser.encode(m, mask: peer == .client ? [0x12, 0x34, 0x56, mode] : nil)], maxMessageBytes)
                if again != [.success(m)] {
                    problems.append("\(String(describing: m).prefix(120)) re-encoded parses as \(String(describing: again).prefix(160))")
                }
            }
        }
        for case .text(let text) in messages {
            guard let m = PhoenixMessage.decode(text, version: version) else { continue }
            let back = PhoenixMessage.decode(m.encode(version), version: version)
            if back?.encode(version) != m.encode(version) {
                problems.append("Phoenix round trip of \(text.prefix(120)) gives \(String(describing: back).prefix(160))")
            }
        }
        if deep, peer == .client,
            messages.contains(where: {
                if case .text = $0 { return true }; return false
            })
        {
            problems += socketProblems(messages, version: version, backend: backend)
        }
        return problems
    }

    /// Property 6: one socket's session driven with `messages`, its output checked.
    static func socketProblems(_ messages: [WebSocketMessage], version: PhoenixMessage.Version, backend: MockSupabase) -> [String] {
        let realtime = service(backend)
        let request = HTTPRequest(method: "GET", target: "/realtime/v1/websocket?apikey=\(backend.anonKey)&vsn=\(version.rawValue)")
        guard case .accept(let session) = realtime.acceptor(request) else { return ["the fuzzing backend's anon key was refused"] }
        let connection = WebSocketConnection(request: request, id: 0, wake: {})
        session.opened(connection)
        var sentRefs = Set<String>()
        for m in messages {
            if case .text(let t) = m, let ref = PhoenixMessage.decode(t, version: version)?.ref { sentRefs.insert(ref) }
            session.received(m, on: connection)
        }
        session.closed(connection, code: 1000)
        var problems: [String] = []
        for r in standardParse(.server, [connection.takeOutput()], Int.max) {
            guard case .success(.text(let text)) = r else { problems.append("the socket sent \(r)"); continue }
            guard let reply = PhoenixMessage.decode(text, version: version) else {
                problems.append("the socket sent a non-Phoenix text \(text.prefix(160))"); continue
            }
            if reply.event == "phx_reply" {
                let status = reply.payload["status"]?.stringValue
                if status != "ok" && status != "error" { problems.append("phx_reply with status \(String(describing: status))") }
                if let ref = reply.ref, !sentRefs.contains(ref) { problems.append("phx_reply to ref \(ref), never sent") }
            }
        }
        return problems
    }
}
