import XCTest
final class ContractsPlaceholder: XCTestCase { func testBuilds() {} }
