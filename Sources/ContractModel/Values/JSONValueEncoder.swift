import Foundation

/// Encodes an `Encodable` straight into a `JSONValue`, with the result `JSONValue.parse` gives for
/// Foundation's `JSONEncoder` output (default strategies): numbers as the parser reads the text
/// `JSONEncoder` prints (a whole `Double` prints as `80`, so it is `.int(80)`), URLs as their
/// absolute string, `Data` as base64, `Decimal` as its number, and a non-finite float refused. It skips the text in between, which made encoding a report cost
/// several times the report itself (`contracts-bench report`).
package enum JSONValueEncoder {
    /// The value as `JSONValue.parse(JSONEncoder().encode(value))` would give it.
    package static func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let node = try JSONNode.encoding(value, codingPath: [])
        guard let node else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        return node.resolved()
    }

    /// `number(_:_:_:)` for a `Double`, printing it only when Swift would use an exponent: a
    /// whole double up to 2^53 prints positionally (`80.0`, so `80`: an `.int`), and any other
    /// double from 0.0001 up to 2^53 as its shortest round-trip digits, which parse back to the
    /// same double. The exponent forms (`1e+16`, `1.5e-07`) are parsed as written.
    static func number(_ d: Double, _ codingPath: [CodingKey]) throws -> JSONValue {
        if d.isFinite, d == d.rounded(.towardZero), abs(d) <= 9_007_199_254_740_992 { return .int(Int64(d)) }
        if d.isFinite, abs(d) >= 0.0001, abs(d) < 9_007_199_254_740_992 { return .double(d) }
        return try number(d.description, d, codingPath)
    }

    /// What `JSONValue.parse` makes of `JSONEncoder`'s text for a number: its `description`
    /// without a trailing `.0`, parsed (so the parser's own rules for numbers hold here too).
    static func number(_ description: String, _ value: Any, _ codingPath: [CodingKey]) throws -> JSONValue {
        var text = Substring(description)
        if text.hasSuffix(".0") { text = text.dropLast(2) }
        guard let d = Double(text), d.isFinite, let parsed = try? JSONValue.parse(String(text)) else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "Unable to encode \(description) directly in JSON."))
        }
        return parsed
    }
}

/// A value under construction: containers stay open until the whole tree is encoded.
private final class JSONNode {
    enum Content {
        case value(JSONValue)
        case object([String: JSONNode])
        case array([JSONNode])
    }
    var content: Content

    init(_ content: Content) { self.content = content }

    func resolved() -> JSONValue {
        switch content {
        case .value(let v): return v
        case .object(let o): return .object(o.mapValues { $0.resolved() })
        case .array(let a): return .array(a.map { $0.resolved() })
        }
    }

    /// The node for one value, or nil when it encoded nothing.
    static func encoding<T: Encodable>(_ value: T, codingPath: [CodingKey]) throws -> JSONNode? {
        if let leaf = try leaf(value, codingPath) { return JSONNode(.value(leaf)) }
        let encoder = NodeEncoder(codingPath: codingPath)
        try value.encode(to: encoder)
        return encoder.node
    }

    /// The values `JSONEncoder` writes itself instead of asking them to encode.
    static func leaf(_ value: Any, _ codingPath: [CodingKey]) throws -> JSONValue? {
        switch value {
        case let s as String: return .string(s)
        case let b as Bool: return .bool(b)
        case let i as Int: return .int(Int64(i))
        case let d as Double: return try JSONValueEncoder.number(d, codingPath)
        case let i as Int64: return .int(i)
        case let i as Int32: return .int(Int64(i))
        case let i as Int16: return .int(Int64(i))
        case let i as Int8: return .int(Int64(i))
        case let u as UInt: return u <= UInt(Int64.max) ? .int(Int64(u)) : try JSONValueEncoder.number(String(u), u, codingPath)
        case let u as UInt64: return u <= UInt64(Int64.max) ? .int(Int64(u)) : try JSONValueEncoder.number(String(u), u, codingPath)
        case let u as UInt32: return .int(Int64(u))
        case let u as UInt16: return .int(Int64(u))
        case let u as UInt8: return .int(Int64(u))
        case let f as Float: return try JSONValueEncoder.number(f.description, f, codingPath)
        case let url as URL: return .string(url.absoluteString)
        case let data as Data: return .string(data.base64EncodedString())
        case let decimal as Decimal: return try JSONValueEncoder.number(decimal.description, decimal, codingPath)
        // Common containers of leaves, without a container per element.
        case let o as [String: Double]: return .object(try o.mapValues { try JSONValueEncoder.number($0, codingPath) })
        case let o as [String: String]: return .object(o.mapValues { .string($0) })
        case let a as [String]: return .array(a.map { .string($0) })
        case let a as [Double]: return .array(try a.map { try JSONValueEncoder.number($0, codingPath) })
        default: return nil
        }
    }
}

