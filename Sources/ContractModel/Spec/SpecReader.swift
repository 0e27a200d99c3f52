import Foundation

/// A contract file that could not be read: names the file, the JSON path and what is wrong.
package struct SpecError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file, relative to the contracts folder where known.
    package var file: String
    /// A JSONPath such as `$.tables[2].columns[0].type`.
    package var path: String
    /// What is wrong there.
    package var message: String

    /// An error at a place in a file.
    package init(file: String, path: String, message: String) {
        self.file = file
        self.path = path
        self.message = message
    }

    package var description: String { "\(file): \(path): \(message)" }
}

/// A node of a contract file being decoded: its value, where it is, and strict accessors that
/// fail with a `SpecError` naming the file and path.
package struct SpecNode: Sendable {
    /// The JSON value here.
    package let value: JSONValue
    /// The JSONPath of this node.
    package let path: String
    /// The file it came from.
    package let file: String

    /// A node at the root of a parsed file.
    package init(value: JSONValue, file: String, path: String = "$") {
        self.value = value
        self.file = file
        self.path = path
    }

    /// Reads and parses a file; a syntax error names the file, line and column.
    package static func load(_ url: URL, displayName: String? = nil) throws -> SpecNode {
        let name = displayName ?? url.path
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw SpecError(file: name, path: "$", message: "cannot read file (\(error.localizedDescription))")
        }
        do {
            return SpecNode(value: try JSONValue.parse(data), file: name)
        } catch let e as JSONParseError {
            let prefix = data.prefix(e.offset)
            let line = prefix.filter { $0 == 0x0A }.count + 1
            let col = e.offset - (prefix.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            throw SpecError(file: name, path: "$", message: "invalid JSON at line \(line), column \(col): \(e.reason)")
        }
    }

    /// An error at this node.
    package func fail(_ message: String) -> SpecError { SpecError(file: file, path: path, message: message) }

    /// The value as a string.
    package func string() throws -> String {
        guard case .string(let s) = value else { throw fail("expected a string, found \(value.typeName)") }
        return s
    }
    /// The value as a boolean.
    package func bool() throws -> Bool {
        guard case .bool(let b) = value else { throw fail("expected a boolean, found \(value.typeName)") }
        return b
    }
    /// The value as a number.
    package func double() throws -> Double {
        guard let d = value.doubleValue else { throw fail("expected a number, found \(value.typeName)") }
        return d
    }
    /// The value as an integer.
    package func int() throws -> Int {
        guard let i = value.intValue else { throw fail("expected an integer, found \(value.typeName)") }
        return Int(i)
    }
    /// The elements as nodes.
    package func array() throws -> [SpecNode] {
        guard case .array(let a) = value else { throw fail("expected an array, found \(value.typeName)") }
        return a.enumerated().map { SpecNode(value: $1, file: file, path: "\(path)[\($0)]") }
    }
    /// The elements as strings.
    package func strings() throws -> [String] { try array().map { try $0.string() } }

    /// Decodes an object strictly: `body` reads its keys through the reader; any key it did not
    /// read (other than `$comment` and `trace`, see `SourceTrace`) is an error naming the key.
    package func object<T>(_ body: (SpecObject) throws -> T) throws -> T {
        guard case .object(let o) = value else { throw fail("expected an object, found \(value.typeName)") }
        let reader = SpecObject(node: self, members: o)
        let result = try body(reader)
        // `trace` (the document's words behind the object's values) is allowed on every object;
        // its shape is checked here, its numbers by the gate and verify (SourceTrace).
        try SourceTrace.readShape(object: o, file: file, path: path)
        for key in o.keys.sorted() where !reader.read.contains(key) && key != "$comment" && key != "trace" {
            throw SpecError(
                file: file, path: SpecNode.childPath(path, key), message: "unknown key '\(key)' (known here: \(reader.read.sorted().joined(separator: ", ")))")
        }
        return result
    }

    /// The members of an object whose keys are free-form (a map).
    package func map() throws -> [(key: String, node: SpecNode)] {
        guard case .object(let o) = value else { throw fail("expected an object, found \(value.typeName)") }
        return o.keys.sorted().filter { $0 != "$comment" }.map { ($0, SpecNode(value: o[$0]!, file: file, path: SpecNode.childPath(path, $0))) }
    }

    /// The JSONPath of member `key` under `path` (`$.a.b`, or `$.a["odd key"]`).
    package static func childPath(_ path: String, _ key: String) -> String {
        let simple = !key.isEmpty && key.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" }
        return simple ? "\(path).\(key)" : "\(path)[\"\(key)\"]"
    }
}

/// Strict access to the members of an object node; tracks which keys were read.
package final class SpecObject {
    let node: SpecNode
    let members: [String: JSONValue]
    fileprivate(set) var read: Set<String> = []

    init(node: SpecNode, members: [String: JSONValue]) {
        self.node = node
        self.members = members
    }

    /// The object's own node.
    package var this: SpecNode { node }

    /// A required member.
    package func required(_ key: String) throws -> SpecNode {
        read.insert(key)
        guard let v = members[key] else { throw node.fail("missing required key '\(key)'") }
        return SpecNode(value: v, file: node.file, path: SpecNode.childPath(node.path, key))
    }

    /// An optional member (absent or null gives nil).
    package func optional(_ key: String) -> SpecNode? {
        read.insert(key)
        guard let v = members[key], !v.isNull else { return nil }
        return SpecNode(value: v, file: node.file, path: SpecNode.childPath(node.path, key))
    }

    /// Whether the object has this key.
    package func has(_ key: String) -> Bool { members[key] != nil }
}
