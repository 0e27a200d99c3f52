import XCTest
final class ContractKitPlaceholder: XCTestCase { func testBuilds() {} }
