import Foundation

/// The binary broadcast frames of Realtime's vsn 2.0.0 serializer
/// (supabase/realtime lib/realtime_web/socket/v2_serializer.ex), which supabase-js and
/// supabase-swift use for `channel.send`/`broadcast` once a channel is joined:
/// a client sends a user broadcast push (kind 3)
/// `[3][join_ref_len][ref_len][topic_len][event_len][meta_len][encoding][join_ref][ref][topic][event][meta][payload]`
/// and every member receives a user broadcast (kind 4)
/// `[4][topic_len][event_len][meta_len][encoding][topic][event][meta][payload]`, where
/// encoding 1 marks a JSON payload and 0 raw bytes.
struct UserBroadcastFrame: Equatable {
    static let pushKind: UInt8 = 3
    static let broadcastKind: UInt8 = 4

    var joinRef: String?
    var ref: String?
    var topic: String
    var event: String
    var isJSON: Bool
    var payload: [UInt8]

    /// Decodes a client's user broadcast push; nil for any other frame, or one whose lengths
    /// overrun it (Phoenix drops a frame its serializer cannot decode).
    static func decodePush(_ bytes: [UInt8]) -> UserBroadcastFrame? {
        guard bytes.count >= 7, bytes[0] == pushKind else { return nil }
        let sizes = bytes[1...5].map(Int.init)
        var at = 7
        var fields: [[UInt8]] = []
        for size in sizes {
            guard at + size <= bytes.count else { return nil }
            fields.append(Array(bytes[at..<(at + size)]))
            at += size
        }
        func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }
        return UserBroadcastFrame(
            joinRef: fields[0].isEmpty ? nil : text(fields[0]), ref: fields[1].isEmpty ? nil : text(fields[1]),
            topic: text(fields[2]), event: text(fields[3]), isJSON: bytes[6] != 0, payload: Array(bytes[at...]))
    }

    /// The user broadcast a member receives: no metadata (`build_broadcast/2` drops it).
    var encodedBroadcast: [UInt8] {
        let topicBytes = Array(topic.utf8), eventBytes = Array(event.utf8)
        return [Self.broadcastKind, UInt8(topicBytes.count), UInt8(eventBytes.count), 0, isJSON ? 1 : 0]
            + topicBytes + eventBytes + payload
    }
}

extension RealtimeService {
    /// A binary frame from a vsn 2.0.0 socket. A user broadcast push is handled as a
    /// `broadcast` (BroadcastHandler.handle/3): to every member (the sender too with
    /// `broadcast.self`), acknowledged with a text `phx_reply` when `broadcast.ack`.
    /// Members on vsn 2.0.0 get the kind-4 frame; members on vsn 1.0.0, which has no binary
    /// frames, get a JSON payload as the text `broadcast` `{"type","event","payload"}` and
    /// nothing for a raw-bytes payload (decision: the V1 serializer cannot carry it).
    func receivedBinary(_ bytes: [UInt8], on connection: WebSocketConnection, _ client: Client) {
        guard client.version == .v2, let frame = UserBroadcastFrame.decodePush(bytes) else { return }
        let reply = replier(connection, client, topic: frame.topic, ref: frame.ref, joinRef: frame.joinRef)
        lock.lock(); let mine = client.channels[frame.topic]; lock.unlock()
        guard let mine else { return reply("error", ["reason": "unmatched topic"]) }
        guard !expired(frame.topic, connection, client) else { return }
        if mine.isPrivate, !channelPolicyAllows(mine.auth) { return }
        let text = frame.isJSON ? (try? JSONValue.parse(Data(frame.payload))) : nil
        for (conn, other, ch) in members(frame.topic, isPrivate: mine.isPrivate) where conn != connection || mine.broadcastSelf {
            if other.version == .v2 {
                _ = conn.send(binary: frame.encodedBroadcast)
            } else if let text {
                let payload: JSONValue = ["type": "broadcast", "event": .string(frame.event), "payload": text]
                send(conn, other, PhoenixMessage(topic: frame.topic, event: "broadcast", payload: payload, joinRef: ch.joinRef))
            }
        }
        if mine.broadcastAck { reply("ok", .object([:])) }
    }
}