/// The `Encoder` a non-leaf value encodes itself into.
private final class NodeEncoder: Encoder {
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    var node: JSONNode?

    init(codingPath: [CodingKey]) { self.codingPath = codingPath }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: JSONNode
        if let node, case .object = node.content {
            object = node
        } else {
            object = JSONNode(.object([:]))
            node = object
        }
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(object: object, codingPath: codingPath))
    }

    func unkeyedContainer() -> UnkeyedEncodingContainer {
        let array: JSONNode
        if let node, case .array = node.content {
            array = node
        } else {
            array = JSONNode(.array([]))
            node = array
        }
        return UnkeyedNodeContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() -> SingleValueEncodingContainer { SingleNodeContainer(encoder: self) }
}

/// Encodes a member value, an empty object standing for one that encoded nothing (as `JSONEncoder` writes `{}`).
private func member<T: Encodable>(_ value: T, _ codingPath: [CodingKey]) throws -> JSONNode {
    try JSONNode.encoding(value, codingPath: codingPath) ?? JSONNode(.object([:]))
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let object: JSONNode
    let codingPath: [CodingKey]

    func set(_ node: JSONNode, _ key: CodingKey) {
        guard case .object(var fields) = object.content else { return }
        object.content = .value(.null) // drop the reference so the dictionary is not copied
        fields[key.stringValue] = node
        object.content = .object(fields)
    }

    mutating func encodeNil(forKey key: Key) throws { set(JSONNode(.value(.null)), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { set(try member(value, codingPath + [key]), key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let nested = JSONNode(.object([:]))
        set(nested, key)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(object: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
        let nested = JSONNode(.array([]))
        set(nested, key)
        return UnkeyedNodeContainer(array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> Encoder { superEncoder(named: AnyKey("super")) }
    mutating func superEncoder(forKey key: Key) -> Encoder { superEncoder(named: key) }

    func superEncoder(named key: CodingKey) -> Encoder {
        let encoder = NodeEncoder(codingPath: codingPath + [key])
        let slot = JSONNode(.object([:]))
        encoder.node = slot
        set(slot, key)
        return encoder
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let array: JSONNode
    let codingPath: [CodingKey]
    var count: Int {
        if case .array(let a) = array.content { return a.count }
        return 0
    }

    func append(_ node: JSONNode) {
        guard case .array(var items) = array.content else { return }
        array.content = .value(.null) // drop the reference so the array is not copied
        items.append(node)
        array.content = .array(items)
    }

    var nextPath: [CodingKey] {
        var key = AnyKey("\(count)")
        key.intValue = count
        return codingPath + [key]
    }

    mutating func encodeNil() throws { append(JSONNode(.value(.null))) }
    mutating func encode<T: Encodable>(_ value: T) throws { append(try member(value, nextPath)) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let nested = JSONNode(.object([:]))
        append(nested)
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(object: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
        let path = nextPath
        let nested = JSONNode(.array([]))
        append(nested)
        return UnkeyedNodeContainer(array: nested, codingPath: path)
    }

    mutating func superEncoder() -> Encoder {
        let encoder = NodeEncoder(codingPath: nextPath)
        let slot = JSONNode(.object([:]))
        encoder.node = slot
        append(slot)
        return encoder
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node = JSONNode(.value(.null)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        encoder.node = try member(value, codingPath)
    }
}
