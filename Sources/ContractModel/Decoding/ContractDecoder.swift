import Foundation

// The one decoder of contract files: a `Decoder` over a parsed `JSONValue` whose coding path is
// the JSON path (`$.tables[3].columns.email`) and whose every error is a `SpecError` naming the
// file and that path, in the words `SpecNode` uses ("expected a string, found number",
// "missing required key 'id'", "unknown key 'x' (known here: …)").
//
// Unknown keys: once a type's `init(from:)` returns, every key of each object it opened must
// have been asked for (decode, decodeIfPresent, contains) or be declared by a `CaseIterable`
// coding-key type; `$comment` and `trace` (see `SourceTrace`) are allowed everywhere, and so are
// the notes people write beside rules (`noteKeys`), which must be text where a type does not read them.
// A type whose members need checks beyond their types is `ContractChecked`: synthesized
// `Decodable` reads the members, then the decoder calls `validate` at the type's node.
// Free-form maps opened with `AnyKey` are not checked (every key is data).
// Absent and `null` are the same to `decodeIfPresent`, as to a member a type reads as optional.

extension SpecNode {
    /// Decodes this node as `T` through the contract decoder (paths continue from this node's).
    /// `values` seed the decoding state (what the types read besides the file: a folder, a schema).
    package func decode<T: Decodable>(_ type: T.Type = T.self, values: [String: Any] = [:]) throws -> T {
        let state = ContractDecodingState(file: file)
        state.values = values
        let d = ContractValueDecoder(value: value, path: path, codingPath: [ContractRootKey(file: file, path: path)], state: state)
        return try d.decodeChecked(T.self)
    }

    /// Reads and decodes a contract file as `T`.
    package static func decode<T: Decodable>(_ type: T.Type, from url: URL, displayName: String? = nil) throws -> T {
        try load(url, displayName: displayName).decode(T.self)
    }
}

/// A type the contract decoder checks once its members are decoded (ranges, references, ids).
package protocol ContractChecked {
    /// Throws the first rule the decoded value breaks (`decoder.fail(key, …)` names the member).
    func validate(_ decoder: Decoder) throws
}

/// A coding key of a free-form map, or (made with `intValue`) an array index in `fail(_:_:)` paths.
package struct AnyKey: CodingKey, Hashable, Sendable {
    package var stringValue: String
    package var intValue: Int?
    package init(_ string: String) { stringValue = string; intValue = nil }
    package init?(stringValue: String) { self.init(stringValue) }
    package init?(intValue: Int) { stringValue = "\(intValue)"; self.intValue = intValue }
}

/// An array position in a coding path (rendered `[i]`).
struct IndexKey: CodingKey {
    var stringValue: String { "\(index)" }
    var intValue: Int? { index }
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { index = intValue }
}

/// Per-file state shared by every node of one decode: the file's name and values that types
/// leave for the types decoded after them (rule ids claimed so far, a section others refer to).
package final class ContractDecodingState {
    /// The file, as named in errors.
    package let file: String
    /// Values keyed by a name the types agree on.
    package var values: [String: Any] = [:]
    init(file: String) { self.file = file }
}

extension CodingUserInfoKey {
    /// Where the contract decoder keeps its `ContractDecodingState`.
    static let contractState = CodingUserInfoKey(rawValue: "supacontracts.contractState")!
}

/// The first key of every coding path the contract decoder makes: the file and the JSON path
/// decoding started at, so a coding path alone names the place (`Decoder.fail`,
/// `KeyedDecodingContainer.fail`).
package struct ContractRootKey: CodingKey {
    /// The file, as named in errors.
    package let file: String
    /// Where decoding started (`$`, or a node's path).
    package let path: String
    package var stringValue: String { path }
    package var intValue: Int? { nil }
    init(file: String, path: String) { self.file = file; self.path = path }
    package init?(stringValue: String) { return nil }
    package init?(intValue: Int) { return nil }
}

/// The file and JSON path a coding path names (`$.tables[3].columns.email`).
package func contractPlace(_ keys: [CodingKey]) -> (file: String, path: String) {
    var file = "", path = "$"
    for k in keys {
        if let r = k as? ContractRootKey {
            file = r.file; path = r.path
        } else if let i = k as? IndexKey {
            path += "[\(i.index)]"
        } else if let a = k as? AnyKey, let i = a.intValue {
            path += "[\(i)]"
        } else {
            path = SpecNode.childPath(path, k.stringValue)
        }
    }
    return (file, path)
}

