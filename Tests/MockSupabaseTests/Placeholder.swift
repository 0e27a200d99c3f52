import XCTest
final class MockSupabasePlaceholder: XCTestCase { func testBuilds() {} }
