import MockBinding
import Foundation
import XCTest
@testable import MockSupabase

/// The binary broadcast frames of Realtime's vsn 2.0.0 serializer, as supabase-swift's
/// `RealtimeChannelV2.broadcast` and supabase-js's `channel.send` send them once joined
/// (supabase/realtime lib/realtime_web/socket/v2_serializer.ex `decode_binary/1` kind 3,
/// `fastlane!/1` kind 4; broadcast_handler.ex for self and ack).
final class RealtimeUserBroadcastTests: XCTestCase {
    var backend: MockSupabase!
    var server: HTTPServer!

    override func setUpWithError() throws {
        backend = try MockSupabase(contracts: ContractsLocator.app("civicforge"), clock: ManualClock(), ids: SeededIDGenerator(seed: 9))
        server = HTTPServer(backend: backend, configuration: .init(threads: 2))
        try server.start()
    }

    override func tearDown() { server.stop() }

    /// `[3][join_ref_len][ref_len][topic_len][event_len][meta_len][encoding]` then the fields.
    static func push(joinRef: String, ref: String, topic: String, event: String, json: Bool, payload: [UInt8]) -> [UInt8] {
        let f = [joinRef, ref, topic, event].map { Array($0.utf8) }
        return [3] + f.map { UInt8($0.count) } + [0, json ? 1 : 0] + f.flatMap { $0 } + payload
    }

    /// What a member must receive for `topic`/`event`/`payload`:
    /// `[4][topic_len][event_len][meta_len=0][encoding][topic][event][payload]`.
    static func expectedBroadcast(topic: String, event: String, json: Bool, payload: [UInt8]) -> [UInt8] {
        [4, UInt8(topic.utf8.count), UInt8(event.utf8.count), 0, json ? 1 : 0] + Array(topic.utf8) + Array(event.utf8) + payload
    }

    /// What the codec gets wrong against the upstream layout.
    static func violations(decode: ([UInt8]) -> UserBroadcastFrame?, encode: (UserBroadcastFrame) -> [UInt8]) -> [String] {
        var out: [String] = []
        let payload = Array(#"{"x":1}"#.utf8)
        let bytes = push(joinRef: "7", ref: "12", topic: "realtime:room", event: "cursor", json: true, payload: payload)
        guard let f = decode(bytes) else { return ["a kind-3 frame did not decode"] }
        if f != UserBroadcastFrame(joinRef: "7", ref: "12", topic: "realtime:room", event: "cursor", isJSON: true, payload: payload) {
            out.append("decoded \(f)")
        }
        if encode(f) != expectedBroadcast(topic: "realtime:room", event: "cursor", json: true, payload: payload) {
            out.append("encoded \(encode(f))")
        }
        if decode([0, 1, 1, 1, 1, 0x31, 0x32, 0x74, 0x65]) != nil { out.append("a kind-0 push decoded as a user broadcast") }
        if decode(Array(bytes.prefix(12))) != nil { out.append("a truncated frame decoded") }
        return out
    }

    func testCodecFollowsTheV2SerializerAndRejectsAMutant() {
        XCTAssertEqual(Self.violations(decode: UserBroadcastFrame.decodePush, encode: \.encodedBroadcast), [])
        // Mutant: the server frame laid out as a Phoenix kind-2 broadcast (no metadata length,
        // no encoding byte), which the SDKs cannot decode.
        let mutant: (UserBroadcastFrame) -> [UInt8] = { f in
            [2, UInt8(f.topic.utf8.count), UInt8(f.event.utf8.count)] + Array(f.topic.utf8) + Array(f.event.utf8) + f.payload
        }
        XCTAssertFalse(Self.violations(decode: UserBroadcastFrame.decodePush, encode: mutant).isEmpty)
    }

    func testBinaryBroadcastReachesMembersWithSelfAndAck() throws {
        let one = try RealtimeClient(port: server.port, apikey: backend.anonKey, version: .v2)
        let two = try RealtimeClient(port: server.port, apikey: backend.anonKey, version: .v2)
        let three = try RealtimeClient(port: server.port, apikey: backend.anonKey, version: .v1)
        _ = try one.join("room", broadcastSelf: true, broadcastAck: true)
        _ = try two.join("room")
        _ = try three.join("room")
        let payload = Array(#"{"x":1}"#.utf8)
        one.socket.send(.binary(Self.push(joinRef: "1", ref: "9", topic: "realtime:room", event: "cursor", json: true, payload: payload)))
        let frame = Self.expectedBroadcast(topic: "realtime:room", event: "cursor", json: true, payload: payload)
        XCTAssertEqual(try two.socket.receive(), .binary(frame), "a vsn 2.0.0 member gets the kind-4 frame")
        XCTAssertEqual(try one.socket.receive(), .binary(frame), "self: true echoes to the sender")
        let ack = try one.reply(to: "9")
        XCTAssertEqual(ack?.payload, ["status": "ok", "response": [:]])
        XCTAssertEqual(ack?.joinRef, "1")
        let v1 = try three.next { $0.event == "broadcast" }
        XCTAssertEqual(v1?.payload, ["type": "broadcast", "event": "cursor", "payload": ["x": 1]])

        // Without self the sender hears nothing; without ack it gets no reply.
        two.socket.send(.binary(Self.push(joinRef: "1", ref: "5", topic: "realtime:room", event: "e", json: false, payload: [1, 2])))
        XCTAssertEqual(try one.socket.receive(), .binary(Self.expectedBroadcast(topic: "realtime:room", event: "e", json: false, payload: [1, 2])))
        XCTAssertNil(try two.next(timeout: 0.5) { $0.ref == "5" || $0.event == "broadcast" })

        // A topic the socket has not joined: Phoenix's `unmatched topic`.
        two.socket.send(.binary(Self.push(joinRef: "1", ref: "6", topic: "realtime:other", event: "e", json: true, payload: Array("{}".utf8))))
        XCTAssertEqual(try two.reply(to: "6")?.payload, ["status": "error", "response": ["reason": "unmatched topic"]])
    }
}
