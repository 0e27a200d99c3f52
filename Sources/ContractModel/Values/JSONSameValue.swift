import Foundation

extension JSONValue {
    /// Equal as JSON values, numbers compared by value (`1` and `1.0` are the same).
    package static func sameValue(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x == y
        case (.int, .double), (.double, .int), (.double, .double): return a.doubleValue == b.doubleValue
        case (.number, .int), (.number, .double), (.number, .number), (.int, .number), (.double, .number):
            // Compared as numeric, as jsonb compares numbers (`1.50` is `1.5`).
            guard let x = a.numericValue, let y = b.numericValue else { return false }
            return PGNumeric.compare(x, y) == 0
        case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { sameValue(v, $0) } ?? false }
        default: return a == b
        }
    }
}

extension JSONValue {
    /// A number as jsonb's `numeric` holds it; nil for anything else.
    package var numericValue: PGNumeric? {
        switch self {
        case .int(let i): return PGNumeric(i)
        case .double(let d): return PGNumeric(d)
        case .number(let t): return PGNumeric.parse(t)
        default: return nil
        }
    }
}
