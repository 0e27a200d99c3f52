import Foundation

// Units in contract files, parsed here and nowhere else.

/// A size in bytes: an integer, or a string with a unit as Supabase writes them (`"5MB"`,
/// `"50MiB"`, `"200KB"`, `"3B"`; KB/MB/GB are powers of 1000, KiB/MiB/GiB of 1024).
package struct ByteSize: Decodable, Sendable, Equatable {
    package var bytes: Int

    /// A size of `bytes` bytes.
    package init(bytes: Int) { self.bytes = bytes }

    /// The multiple of a byte each unit names.
    static let units: [String: Int] = [
        "b": 1, "kb": 1000, "mb": 1_000_000, "gb": 1_000_000_000,
        "kib": 1024, "mib": 1 << 20, "gib": 1 << 30
    ]

    /// Parses a size; the error says what is accepted.
    package init(_ value: JSONValue) throws(ByteSizeError) {
        if let i = value.intValue {
            guard i >= 0 else { throw .negative }
            bytes = Int(i)
            return
        }
        guard case .string(let raw) = value else { throw .wrongType(value.typeName) }
        let s = raw.trimmingCharacters(in: .whitespaces)
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        let unit = s.dropFirst(digits.count).trimmingCharacters(in: .whitespaces).lowercased()
        guard let v = Int(digits), let m = ByteSize.units[unit] else { throw .invalid(s) }
        bytes = v * m
    }

    package init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer().decode(JSONValue.self)
        do { try self.init(value) } catch { throw decoder.fail(error.description) }
    }
}

/// Why a size could not be read.
package enum ByteSizeError: Error, CustomStringConvertible, Sendable {
    case negative
    case wrongType(String)
    case invalid(String)

    package var description: String {
        switch self {
        case .negative: return "a size cannot be negative"
        case .wrongType(let t): return "expected a string, found \(t)"
        case .invalid(let s): return "invalid size '\(s)' (bytes, or a number with B, KB, MB, GB, KiB, MiB, GiB)"
        }
    }
}

extension Decoder {
    /// Checks the member `key` is a finite number above zero (seconds, milliseconds).
    package func checkPositive(_ value: Double, _ key: String) throws {
        guard value.isFinite, value > 0 else { throw fail(key, "expected a positive number, found \(value)") }
    }
    /// Checks the member `key` is a finite number, zero or above (nil passes).
    package func checkNonNegative(_ value: Double?, _ key: String) throws {
        guard let value else { return }
        guard value.isFinite, value >= 0 else { throw fail(key, "expected a non-negative number, found \(value)") }
    }
    /// Checks the member `key` is an integer above zero (pixels, bytes).
    package func checkPositive(_ value: Int, _ key: String) throws {
        guard value > 0 else { throw fail(key, "expected a positive integer, found \(value)") }
    }
}