extension Decoder {
    /// The per-file state of the contract decoder (nil under another decoder).
    package var contractState: ContractDecodingState? { userInfo[.contractState] as? ContractDecodingState }
    package var jsonPath: String { contractPlace(codingPath).path }
    /// An error at this node naming the file and path.
    package func fail(_ message: String) -> SpecError {
        let place = contractPlace(codingPath)
        return SpecError(file: place.file, path: place.path, message: message)
    }
    /// An error at the member `key` of this node (whether or not it is present).
    package func fail(_ key: String, _ message: String) -> SpecError { fail([AnyKey(key)], message) }
    /// An error at a place below this node (`[AnyKey(intValue: 2)!, AnyKey("id")]`).
    package func fail(_ keys: [CodingKey], _ message: String) -> SpecError {
        let place = contractPlace(codingPath + keys)
        return SpecError(file: place.file, path: place.path, message: message)
    }
    /// This node as a `SpecNode` (for the parts still read by hand).
    package func node() throws -> SpecNode {
        guard let d = self as? ContractValueDecoder else { throw fail("a contract node needs the contract decoder") }
        d.readAll = true
        return SpecNode(value: d.value, file: d.state.file, path: d.path)
    }
}

extension KeyedDecodingContainerProtocol {
    /// An error at the member `key` (whether or not it is present).
    package func fail(_ key: Key, _ message: String) -> SpecError {
        let place = contractPlace(codingPath + [key])
        return SpecError(file: place.file, path: place.path, message: message)
    }
    /// An error at a place below this object (`[key, AnyKey("value")]`).
    package func fail(_ keys: [CodingKey], _ message: String) -> SpecError {
        let place = contractPlace(codingPath + keys)
        return SpecError(file: place.file, path: place.path, message: message)
    }
    /// An error at the object itself.
    package func fail(_ message: String) -> SpecError {
        let place = contractPlace(codingPath)
        return SpecError(file: place.file, path: place.path, message: message)
    }
    /// A member that must be present but may be `null` (nil).
    package func decodeNullable<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key) else { throw fail("missing required key '\(key.stringValue)'") }
        return try decodeIfPresent(type, forKey: key)
    }
}

private func caseNames<C: CaseIterable>(_ type: C.Type) -> [String] {
    type.allCases.compactMap { ($0 as? CodingKey)?.stringValue }
}

package final class ContractValueDecoder: Decoder {
    /// Notes for people (the document's words, where it says so, a decision): allowed on every
    /// object, as text. A type that gives one a meaning (a required `doc`) reads it itself.
    static let noteKeys: Set<String> = ["doc", "decision", "source"]
    let value: JSONValue
    let path: String
    package let codingPath: [CodingKey]
    let state: ContractDecodingState
    package var userInfo: [CodingUserInfoKey: Any] { [.contractState: state] }
    /// Keys asked for on this node's object; nil when no keyed container was opened.
    var read: Set<String>?
    /// Whether the whole node was handed over (as a map or a `SpecNode`): no unknown-key check.
    var readAll = false
    /// Decoders of nested containers, checked with this one.
    var nested: [ContractValueDecoder] = []

    init(value: JSONValue, path: String, codingPath: [CodingKey], state: ContractDecodingState) {
        self.value = value
        self.path = path
        self.codingPath = codingPath
        self.state = state
    }

    func fail(_ message: String) -> SpecError { SpecError(file: state.file, path: path, message: message) }

    func child(_ value: JSONValue, _ key: CodingKey) -> ContractValueDecoder {
        let p = key is IndexKey ? "\(path)[\(key.intValue!)]" : SpecNode.childPath(path, key.stringValue)
        return ContractValueDecoder(value: value, path: p, codingPath: codingPath + [key], state: state)
    }

    /// Decodes `T` here, then rejects keys it did not read.
    func decodeChecked<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        if T.self == SpecNode.self { return SpecNode(value: value, file: state.file, path: path) as! T }
        let result = try T(from: self)
        try checkUnknownKeys()
        try (result as? ContractChecked)?.validate(self)
        return result
    }

    func checkUnknownKeys() throws {
        for n in nested { try n.checkUnknownKeys() }
        guard let read, !readAll, case .object(let o) = value else { return }
        try SourceTrace.readShape(object: o, file: state.file, path: path)
        for key in o.keys.sorted() where !read.contains(key) && key != "$comment" && key != "trace" {
            let place = SpecNode.childPath(path, key)
            if Self.noteKeys.contains(key), let note = o[key] {
                guard case .string = note else { throw SpecError(file: state.file, path: place, message: "expected a string, found \(note.typeName)") }
                continue
            }
            throw SpecError(
                file: state.file, path: place,
                message: "unknown key '\(key)' (known here: \(read.sorted().joined(separator: ", ")))")
        }
    }

    package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let o) = value else { throw fail("expected an object, found \(value.typeName)") }
        if read == nil { read = [] }
        if Key.self == AnyKey.self { readAll = true }
        if let all = Key.self as? any CaseIterable.Type { read!.formUnion(caseNames(all)) }
        return KeyedDecodingContainer(ContractKeyedContainer<Key>(decoder: self, members: o))
    }

    package func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let a) = value else { throw fail("expected an array, found \(value.typeName)") }
        return ContractUnkeyedContainer(decoder: self, elements: a)
    }

    package func singleValueContainer() throws -> SingleValueDecodingContainer { ContractSingleValue(decoder: self) }

    // Scalars, in SpecNode's words.
    func string() throws -> String {
        guard case .string(let s) = value else { throw fail("expected a string, found \(value.typeName)") }
        return s
    }
    func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw fail("expected a boolean, found \(value.typeName)") }
        return b
    }
    func double() throws -> Double {
        guard let d = value.doubleValue else { throw fail("expected a number, found \(value.typeName)") }
        return d
    }
    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard let i = value.intValue else { throw fail("expected an integer, found \(value.typeName)") }
        guard let v = I(exactly: i) else { throw fail("integer \(i) out of range") }
        return v
    }
    func scalar<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return try string() as! T
        case is Bool.Type: return try bool() as! T
        case is Double.Type: return try double() as! T
        case is Float.Type: return Float(try double()) as! T
        case is Int.Type: return try integer(Int.self) as! T
        case is Int64.Type: return try integer(Int64.self) as! T
        case is Int32.Type: return try integer(Int32.self) as! T
        case is UInt.Type: return try integer(UInt.self) as! T
        default: return try decodeChecked(T.self)
        }
    }
}

