import Foundation

/// A Phoenix channel message as Supabase Realtime's clients and server exchange it.
///
/// vsn 1.0.0 (Phoenix's V1 JSON serializer) sends objects `{"topic","event","payload","ref"}`
/// (plus `join_ref` from newer clients); vsn 2.0.0 (V2) sends arrays
/// `[join_ref, ref, topic, event, payload]`.
package struct PhoenixMessage: Sendable, Equatable {
    package var joinRef: String?
    package var ref: String?
    package var topic: String
    package var event: String
    package var payload: JSONValue

    package init(topic: String, event: String, payload: JSONValue, ref: String? = nil, joinRef: String? = nil) {
        self.topic = topic
        self.event = event
        self.payload = payload
        self.ref = ref
        self.joinRef = joinRef
    }

    /// The serializer versions served.
    package enum Version: String, Sendable { case v1 = "1.0.0", v2 = "2.0.0" }

    /// Decodes a text frame; nil when it is not a message of that version.
    package static func decode(_ text: String, version: Version) -> PhoenixMessage? {
        guard let value = try? JSONValue.parse(text) else { return nil }
        func ref(_ v: JSONValue?) -> String? {
            switch v {
            case .string(let s)?: return s
            case .int(let i)?: return String(i)
            default: return nil
            }
        }
        switch (version, value) {
        case (.v1, .object(let o)):
            guard let topic = o["topic"]?.stringValue, let event = o["event"]?.stringValue else { return nil }
            return PhoenixMessage(topic: topic, event: event, payload: o["payload"] ?? .object([:]), ref: ref(o["ref"]), joinRef: ref(o["join_ref"]))
        case (.v2, .array(let a)) where a.count == 5:
            guard let topic = a[2].stringValue, let event = a[3].stringValue else { return nil }
            return PhoenixMessage(topic: topic, event: event, payload: a[4], ref: ref(a[1]), joinRef: ref(a[0]))
        default:
            return nil
        }
    }

    /// The text frame of this message in `version`.
    package func encode(_ version: Version) -> String {
        func ref(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        switch version {
        case .v1:
            var o: [String: JSONValue] = ["topic": .string(topic), "event": .string(event), "payload": payload, "ref": ref(self.ref)]
            if let joinRef { o["join_ref"] = .string(joinRef) }
            return JSONValue.object(o).serialized()
        case .v2:
            return JSONValue.array([ref(joinRef), ref(self.ref), .string(topic), .string(event), payload]).serialized()
        }
    }

    /// The text frame of a message whose payload is already serialized JSON: the fan-out
    /// serializes an event's payload once and frames it for each subscriber.
    package static func encode(_ version: Version, topic: String, event: String, payloadJSON: String, ref: String? = nil, joinRef: String? = nil) -> String {
        func text(_ s: String?) -> String { s.map { JSONValue.string($0).serialized() } ?? "null" }
        switch version {
        case .v1:
            var out = "{\"event\":" + text(event)
            if let joinRef { out += ",\"join_ref\":" + text(joinRef) }
            return out + ",\"payload\":" + payloadJSON + ",\"ref\":" + text(ref) + ",\"topic\":" + text(topic) + "}"
        case .v2:
            return "[" + text(joinRef) + "," + text(ref) + "," + text(topic) + "," + text(event) + "," + payloadJSON + "]"
        }
    }
}
