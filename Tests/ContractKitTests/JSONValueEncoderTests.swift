import XCTest
import MockBinding

/// `JSONValueEncoder` gives what parsing Foundation's `JSONEncoder` text gives, for every kind of
/// value the models and payloads encode; a converter that keeps whole doubles as `.double` (the
/// obvious shortcut) is told apart.
final class JSONValueEncoderTests: XCTestCase {
    enum Shape: Codable, Equatable { case circle(radius: Double), square(Int), empty }
    class Base: Encodable {
        var id = 7
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encode(id, forKey: AnyKey("id"))
        }
    }
    final class Derived: Base {
        var label: String? = "x/y"
        override func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: AnyKey.self)
            try c.encodeIfPresent(label, forKey: AnyKey("label"))
            try super.encode(to: c.superEncoder())
            var list = c.nestedUnkeyedContainer(forKey: AnyKey("list"))
            try list.encode(1.0)
            try list.encodeNil()
            var inner = list.nestedContainer(keyedBy: AnyKey.self)
            try inner.encode(Float(0.1), forKey: AnyKey("f"))
        }
    }
    struct Row: Codable {
        var name: String
        var skipped: String?
        var nothing: String? = nil
        var doubles: [Double]
        var ints: [Int64]
        var unsigned: UInt64
        var byID: [Int: String]
        var nested: [String: [String: Double]]
        var when: Date
        var id: UUID
        var link: URL
        var blob: Data
        var amount: Decimal
        var shapes: [Shape]
        var json: JSONValue
        var timestamp: PGTimestamp
    }

    /// The values encoded both ways.
    func corpus() throws -> [any Encodable] {
        let row = Row(
            name: "Zoë \"quoted\" \\ \u{1}", skipped: nil,
            doubles: [
                80.0, 0.1, 1e15, 1e16, 9_007_199_254_740_992, 9_007_199_254_740_994, 9.5e15, -9.5e15, -0.0, 1.5e-7, 1e-4, 1e-5, 123.456,
                0.000099999, -0.00012, 1.25, 4_503_599_627_370_495.5,
                -2.5e300, 5e-324
            ],
            ints: [0, -1, Int64.max, Int64.min], unsigned: UInt64.max, byID: [1: "a", 20: "b"],
            nested: ["cost": ["a": 7, "b": 7.25]], when: Date(timeIntervalSince1970: 1_700_000_000.5), id: UUID(),
            link: URL(string: "https://example.com/a b?q=1".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!)!,
            blob: Data([0, 1, 2, 250]), amount: Decimal(string: "1234.50")!,
            shapes: [.circle(radius: 2.0), .square(3), .empty], json: ["a": .double(80), "b": [.int(1), .double(0.5), .null]],
            timestamp: try JSONDecoder().decode(PGTimestamp.self, from: Data(#""2024-01-02T03:04:05.5+00:00""#.utf8)))
        return [row, Derived(), [Float(1.0), Float(0.3), Float(1e20)], "top", 42, 7.0, [String: Int](), [Int?](arrayLiteral: 1, nil)]
    }

    func reference(_ value: any Encodable) throws -> JSONValue { try JSONValue.parse(JSONEncoder().encode(value)) }

    func testEqualsParsingJSONEncoderText() throws {
        for value in try corpus() {
            XCTAssertEqual(try JSONValueEncoder.encode(value), try reference(value), "\(type(of: value))")
        }
    }

    func testNonFiniteFloatsAndEmptyValuesAreRefusedAsJSONEncoderRefusesThem() {
        XCTAssertThrowsError(try JSONEncoder().encode([Double.nan]))
        XCTAssertThrowsError(try JSONValueEncoder.encode([Double.nan]))
        XCTAssertThrowsError(try JSONValueEncoder.encode([Float.infinity]))
        struct Silent: Encodable { func encode(to encoder: Encoder) throws {} }
        XCTAssertThrowsError(try JSONEncoder().encode(Silent()))
        XCTAssertThrowsError(try JSONValueEncoder.encode(Silent()))
        XCTAssertEqual(try JSONValueEncoder.encode(["s": Silent()]), try reference(["s": Silent()]))
    }

    /// The mutant: whole doubles kept as `.double` print `80.0` in jsonb and pretty output where
    /// the reference prints `80`; the comparison above must see it.
    func testTheComparisonRejectsAConverterKeepingWholeDoublesAsDoubles() throws {
        func naive(_ v: JSONValue) -> JSONValue {
            switch v {
            case .int(let i): return .double(Double(i))
            case .array(let a): return .array(a.map(naive))
            case .object(let o): return .object(o.mapValues(naive))
            default: return v
            }
        }
        let value = try corpus()[0]
        let encoded = try JSONValueEncoder.encode(value)
        XCTAssertNotEqual(naive(encoded), try reference(value))
        XCTAssertNotEqual(naive(encoded).serialized(.pretty), try reference(value).serialized(.pretty))
    }
}