struct ContractKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ContractValueDecoder
    let members: [String: JSONValue]
    var codingPath: [CodingKey] { decoder.codingPath }
    var allKeys: [Key] { members.keys.sorted().filter { $0 != "$comment" }.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool {
        decoder.read?.insert(key.stringValue)
        return members[key.stringValue] != nil
    }

    func member(_ key: Key) throws -> ContractValueDecoder {
        decoder.read?.insert(key.stringValue)
        guard let v = members[key.stringValue] else { throw decoder.fail("missing required key '\(key.stringValue)'") }
        return decoder.child(v, key)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.read?.insert(key.stringValue)
        return members[key.stringValue]?.isNull ?? true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).scalar(T.self) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        decoder.read?.insert(key.stringValue)
        guard let v = members[key.stringValue], !v.isNull else { return nil }
        return try decoder.child(v, key).scalar(T.self)
    }

    // The concrete overloads route to the generic ones (the protocol requires them).
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).double() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).integer(Int.self) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key)?.bool() }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key)?.string() }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key)?.double() }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key)?.integer(Int.self) }

    func present(_ key: Key) -> ContractValueDecoder? {
        decoder.read?.insert(key.stringValue)
        guard let v = members[key.stringValue], !v.isNull else { return nil }
        return decoder.child(v, key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let d = try member(key)
        decoder.nested.append(d)
        return try d.container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        let d = try member(key)
        decoder.nested.append(d)
        return try d.unkeyedContainer()
    }

    func superDecoder() throws -> Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> Decoder {
        let d = try member(key)
        decoder.nested.append(d)
        return d
    }
}

struct ContractUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ContractValueDecoder
    let elements: [JSONValue]
    var currentIndex = 0
    var codingPath: [CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next() throws -> ContractValueDecoder {
        guard !isAtEnd else { throw decoder.fail("expected more than \(elements.count) elements") }
        defer { currentIndex += 1 }
        return decoder.child(elements[currentIndex], IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().scalar(T.self) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let d = try next()
        decoder.nested.append(d)
        return try d.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let d = try next()
        decoder.nested.append(d)
        return try d.unkeyedContainer()
    }

    mutating func superDecoder() throws -> Decoder {
        let d = try next()
        decoder.nested.append(d)
        return d
    }
}

struct ContractSingleValue: SingleValueDecodingContainer {
    let decoder: ContractValueDecoder
    var codingPath: [CodingKey] { decoder.codingPath }
    func decodeNil() -> Bool { decoder.value.isNull }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // A type decoding itself again (a wrapper) shares this node and its key checks.
        if T.self == JSONValue.self || T.self == SpecNode.self { return try decoder.decodeChecked(T.self) }
        switch type {
        case is String.Type, is Bool.Type, is Double.Type, is Float.Type, is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type:
            return try decoder.scalar(T.self)
        default:
            let result = try T(from: decoder)
            try (result as? ContractChecked)?.validate(decoder)
            return result
        }
    }
}

extension SpecNode: Decodable {
    /// The node itself, for a part a type still reads by hand (only under the contract decoder).
    package init(from decoder: Decoder) throws { self = try decoder.node() }
}
