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

/// A node of a contract file: its value and where it is. Types decode it through the contract
/// decoder (`decode(_:values:)`, ContractDecoder.swift); errors are `SpecError`s naming the file
/// and path.
package struct SpecNode: Sendable {
    package let value: JSONValue
    /// The JSONPath of this node.
    package let path: String
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

    package func string() throws -> String {
        guard case .string(let s) = value else { throw fail("expected a string, found \(value.typeName)") }
        return s
    }
    /// The elements as nodes.
    package func array() throws -> [SpecNode] {
        guard case .array(let a) = value else { throw fail("expected an array, found \(value.typeName)") }
        return a.enumerated().map { SpecNode(value: $1, file: file, path: "\(path)[\($0)]") }
    }

    /// The JSONPath of member `key` under `path` (`$.a.b`, or `$.a["odd key"]`).
    package static func childPath(_ path: String, _ key: String) -> String {
        let simple = !key.isEmpty && key.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" }
        return simple ? "\(path).\(key)" : "\(path)[\"\(key)\"]"
    }
}
